package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.controller.ControllerStats;
import io.sluice.cluster.node.ClusterFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LargeStateTest {
    static final int PARTITIONS = 100_000;

    @TempDir
    Path dir;

    @Test
    void shouldPublishAndReadBackStateLargerThanJuteMaxBuffer() throws Exception {
        int maxBuffer = ClusterConfig.juteMaxBuffer();
        assertEquals(32768, maxBuffer, "the module's tests run with jute.maxbuffer=32 KiB (see pom.xml)");
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            // The limit is in force: one znode above it is refused.
            try (CuratorFramework strict = CuratorFrameworkFactory.newClient(
                    cluster.server.getConnectString(), 4000, 4000, new RetryNTimes(0, 0))) {
                strict.start();
                strict.blockUntilConnected(20, TimeUnit.SECONDS);
                assertThrows(Exception.class, () -> strict.create().forPath("/too-big", new byte[maxBuffer + 1024]));
            }
            List<ClusterFixture.Broker> brokers = new ArrayList<>();
            for (int id = 1; id <= 6; id++) {
                brokers.add(cluster.broker(id, "rack-" + (id % 3), id == 1));
            }
            ClusterFixture.Broker controller = ClusterFixture.awaitController(brokers);
            ZkTesting.await(
                    "6 brokers",
                    () -> controller.node().controller().state() != null
                            && controller.node().controller().state().brokers().size() == 6);
            TopicState huge = controller
                    .node()
                    .createTopic("huge", PARTITIONS, 3, Map.of("segment.bytes", "1048576"))
                    .get(120, TimeUnit.SECONDS);
            assertEquals(PARTITIONS, huge.partitionCount());
            // A lived-in cluster: followers fell behind here and there, so ISRs differ from partition to partition
            // (a freshly assigned topic is periodic and compresses to a few KB).
            Random random = new Random(28848);
            Map<PartitionRef, int[]> isrs = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                int[] replicas = huge.partition(p).replicas();
                isrs.put(new PartitionRef("huge", p), Arrays.copyOf(replicas, 1 + random.nextInt(replicas.length)));
            }
            controller.node().alterIsr(isrs).get(120, TimeUnit.SECONDS);
            controller.node().controller().writeSnapshotNow().get(120, TimeUnit.SECONDS);
            huge = controller.node().controller().state().topic("huge");

            ControllerStats stats = controller.node().controller().stats();
            assertTrue(
                    stats.lastSnapshotBytes.get() > maxBuffer,
                    "compressed snapshot of " + stats.lastSnapshotBytes.get() + " bytes exceeds jute.maxbuffer "
                            + maxBuffer);
            assertTrue(stats.lastSnapshotParts.get() > 1, "split into " + stats.lastSnapshotParts.get() + " parts");

            ClusterState published = ClusterFixture.awaitConverged(controller, brokers);
            for (ClusterFixture.Broker b : brokers) {
                TopicState seen = b.node().current().topic("huge");
                assertEquals(huge, seen, "broker " + b.info().id() + " holds every partition intact");
            }
            assertEquals(PARTITIONS, published.partitionCount());
            System.out.printf(
                    Locale.ROOT,
                    "100k-partition snapshot: %d bytes compressed in %d parts (jute.maxbuffer %d)%n",
                    stats.lastSnapshotBytes.get(),
                    stats.lastSnapshotParts.get(),
                    maxBuffer);

            // A change to one partition afterwards is a small delta, not a new snapshot.
            long snapshotsBefore = stats.snapshots.get();
            long bytesBefore = stats.bytesWritten.get();
            controller.node().electLeaders(List.of(new PartitionRef("huge", 7))).get(60, TimeUnit.SECONDS);
            controller.node().deleteTopic("huge").get(60, TimeUnit.SECONDS);
            ClusterFixture.awaitConverged(controller, brokers);
            assertEquals(snapshotsBefore, stats.snapshots.get());
            assertTrue(
                    stats.bytesWritten.get() - bytesBefore < 1024,
                    "delete costs " + (stats.bytesWritten.get() - bytesBefore) + " bytes");
        }
    }
}
