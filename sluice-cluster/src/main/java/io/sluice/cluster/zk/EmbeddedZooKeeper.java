package io.sluice.cluster.zk;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.server.DatadirCleanupManager;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone ZooKeeper 3.9 server inside this process, the single-machine default when {@code zookeeper.connect}
 * is absent: snapshots and transaction log under {@code dataDir}, listening on 127.0.0.1 only. {@link #close()} stops
 * the listener and the server; the data stays, so a restarted broker finds its cluster state again.
 *
 * <p>Thread-safe after {@link #start}; one per broker process.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    /**
     * ZooKeeper expires sessions in buckets of one tick, so a dead broker is noticed up to a tick after its session
     * timeout: a short tick keeps failover close to the timeout (ZooKeeper's usual 2 s tick added up to 2 s).
     */
    public static final int TICK_MILLIS = 500;
    /** Session timeouts the server grants: ZooKeeper's defaults for a 2 s tick (2 and 20 ticks of it). */
    public static final int MIN_SESSION_TIMEOUT_MILLIS = 4_000;

    public static final int MAX_SESSION_TIMEOUT_MILLIS = 40_000;

    /** Snapshots (and the transaction logs they make obsolete) kept by the hourly purge, as ZooKeeper's own default. */
    private static final int SNAPSHOTS_KEPT = 3;

    private static final int PURGE_INTERVAL_HOURS = 1;

    private final ZooKeeperServer server;
    private final ServerCnxnFactory factory;
    private final DatadirCleanupManager purge;

    private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory factory, DatadirCleanupManager purge) {
        this.server = server;
        this.factory = factory;
        this.purge = purge;
    }

    /**
     * Starts a server.
     *
     * @param dataDir        directory for snapshots and logs (created if missing)
     * @param port           port on 127.0.0.1, 0 for an ephemeral one
     * @param maxConnections connections allowed from one address, 0 for unlimited (everything comes from loopback)
     */
    public static EmbeddedZooKeeper start(Path dataDir, int port, int maxConnections) throws IOException {
        Files.createDirectories(dataDir);
        ZooKeeperServer server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), TICK_MILLIS);
        server.setMinSessionTimeout(MIN_SESSION_TIMEOUT_MILLIS);
        server.setMaxSessionTimeout(MAX_SESSION_TIMEOUT_MILLIS);
        ServerCnxnFactory factory =
                ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port), maxConnections);
        try {
            factory.startup(server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            factory.shutdown();
            throw new IOException("interrupted while starting the embedded ZooKeeper", e);
        }
        DatadirCleanupManager purge =
                new DatadirCleanupManager(dataDir.toFile(), dataDir.toFile(), SNAPSHOTS_KEPT, PURGE_INTERVAL_HOURS);
        purge.start();
        LOG.info("embedded ZooKeeper on 127.0.0.1:{}, data in {}", factory.getLocalPort(), dataDir);
        return new EmbeddedZooKeeper(server, factory, purge);
    }

    /** Starts a server with an ephemeral port and unlimited connections. */
    public static EmbeddedZooKeeper start(Path dataDir) throws IOException {
        return start(dataDir, 0, 0);
    }

    /**
     * Closes every session the server restored from its data directory (the sessions of this broker's previous
     * process, killed before it could close them), so their ephemeral registrations and election entries vanish now
     * instead of after a session timeout. Call right after {@link #start}, before connecting: only this broker uses
     * the embedded server, so no restored session belongs to a live client.
     *
     * @return how many sessions were closed
     */
    public int closeRestoredSessions(Duration wait) throws InterruptedException {
        List<Long> restored = new ArrayList<>(server.getZKDatabase().getSessions());
        for (long sessionId : restored) {
            server.closeSession(sessionId);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (!server.getZKDatabase().getSessions().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (!restored.isEmpty()) {
            LOG.info("embedded ZooKeeper: closed {} session(s) left by the previous process", restored.size());
        }
        return restored.size();
    }

    public int port() {
        return factory.getLocalPort();
    }

    /** The {@code zookeeper.connect} string that reaches this server. */
    public String connectString() {
        return "127.0.0.1:" + port();
    }

    @Override
    public void close() {
        purge.shutdown();
        factory.shutdown();
        server.shutdown();
        LOG.info("embedded ZooKeeper on port {} stopped", factory.getLocalPort());
    }
}
