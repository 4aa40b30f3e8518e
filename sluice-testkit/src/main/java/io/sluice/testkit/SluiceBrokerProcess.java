package io.sluice.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Sluice broker running in its own JVM process, started from the built {@code sluice-cli} distribution, for tests
 * where process death matters (SIGTERM, SIGKILL, restart on the same data directory).
 *
 * <p>The broker's stdout and stderr go to {@link #logFile()} (next to the data directory, appended across restarts)
 * and to a bounded in-memory tail ({@link #outputTail()}) for failure messages. The first start binds an ephemeral
 * loopback port; {@link #restart()} binds the same port again, as a real broker keeps its address across restarts
 * (clients that cached the old address would otherwise chase a dead one). Only when that port stays taken by
 * another socket does a restart fall back to a new ephemeral port: {@link #bootstrap()} always names the current one.
 *
 * <p>Not thread-safe; one per broker, driven by one test thread.
 */
public final class SluiceBrokerProcess implements AutoCloseable {

    /** How long a start may take before the test fails: JVM start plus log recovery on a slow CI machine. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /** How long a SIGTERM'd broker may take to shut down before it is killed. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** How long to wait for a SIGKILL'd process to be reaped. */
    static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);
    /** How long the {@code kill} command that sends SIGSTOP or SIGCONT may take. */
    static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(10);
    /** The one stdout line a broker prints when it accepts connections (contract with sluice-cli). */
    static final Pattern READY_LINE = Pattern.compile("Sluice broker (\\S+) started, listening on (\\S+):(\\d+)");

    static final String LOOPBACK_EPHEMERAL = "127.0.0.1:0";
    static final String LOOPBACK_HOST = "127.0.0.1";
    private static final int TAIL_LINES = 300;
    /** How often a restart tries its old port again while another socket holds it, and how long it waits between. */
    static final int SAME_PORT_ATTEMPTS = 5;

    static final Duration SAME_PORT_RETRY = Duration.ofSeconds(1);
    /** What the broker prints when its listener cannot bind (a java.net.BindException). */
    static final String PORT_TAKEN = "Address already in use";

    private final SluiceCliDistribution distribution;
    private final Path dataDir;
    private final List<String> overrides;
    private final Path logFile;
    private final Duration readyTimeout;
    private final OutputTail tail = new OutputTail(TAIL_LINES);
    private Process process;
    private Thread outputPump;
    private String brokerId;
    private int port;
    /** The port of the last run that got ready; a restart binds it again. */
    private int lastPort;

    private int starts;
    private boolean paused;
    /** Set by the output pump when the current run printed that its port is taken. */
    private volatile boolean portTaken;

    private SluiceBrokerProcess(
            SluiceCliDistribution distribution, Path dataDir, List<String> overrides, Duration readyTimeout) {
        this.distribution = distribution;
        this.readyTimeout = readyTimeout;
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.overrides = List.copyOf(overrides);
        Path parent = this.dataDir.getParent();
        this.logFile = parent.resolve(this.dataDir.getFileName() + "-broker.log");
    }

    /**
     * Starts a broker on {@code dataDir} (created if missing) with Kafka-named config {@code overrides}
     * ({@code "key=value"}), and waits until it prints its ready line.
     */
    public static SluiceBrokerProcess start(Path dataDir, String... overrides) throws IOException {
        return start(SluiceCliDistribution.fromEnvironment(), dataDir, List.of(overrides));
    }

    public static SluiceBrokerProcess start(SluiceCliDistribution distribution, Path dataDir, List<String> overrides)
            throws IOException {
        return start(distribution, dataDir, overrides, READY_TIMEOUT);
    }

    /**
     * Like {@link #start(SluiceCliDistribution, Path, List)}, with its own bound on this and every later start (several
     * brokers starting at once on a small machine need more than {@link #READY_TIMEOUT}).
     */
    public static SluiceBrokerProcess start(
            SluiceCliDistribution distribution, Path dataDir, List<String> overrides, Duration readyTimeout)
            throws IOException {
        distribution.requireBuilt();
        SluiceBrokerProcess broker = new SluiceBrokerProcess(distribution, dataDir, overrides, readyTimeout);
        broker.launch(LOOPBACK_EPHEMERAL);
        return broker;
    }

    /** {@code "127.0.0.1:<port>"} of the current run. */
    public String bootstrap() {
        requireStarted();
        return LOOPBACK_HOST + ":" + port;
    }

    public int port() {
        requireStarted();
        return port;
    }

    /** The broker id from the ready line. */
    public String brokerId() {
        requireStarted();
        return brokerId;
    }

    public long pid() {
        requireStarted();
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** True between {@link #pause()} and {@link #resume()} (or the end of the process). */
    public boolean isPaused() {
        return paused && isAlive();
    }

    /**
     * SIGSTOP: the broker process freezes (no heartbeats, no requests answered; the kernel still accepts TCP
     * connections into its backlog) until {@link #resume()}. Models a long GC pause or a VM stall.
     */
    public void pause() throws IOException {
        requireStarted();
        signal("STOP");
        paused = true;
    }

    /** SIGCONT after {@link #pause()}; a no-op when the broker is not paused. */
    public void resume() throws IOException {
        if (!isPaused()) {
            paused = false;
            return;
        }
        signal("CONT");
        paused = false;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return logFile;
    }

    /** The last lines the broker printed (across restarts), for assertion messages. */
    public String outputTail() {
        return tail.text();
    }

    /**
     * SIGTERM, then waits up to {@link #STOP_TIMEOUT}; kills the process if it did not exit.
     *
     * @return true if the broker exited by itself after SIGTERM, false if it had to be killed or was not running
     */
    public boolean stop() throws InterruptedException {
        if (!isAlive()) {
            return false;
        }
        resumeForShutdown();
        // Through the handle: Process.destroy() would also close our end of the pipe and lose the shutdown log.
        process.toHandle().destroy();
        boolean exited = process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (!exited) {
            tail.append("[testkit] broker did not exit within " + STOP_TIMEOUT + " after SIGTERM; killing it");
            kill9();
        }
        joinOutputPump();
        return exited;
    }

    /**
     * {@link #stop()}, then {@link #close()} whatever happened: for cleanup code that must go on to the next broker.
     * Never throws; an interrupt is kept as the thread's interrupt status.
     */
    public void stopAndClose() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
    }

    /** SIGKILL (what {@link ProcessHandle#destroyForcibly()} sends on Linux) and waits for the process to be reaped. */
    public void kill9() throws InterruptedException {
        if (process == null) {
            return;
        }
        if (process.isAlive()) {
            markInLog("SIGKILL to pid " + process.pid());
        }
        process.toHandle().destroyForcibly();
        if (!process.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(
                    "broker pid " + process.pid() + " still alive " + KILL_TIMEOUT + " after SIGKILL");
        }
        paused = false;
        joinOutputPump();
    }

    /**
     * Stops the broker if it runs (SIGTERM) and starts it again on the same data directory, overrides and port (a new
     * ephemeral port only if the old one stays taken for {@link #SAME_PORT_ATTEMPTS} tries).
     */
    public void restart() throws IOException, InterruptedException {
        stop();
        if (lastPort == 0) {
            launch(LOOPBACK_EPHEMERAL);
            return;
        }
        String samePort = LOOPBACK_HOST + ":" + lastPort;
        for (int attempt = 1; attempt <= SAME_PORT_ATTEMPTS; attempt++) {
            try {
                launch(samePort);
                return;
            } catch (IOException e) {
                if (!portTaken) {
                    throw e;
                }
                markInLog("port " + lastPort + " is taken (attempt " + attempt + " of " + SAME_PORT_ATTEMPTS + ")");
                Thread.sleep(SAME_PORT_RETRY.toMillis());
            }
        }
        markInLog("port " + lastPort + " stayed taken: restarting on a new ephemeral port");
        launch(LOOPBACK_EPHEMERAL);
    }

    /** The exit code of the last run, or -1 while it runs or before it started. */
    public int exitCode() {
        return process == null || process.isAlive() ? -1 : process.exitValue();
    }

    /** Always kills a running broker (SIGKILL): tests that want a clean stop call {@link #stop()} first. */
    @Override
    public void close() {
        try {
            kill9();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            LiveProcesses.forget(process);
        }
    }

    @Override
    public String toString() {
        return "SluiceBrokerProcess[dataDir=" + dataDir + ", pid=" + (process == null ? "-" : process.pid()) + ", port="
                + port + ", alive=" + isAlive() + ", paused=" + isPaused() + "]";
    }

    /** A paused broker would hold SIGTERM until SIGCONT: continue it first so that stop() stays a clean stop. */
    private void resumeForShutdown() {
        if (isPaused()) {
            try {
                resume();
            } catch (IOException e) {
                tail.append("[testkit] could not resume paused broker before SIGTERM: " + e.getMessage());
            }
        }
    }

    private void signal(String name) throws IOException {
        List<String> command = List.of("kill", "-" + name, Long.toString(process.pid()));
        ProcessResult result = ChildProcessRunner.run(command, new byte[0], SIGNAL_TIMEOUT);
        if (!result.succeeded()) {
            throw new IOException("SIG" + name + " to broker pid " + process.pid() + " failed: " + result.describe());
        }
        markInLog("sent SIG" + name + " to pid " + process.pid());
    }

    /** A timestamped testkit line in the broker's log, so post-mortems can line up signals with broker events. */
    private void markInLog(String event) {
        try {
            appendToLog("=== [testkit] " + Instant.now() + " " + event);
        } catch (IOException e) {
            tail.append("[testkit] could not write to " + logFile + ": " + e);
        }
    }

    private void launch(String listen) throws IOException {
        Files.createDirectories(dataDir);
        List<String> command = distribution.serverCommand(dataDir, listen, overrides);
        starts++;
        appendToLog("=== [testkit] start #" + starts + ": " + String.join(" ", command));
        port = 0;
        brokerId = null;
        paused = false;
        portTaken = false;
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.redirectInput(ProcessBuilder.Redirect.PIPE);
        LiveProcesses.forget(process);
        process = builder.start();
        process.getOutputStream().close();
        LiveProcesses.remember(process);
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        outputPump = new Thread(() -> pumpOutput(process, ready), "sluice-broker-output-" + process.pid());
        outputPump.setDaemon(true);
        outputPump.start();
        awaitReady(ready);
    }

    private void awaitReady(CompletableFuture<Matcher> ready) throws IOException {
        Matcher line;
        try {
            line = ready.get(readyTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            close();
            throw new IOException(
                    "broker printed no ready line within " + readyTimeout + " (pattern '" + READY_LINE.pattern()
                            + "'); log " + logFile + "; output tail:\n" + tail.text(),
                    e);
        } catch (ExecutionException e) {
            close();
            throw new IOException(
                    e.getCause().getMessage() + "; log " + logFile + "; output tail:\n" + tail.text(), e.getCause());
        } catch (InterruptedException e) {
            close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the broker to start", e);
        }
        brokerId = line.group(1);
        port = Integer.parseInt(line.group(3));
        lastPort = port;
    }

    private void pumpOutput(Process child, CompletableFuture<Matcher> ready) {
        try (BufferedReader reader =
                        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                Writer log = Files.newBufferedWriter(
                        logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = reader.readLine()) != null) {
                tail.append(line);
                if (line.contains(PORT_TAKEN)) {
                    portTaken = true;
                }
                log.write(line);
                log.write('\n');
                log.flush();
                if (!ready.isDone()) {
                    Matcher matcher = READY_LINE.matcher(line);
                    if (matcher.matches()) {
                        ready.complete(matcher);
                    }
                }
            }
        } catch (IOException e) {
            tail.append("[testkit] reading broker output failed: " + e);
        } finally {
            if (!ready.isDone()) {
                ready.completeExceptionally(
                        new IOException("broker process exited before its ready line" + exitDescription(child)));
            }
        }
    }

    private static String exitDescription(Process child) {
        try {
            if (child.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                return " (exit code " + child.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    private void joinOutputPump() throws InterruptedException {
        if (outputPump != null) {
            outputPump.join(KILL_TIMEOUT.toMillis());
        }
    }

    private void appendToLog(String line) throws IOException {
        tail.append(line);
        Files.writeString(
                logFile, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private void requireStarted() {
        if (port == 0) {
            throw new IllegalStateException("broker is not started: " + this);
        }
    }
}
