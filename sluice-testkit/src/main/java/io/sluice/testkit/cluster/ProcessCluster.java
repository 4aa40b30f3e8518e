package io.sluice.testkit.cluster;

import io.sluice.cluster.zk.EmbeddedZooKeeper;
import io.sluice.testkit.SluiceBrokerProcess;
import io.sluice.testkit.SluiceCliDistribution;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster of Sluice brokers, each in its own JVM ({@link SluiceBrokerProcess}), coordinated by one ZooKeeper server
 * running inside the test JVM on an ephemeral loopback port, under a chroot of its own. Brokers have ids
 * {@code 1..n}, data under {@code workDir/broker-<id>}, and a short ZooKeeper session timeout so that a killed or
 * paused broker is noticed in seconds. A start returns once every broker lists every broker in its own Metadata
 * answer, asked over its listener with the client security settings the caller gives (none for PLAINTEXT).
 * {@link #close()} stops everything, also after a failed start.
 *
 * <p>Not thread-safe; one per test, driven by the test thread.
 */
public final class ProcessCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessCluster.class);

    /** Session timeout for tests: ZooKeeper's floor is two ticks (4 s); 6 s leaves room on a loaded machine. */
    public static final Duration TEST_SESSION_TIMEOUT = Duration.ofSeconds(6);
    /**
     * Bound on one broker's start when all start at once: three JVMs warming up side by side on two busy cores, and a
     * broker prints its ready line only once a controller has published it.
     */
    public static final Duration BROKER_READY_TIMEOUT = Duration.ofMinutes(3);
    /** Room for a new controller to win the latch and publish after a session expires, on a busy 2-core machine. */
    public static final Duration ELECTION_SLACK = Duration.ofSeconds(30);
    /**
     * Bound on every broker applying the state the start saw published: a moment normally; room for a broker JVM
     * stalled by GC or the CPU on a busy 2-core machine, and for the first TLS and SASL handshakes.
     */
    public static final Duration BROKER_VIEW_TIMEOUT = Duration.ofSeconds(30);

    private final Path workDir;
    private final EmbeddedZooKeeper zooKeeper;
    private final String zookeeperConnect;
    private final Duration sessionTimeout;
    private final Map<Integer, SluiceBrokerProcess> brokers = new LinkedHashMap<>();
    private ClusterProbe probe;
    private boolean zooKeeperStopped;

    /** Controlled-shutdown retry backoff of test brokers unless a test sets its own. */
    private static final long STOP_RETRY_BACKOFF_MS = 500;

    private ProcessCluster(Path workDir, EmbeddedZooKeeper zooKeeper, String chroot, Duration sessionTimeout) {
        this.workDir = workDir;
        this.zooKeeper = zooKeeper;
        this.zookeeperConnect = zooKeeper.connectString() + chroot;
        this.sessionTimeout = sessionTimeout;
    }

    /**
     * Starts ZooKeeper and {@code brokerCount} brokers from the built {@code sluice-cli}, then waits until the
     * cluster state lists all of them and every broker has applied it (see
     * {@link #start(SluiceCliDistribution, Path, int, Duration, Map, List)}). For brokers whose listener is PLAINTEXT.
     *
     * @param overrides extra broker settings ({@code key=value}) for every broker
     */
    public static ProcessCluster start(Path workDir, int brokerCount, Duration sessionTimeout, String... overrides)
            throws IOException, InterruptedException {
        return start(workDir, brokerCount, sessionTimeout, Map.of(), overrides);
    }

    /**
     * As {@link #start(Path, int, Duration, String...)}, for brokers whose listener (the one {@link #bootstrap()} names)
     * needs TLS or SASL: {@code clientProperties} are the Kafka client settings the start's own requests to it use.
     */
    public static ProcessCluster start(
            Path workDir,
            int brokerCount,
            Duration sessionTimeout,
            Map<String, String> clientProperties,
            String... overrides)
            throws IOException, InterruptedException {
        return start(
                SluiceCliDistribution.fromEnvironment(),
                workDir,
                brokerCount,
                sessionTimeout,
                clientProperties,
                List.of(overrides));
    }

    public static ProcessCluster start(
            SluiceCliDistribution distribution,
            Path workDir,
            int brokerCount,
            Duration sessionTimeout,
            List<String> overrides)
            throws IOException, InterruptedException {
        return start(distribution, workDir, brokerCount, sessionTimeout, Map.of(), overrides);
    }

    /**
     * Starts ZooKeeper and {@code brokerCount} brokers from {@code distribution}, waits until the cluster state in
     * ZooKeeper lists all of them, then until every broker lists all of them in its own Metadata answer: each broker
     * applies the published state a moment after it is published, and until then refuses, say, a replication factor of
     * {@code brokerCount} ("larger than available brokers").
     *
     * @param clientProperties Kafka client settings ({@code security.protocol}, {@code ssl.*}, {@code sasl.*}) for
     *     the brokers' {@link #bootstrap()} listener; empty for PLAINTEXT
     * @param overrides extra broker settings ({@code key=value}) for every broker
     */
    public static ProcessCluster start(
            SluiceCliDistribution distribution,
            Path workDir,
            int brokerCount,
            Duration sessionTimeout,
            Map<String, String> clientProperties,
            List<String> overrides)
            throws IOException, InterruptedException {
        if (brokerCount < 1) {
            throw new IllegalArgumentException("brokerCount must be >= 1, was " + brokerCount);
        }
        distribution.requireBuilt();
        Path dir = workDir.toAbsolutePath().normalize();
        String chroot =
                "/sluice-test-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        ProcessCluster cluster = new ProcessCluster(
                dir, EmbeddedZooKeeper.start(dir.resolve("zookeeper"), 0, 0), chroot, sessionTimeout);
        try {
            cluster.startBrokers(distribution, brokerCount, overrides);
            cluster.probe()
                    .awaitState(
                            "all " + brokerCount + " brokers live in the cluster state",
                            sessionTimeout.plus(ELECTION_SLACK),
                            s -> s.brokerCount() == brokerCount);
            cluster.awaitEveryBrokerListsAll(clientProperties);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            cluster.close();
            if (!cluster.brokers.isEmpty()) {
                // The work directory, logs included, goes with the test's temp dir: keep what the brokers said.
                e.addSuppressed(new IOException("output of the brokers that started:\n" + cluster.outputTails()));
            }
            throw e;
        }
    }

    /** Waits until each broker's Metadata answer, over its own listener, lists every broker of the cluster. */
    private void awaitEveryBrokerListsAll(Map<String, String> clientProperties) throws InterruptedException {
        Map<Integer, String> bootstrapById = new LinkedHashMap<>();
        brokers.forEach((id, broker) -> bootstrapById.put(id, broker.bootstrap()));
        try (BrokerViews views = BrokerViews.open(bootstrapById, clientProperties)) {
            views.awaitEveryBrokerListsAll(BROKER_VIEW_TIMEOUT);
        }
    }

    private String outputTails() {
        StringBuilder tails = new StringBuilder();
        for (Map.Entry<Integer, SluiceBrokerProcess> broker : brokers.entrySet()) {
            tails.append("--- broker ")
                    .append(broker.getKey())
                    .append(" (")
                    .append(broker.getValue().logFile())
                    .append("):\n")
                    .append(broker.getValue().outputTail())
                    .append('\n');
        }
        return tails.toString();
    }

    /** Starts the brokers side by side: most of a start is JVM warm-up, which overlaps well even on two cores. */
    private void startBrokers(SluiceCliDistribution distribution, int brokerCount, List<String> overrides)
            throws IOException {
        List<CompletableFuture<SluiceBrokerProcess>> starting = new ArrayList<>();
        ExecutorService starters = oneThreadEach(brokerCount);
        for (int id = 1; id <= brokerCount; id++) {
            List<String> settings = new ArrayList<>();
            // The last broker of a cluster being stopped has nobody to hand its leaderships to: with Kafka's 5 s
            // default it retries its controlled shutdown for 15 s. A test's own value, later on the line, wins.
            settings.add("controlled.shutdown.retry.backoff.ms=" + STOP_RETRY_BACKOFF_MS);
            settings.addAll(overrides);
            settings.add("broker.id=" + id);
            settings.add("zookeeper.connect=" + zookeeperConnect);
            settings.add("zookeeper.session.timeout.ms=" + sessionTimeout.toMillis());
            Path dataDir = brokerDir(id);
            starting.add(CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return SluiceBrokerProcess.start(distribution, dataDir, settings, BROKER_READY_TIMEOUT);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    },
                    starters));
        }
        starters.shutdown();
        IOException failure = null;
        for (int i = 0; i < starting.size(); i++) {
            try {
                brokers.put(i + 1, starting.get(i).join());
            } catch (CompletionException e) {
                IOException cause = new IOException(
                        "broker " + (i + 1) + " did not start: " + e.getCause().getMessage(), e.getCause());
                if (failure == null) {
                    failure = cause;
                } else {
                    failure.addSuppressed(cause);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** {@code 127.0.0.1:<port>/<chroot>}: what every broker has as {@code zookeeper.connect}. */
    public String zookeeperConnect() {
        return zookeeperConnect;
    }

    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    /** The broker with {@code id} (1-based), alive or not. */
    public SluiceBrokerProcess broker(int id) {
        SluiceBrokerProcess broker = brokers.get(id);
        if (broker == null) {
            throw new IllegalArgumentException("no broker " + id + "; brokers are " + brokers.keySet());
        }
        return broker;
    }

    public List<Integer> brokerIds() {
        return Collections.unmodifiableList(new ArrayList<>(brokers.keySet()));
    }

    public Path brokerDir(int id) {
        return workDir.resolve("broker-" + id);
    }

    /** Bootstrap list of the brokers running and not paused. */
    public String bootstrap() {
        StringJoiner list = new StringJoiner(",");
        for (SluiceBrokerProcess broker : brokers.values()) {
            if (broker.isAlive() && !broker.isPaused()) {
                list.add(broker.bootstrap());
            }
        }
        return list.toString();
    }

    /** The test's window on the cluster's ZooKeeper data, opened on first use and closed with the cluster. */
    public ClusterProbe probe() throws IOException {
        if (probe == null) {
            probe = ClusterProbe.open(zookeeperConnect, sessionTimeout);
        }
        return probe;
    }

    /** Stops the cluster's ZooKeeper (the brokers keep running without it), for tests of a ZooKeeper outage. */
    public void stopZooKeeper() {
        if (probe != null) {
            probe.close();
            probe = null;
        }
        if (!zooKeeperStopped) {
            zooKeeperStopped = true;
            zooKeeper.close();
        }
    }

    /** Copies every broker's log to {@code dir/<prefix>-broker-<id>.log}; never throws, for use in cleanup. */
    public void keepLogs(Path dir, String prefix) {
        for (Map.Entry<Integer, SluiceBrokerProcess> broker : brokers.entrySet()) {
            Path log = broker.getValue().logFile();
            try {
                Files.createDirectories(dir);
                if (Files.exists(log)) {
                    Files.copy(
                            log,
                            dir.resolve(prefix + "-broker-" + broker.getKey() + ".log"),
                            StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                LOG.warn("could not keep broker log {}: {}", log, e.toString());
            }
        }
    }

    /**
     * Stops every broker (resumed first if paused; SIGTERM side by side, SIGKILL when one does not exit in time), then
     * the probe and ZooKeeper. Never throws, so that a test's other cleanup still runs.
     */
    @Override
    public void close() {
        List<CompletableFuture<Void>> stopping = new ArrayList<>();
        ExecutorService stoppers = oneThreadEach(Math.max(1, brokers.size()));
        for (SluiceBrokerProcess broker : brokers.values()) {
            stopping.add(CompletableFuture.runAsync(broker::stopAndClose, stoppers));
        }
        stoppers.shutdown();
        for (CompletableFuture<Void> stop : stopping) {
            stop.join();
        }
        if (probe != null) {
            probe.close();
        }
        if (!zooKeeperStopped) {
            zooKeeperStopped = true;
            zooKeeper.close();
        }
    }

    /** The common pool has one thread on a 2-core machine: side by side needs threads of its own. */
    private static ExecutorService oneThreadEach(int tasks) {
        return Executors.newFixedThreadPool(tasks, r -> {
            Thread t = new Thread(r, "sluice-process-cluster");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public String toString() {
        return "ProcessCluster[" + zookeeperConnect + ", brokers=" + brokers.values() + "]";
    }
}
