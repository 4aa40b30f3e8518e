package io.sluice.cluster;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.codec.endpoint.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;

/** Real ZooKeeper for tests: a Curator TestingServer in a temp dir on an ephemeral port, and clients of it. */
public final class ZkTesting {
    /** Short ticks so session expiry in tests takes a second or two, not tens. */
    public static final int TICK_MILLIS = 200;

    public static final Duration SESSION = Duration.ofMillis(2000);

    private ZkTesting() {}

    public static TestingServer server(Path dir) throws Exception {
        return new TestingServer(new InstanceSpec(dir.toFile(), -1, -1, -1, false, -1, TICK_MILLIS, 0), true);
    }

    public static CuratorFramework client(String connect) throws Exception {
        CuratorFramework c = CuratorFrameworkFactory.builder()
                .connectString(connect)
                .sessionTimeoutMs((int) SESSION.toMillis())
                .connectionTimeoutMs(10_000)
                .retryPolicy(new RetryNTimes(50, 100))
                .build();
        c.start();
        if (!c.blockUntilConnected(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to " + connect);
        }
        return c;
    }

    public static ClusterConfig config() {
        return ClusterConfig.defaults().withSessionTimeout(SESSION).withCoalesceDelay(Duration.ofMillis(20));
    }

    public static BrokerInfo broker(int id, String rack) {
        return BrokerInfo.of(id, rack, Endpoint.of("127.0.0." + (1 + id % 200), 1024 + id % 60000));
    }

    /** Expires the client's session the way a long pause past the session timeout would. */
    public static void expireSession(CuratorFramework client) throws Exception {
        KillSession.kill(client.getZookeeperClient().getZooKeeper());
    }

    /** Waits for {@code condition}, bounded by a generous limit so a broken build fails instead of hanging. */
    public static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                for (java.util.Map.Entry<Thread, StackTraceElement[]> e :
                        Thread.getAllStackTraces().entrySet()) {
                    if (e.getKey().getName().startsWith("sluice")) {
                        System.err.println("thread " + e.getKey().getName());
                        for (StackTraceElement f : e.getValue()) {
                            System.err.println("    at " + f);
                        }
                    }
                }
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }
}
