package io.sluice.cluster.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.controller.ClusterController;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.registry.BrokerRegistration;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ClusterStateFollower;
import io.sluice.cluster.zk.EmbeddedZooKeeper;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1,000 brokers' worth of membership in one JVM: lightweight participants (a registration and a state follower each,
 * no storage) join one embedded ZooKeeper concurrently in three waves (to 10, 100 and 1,000 participants), and every
 * participant must hold the controller's view. Reports convergence time and the controller's per-join cost (CPU and
 * allocation of its thread, ZooKeeper transactions and bytes) for joins arriving together (coalesced) and one at a time,
 * and, separately, the cost of one snapshot fold at each size spread over the fold interval the controller's
 * snapshot policy uses at that size (the amortised share a join pays). Participants share ZooKeeper sessions, 20 to a
 * session, so the JVM does not run thousands of client threads. The table is printed and written to
 * {@code target/scale-results.txt}. Run with {@code mvn -Pslow -pl sluice-cluster test -Dtest=MembershipScaleTest}.
 */
@Tag("slow")
class MembershipScaleTest {
    static final int PARTICIPANTS_PER_SESSION = 20;
    static final int[] WAVES = {10, 100, 1000};

    @TempDir
    Path dir;

    @Test
    void shouldConvergeThousandParticipantsWithFlatPerJoinControllerCost() throws Exception {
        ClusterConfig config =
                ZkTesting.config().withSessionTimeout(Duration.ofSeconds(30)).withCoalesceDelay(Duration.ofMillis(50));
        List<AutoCloseable> owned = new ArrayList<>();
        ExecutorService followerThreads = Executors.newFixedThreadPool(4, daemon("scale-follower"));
        ExecutorService joiners = Executors.newFixedThreadPool(16, daemon("scale-joiner"));
        StringBuilder report = new StringBuilder();
        StringBuilder probes = new StringBuilder();
        StringBuilder folds = new StringBuilder();
        report.append(String.format(
                Locale.ROOT,
                "%-8s %-6s %-12s %-10s %-14s %-16s %-12s %-12s %-10s%n",
                "total",
                "joins",
                "converge_ms",
                "deltas",
                "zk_txn/join",
                "zk_bytes/join",
                "cpu_us/join",
                "alloc_B/join",
                "snapshots"));
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"));
        try {
            CuratorFramework controllerClient = ZkTesting.client(zk.connectString());
            owned.add(controllerClient);
            ClusterNode controllerNode = new ClusterNode(controllerClient, ZkTesting.broker(0, ""), config, true);
            owned.add(controllerNode);
            controllerNode.start();
            ZkTesting.await("controller", controllerNode::isController);
            ClusterController controller = controllerNode.controller();
            List<ClusterStateFollower> followers = new ArrayList<>();
            followers.add(controllerNode.follower());
            int joined = 0;
            CuratorFramework session = null;
            for (int target : WAVES) {
                // Sessions and followers for this wave are prepared first; then all registrations go at once.
                List<BrokerRegistration> wave = new ArrayList<>();
                for (int id = joined + 1; id <= target; id++) {
                    if (session == null || (id - 1) % PARTICIPANTS_PER_SESSION == 0) {
                        session = ZkTesting.client(zk.connectString());
                        owned.add(session);
                    }
                    BrokerRegistration reg = new BrokerRegistration(
                            session, ZkTesting.broker(id, "rack-" + id % 5), config.sessionTimeout());
                    owned.add(reg);
                    wave.add(reg);
                    ClusterStateFollower f = new ClusterStateFollower(session, config, "p" + id, followerThreads);
                    owned.add(f);
                    followers.add(f);
                    f.start();
                }
                int joinsThisWave = target - joined;
                Thread ct = controller.controllerThread();
                com.sun.management.ThreadMXBean mx =
                        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                long cpu0 = mx.getThreadCpuTime(ct.getId());
                long alloc0 = mx.getThreadAllocatedBytes(ct.getId());
                long txn0 = controller.stats().transactions.get();
                long bytes0 = controller.stats().bytesWritten.get();
                long deltas0 = controller.stats().membershipDeltas.get();
                long snaps0 = controller.stats().snapshots.get();
                long t0 = System.nanoTime();
                List<Future<?>> joins = new ArrayList<>();
                for (BrokerRegistration reg : wave) {
                    joins.add(joiners.submit(() -> {
                        reg.register();
                        return null;
                    }));
                }
                for (Future<?> j : joins) {
                    j.get(120, TimeUnit.SECONDS);
                }
                int expected = target + 1 + (nextProbeId - 50_000);
                ZkTesting.await(expected + " brokers everywhere", () -> {
                    ClusterState s = controller.state();
                    if (s == null || s.brokerCount() != expected) {
                        return false;
                    }
                    for (ClusterStateFollower f : followers) {
                        ClusterState fs = f.current();
                        if (fs.appliedSeq() != s.appliedSeq() || fs.brokerCount() != expected) {
                            return false;
                        }
                    }
                    return true;
                });
                long convergeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                ClusterState s = controller.state();
                for (ClusterStateFollower f : followers) {
                    assertTrue(f.current().sameContent(s), "identical view");
                }
                long cpu = mx.getThreadCpuTime(ct.getId()) - cpu0;
                long alloc = mx.getThreadAllocatedBytes(ct.getId()) - alloc0;
                long txn = controller.stats().transactions.get() - txn0;
                long bytes = controller.stats().bytesWritten.get() - bytes0;
                report.append(String.format(
                        Locale.ROOT,
                        "%-8d %-6d %-12d %-10d %-14.3f %-16.1f %-12.1f %-12.0f %-10d%n",
                        target,
                        joinsThisWave,
                        convergeMs,
                        controller.stats().membershipDeltas.get() - deltas0,
                        (double) txn / joinsThisWave,
                        (double) bytes / joinsThisWave,
                        cpu / 1000.0 / joinsThisWave,
                        (double) alloc / joinsThisWave,
                        controller.stats().snapshots.get() - snaps0));
                joined = target;
                assertTrue(convergeMs < 60_000, "converged in " + convergeMs + " ms");
                probes.append(probeSingleJoins(zk, config, controller, followers, owned, target));
                folds.append(probeFold(controller, target));
            }
            assertEquals(
                    WAVES[WAVES.length - 1] + 1 + (nextProbeId - 50_000),
                    controller.state().brokerCount());
            report.append(
                    String.format(Locale.ROOT, "%nsingle joins, one at a time (no coalescing), after each wave:%n"));
            report.append(String.format(
                    Locale.ROOT,
                    "%-8s %-6s %-14s %-16s %-12s %-12s%n",
                    "size",
                    "joins",
                    "zk_txn/join",
                    "zk_bytes/join",
                    "cpu_us/join",
                    "alloc_B/join"));
            report.append(probes);
            report.append(
                    String.format(Locale.ROOT, "%nsnapshot fold (paid once per fold interval), after each wave:%n"));
            report.append(String.format(
                    Locale.ROOT,
                    "%-8s %-14s %-12s %-12s %-12s %-16s %-14s %-14s%n",
                    "size",
                    "snap_bytes",
                    "cpu_us",
                    "alloc_B",
                    "deltas/fold",
                    "amort_bytes/join",
                    "amort_cpu_us",
                    "amort_alloc_B"));
            report.append(folds);
            report.append("controller totals: ").append(controller.stats()).append('\n');
            report.append("each join also costs the participant 1 ZooKeeper write (its ephemeral registration)\n");
            System.out.print(report);
            Path out = Paths.get("target", "scale-results.txt");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report.toString());
        } finally {
            // Participants go while the server still runs (try-with-resources closes it after this block).
            closeAll(owned);
            joiners.shutdownNow();
            followerThreads.shutdownNow();
            zk.close();
        }
    }

    static final int PROBE_JOINS = 30;
    /** zk_bytes/join of the last single-join probe: the delta size the fold interval is derived from. */
    static double lastDeltaBytesPerJoin;

    static int nextProbeId = 50_000;

    /** Joins {@link #PROBE_JOINS} brokers one after another and measures the controller's cost of each. */
    private static String probeSingleJoins(
            EmbeddedZooKeeper zk,
            ClusterConfig config,
            ClusterController controller,
            List<ClusterStateFollower> followers,
            List<AutoCloseable> owned,
            int size)
            throws Exception {
        CuratorFramework session = ZkTesting.client(zk.connectString());
        owned.add(session);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = controller.controllerThread().getId();
        long cpu0 = mx.getThreadCpuTime(tid);
        long alloc0 = mx.getThreadAllocatedBytes(tid);
        long txn0 = controller.stats().transactions.get();
        long bytes0 = controller.stats().bytesWritten.get();
        for (int i = 0; i < PROBE_JOINS; i++) {
            int id = nextProbeId++;
            BrokerRegistration reg = new BrokerRegistration(session, ZkTesting.broker(id, ""), config.sessionTimeout());
            owned.add(reg);
            reg.register();
            ZkTesting.await(
                    "probe " + id,
                    () -> controller.state() != null
                            && controller.state().brokers().containsKey(id));
        }
        long cpu = mx.getThreadCpuTime(tid) - cpu0;
        long alloc = mx.getThreadAllocatedBytes(tid) - alloc0;
        long txn = controller.stats().transactions.get() - txn0;
        long bytes = controller.stats().bytesWritten.get() - bytes0;
        ZkTesting.await("followers caught up after probes", () -> {
            long seq = controller.state().appliedSeq();
            for (ClusterStateFollower f : followers) {
                if (f.current().appliedSeq() != seq) {
                    return false;
                }
            }
            return true;
        });
        lastDeltaBytesPerJoin = (double) bytes / PROBE_JOINS;
        return String.format(
                Locale.ROOT,
                "%-8d %-6d %-14.3f %-16.1f %-12.1f %-12.0f%n",
                size,
                PROBE_JOINS,
                (double) txn / PROBE_JOINS,
                (double) bytes / PROBE_JOINS,
                cpu / 1000.0 / PROBE_JOINS,
                (double) alloc / PROBE_JOINS);
    }

    /**
     * Measures one snapshot fold at this size on the controller thread and spreads it over the deltas the controller's
     * {@link io.sluice.cluster.controller.SnapshotPolicy} lets pass between two folds at this size.
     */
    private static String probeFold(ClusterController controller, int size) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = controller.controllerThread().getId();
        long cpu0 = mx.getThreadCpuTime(tid);
        long alloc0 = mx.getThreadAllocatedBytes(tid);
        long bytes0 = controller.stats().bytesWritten.get();
        controller.writeSnapshotNow().get(60, TimeUnit.SECONDS);
        long cpu = mx.getThreadCpuTime(tid) - cpu0;
        long alloc = mx.getThreadAllocatedBytes(tid) - alloc0;
        long bytes = controller.stats().bytesWritten.get() - bytes0;
        long snapshotBytes = controller.stats().lastSnapshotBytes.get();
        int interval = controller.snapshotPolicy().deltasPerFold(snapshotBytes, Math.round(lastDeltaBytesPerJoin));
        return String.format(
                Locale.ROOT,
                "%-8d %-14d %-12.1f %-12d %-12d %-16.1f %-14.1f %-14.0f%n",
                size,
                snapshotBytes,
                cpu / 1000.0,
                alloc,
                interval,
                (double) bytes / interval,
                cpu / 1000.0 / interval,
                (double) alloc / interval);
    }

    private static void closeAll(List<AutoCloseable> owned) {
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).close();
            } catch (Exception e) {
                // keep closing
            }
        }
        owned.clear();
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
