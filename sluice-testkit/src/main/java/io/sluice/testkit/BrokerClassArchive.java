package io.sluice.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A class-data-sharing archive (JDK AppCDS) of the classes a broker loads while it starts, so that every broker JVM a
 * test starts maps them instead of loading and verifying them from the jars: a start costs about 1.3 s of CPU instead
 * of 3.6 s, which adds up over the suite's ~200 broker starts on the 2-core CI machine. The archive is made once per
 * distribution build and JDK (a standalone broker started with {@code -XX:ArchiveClassesAtExit} and stopped once it is
 * ready) under {@code java.io.tmpdir}, keyed by the JDK, the JVM flags and every jar's name, size and modification
 * time. Without an archive (making it failed) brokers start as before; a stale archive never applies (its key
 * differs, and the JVM itself ignores an archive whose class path does not match).
 *
 * <p>Thread-safe: the archive is made at most once per JVM, under this class's lock.
 */
final class BrokerClassArchive {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerClassArchive.class);
    /** How long making the archive may take: a broker's start plus the dump at its exit, on a busy machine. */
    private static final Duration MAKE_TIMEOUT = Duration.ofSeconds(120);

    /** Archive file per distribution directory whose making was tried in this JVM; null value: it failed. */
    private static final Map<Path, Path> TRIED = new HashMap<>();

    private BrokerClassArchive() {}

    /** The JVM options that use the archive of {@code distribution}'s broker, making it first if needed; maybe none. */
    static synchronized List<String> jvmOptions(SluiceCliDistribution distribution, List<String> jvmFlags) {
        if (!distribution.startsSluiceCli()) {
            return List.of();
        }
        Path cliDir = distribution.cliDir();
        if (TRIED.containsKey(cliDir)) {
            Path made = TRIED.get(cliDir);
            return made != null && Files.isRegularFile(made) ? List.of("-XX:SharedArchiveFile=" + made) : List.of();
        }
        Path archive = null;
        try {
            archive = archiveFile(distribution, jvmFlags);
            if (!Files.isRegularFile(archive)) {
                make(distribution, jvmFlags, archive);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("brokers start without a class-data archive: {}", e.toString());
            archive = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            archive = null;
        }
        TRIED.put(cliDir, archive);
        return archive == null ? List.of() : List.of("-XX:SharedArchiveFile=" + archive);
    }

    private static Path archiveFile(SluiceCliDistribution distribution, List<String> jvmFlags) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder key = new StringBuilder(System.getProperty("java.home"))
                .append('|')
                .append(System.getProperty("java.vm.version"))
                .append('|')
                .append(jvmFlags)
                .append('|');
        List<Path> jars = new ArrayList<>();
        jars.add(distribution.cliDir().resolve(SluiceCliDistribution.CLI_JAR));
        try (Stream<Path> lib = Files.list(distribution.cliDir().resolve(SluiceCliDistribution.LIB_DIR))) {
            lib.sorted().forEach(jars::add);
        }
        for (Path jar : jars) {
            key.append(jar)
                    .append(':')
                    .append(Files.size(jar))
                    .append(':')
                    .append(Files.getLastModifiedTime(jar).toMillis())
                    .append('|');
        }
        String hash = HexFormat.of().formatHex(digest.digest(key.toString().getBytes(StandardCharsets.UTF_8)));
        return Path.of(System.getProperty("java.io.tmpdir"), "sluice-broker-classes-" + hash.substring(0, 16) + ".jsa");
    }

    /** Starts a standalone broker that dumps the classes it loaded when it exits, and stops it once it is ready. */
    private static void make(SluiceCliDistribution distribution, List<String> jvmFlags, Path archive)
            throws IOException, InterruptedException {
        Path work = Files.createTempDirectory("sluice-class-archive");
        Path dumping = archive.resolveSibling(
                archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        List<String> command = new ArrayList<>(jvmFlags);
        command.add("-XX:ArchiveClassesAtExit=" + dumping);
        List<String> full = distribution.commandWithJvmOptions(
                command,
                "server",
                "--data-dir",
                work.resolve("data").toString(),
                "--listen",
                SluiceBrokerProcess.LOOPBACK_EPHEMERAL);
        long started = System.nanoTime();
        Process broker = new ProcessBuilder(full).redirectErrorStream(true).start();
        LiveProcesses.remember(broker);
        try {
            broker.getOutputStream().close();
            if (!awaitReadyLine(broker)) {
                throw new IOException("the archiving broker printed no ready line");
            }
            broker.toHandle().destroy();
            if (!broker.waitFor(MAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || !Files.isRegularFile(dumping)) {
                throw new IOException("the archiving broker wrote no archive " + dumping);
            }
            Files.move(dumping, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            LOG.info(
                    "made broker class-data archive {} in {} ms",
                    archive,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        } finally {
            broker.destroyForcibly();
            LiveProcesses.forget(broker);
            Files.deleteIfExists(dumping);
            deleteTree(work);
        }
    }

    /** Reads the broker's output (CDS warnings included) on: true once it printed its ready line, false if it ended. */
    private static boolean awaitReadyLine(Process broker) throws InterruptedException {
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread drain = new Thread(
                () -> {
                    try (BufferedReader reader = new BufferedReader(
                            new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = reader.readLine()) != null) {
                            if (SluiceBrokerProcess.READY_LINE.matcher(line).matches()) {
                                ready.complete(true);
                            }
                        }
                    } catch (IOException e) {
                        // The broker ended: not ready.
                    }
                    ready.complete(false);
                },
                "sluice-class-archive-output");
        drain.setDaemon(true);
        drain.start();
        try {
            return ready.get(MAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
