package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.node.ClusterFixture;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.state.wire.SnapshotManifestDescriptor;
import io.sluice.cluster.zk.ZkPaths;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorruptStateTest {
    @TempDir
    Path dir;

    static SnapshotManifest head(CuratorFramework c) throws Exception {
        return SnapshotManifestDescriptor.decode(c.getData().forPath(ZkPaths.STATE_HEAD));
    }

    @Test
    void shouldRewriteFreshSnapshotWhenAPartIsDamagedUnderARunningController() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config().withDeltasPerSnapshot(3))) {
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterFixture.Broker controller = ClusterFixture.awaitController(List.of(b1));
            for (int t = 0; t < 4; t++) {
                controller.node().createTopic("t" + t, 3, 1, Map.of()).get(60, TimeUnit.SECONDS);
            }
            CuratorFramework raw = cluster.client();
            SnapshotManifest before = head(raw);
            byte[] part = raw.getData().forPath(ZkPaths.snapshotPart(before.snapshotId(), 0));
            byte[] damaged = part.clone();
            damaged[damaged.length - 1] ^= 0x5A;
            raw.setData().forPath(ZkPaths.snapshotPart(before.snapshotId(), 0), damaged);

            ZkTesting.await("a fresh snapshot", () -> {
                try {
                    return head(raw).snapshotId() != before.snapshotId();
                } catch (Exception e) {
                    return false;
                }
            });
            assertEquals(
                    1, controller.node().controller().stats().snapshotRepairs.get());
            try (ClusterStateFollower fresh =
                    new ClusterStateFollower(cluster.client(), cluster.config, "fresh", null)) {
                fresh.start();
                ZkTesting.await(
                        "fresh follower loads the rewritten snapshot",
                        () -> fresh.current()
                                .sameContent(controller.node().controller().state()));
                assertNull(fresh.lastError());
            }
        }
    }

    @Test
    void shouldKeepLastGoodStateOnCorruptPartsAndRecoverFromThePreviousSnapshot() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config().withDeltasPerSnapshot(3))) {
            ClusterFixture.Broker first = cluster.broker(1, "", true);
            ClusterFixture.Broker follower = cluster.broker(2, "", false);
            ClusterFixture.Broker controller = ClusterFixture.awaitController(List.of(first));
            for (int t = 0; t < 7; t++) {
                controller.node().createTopic("t" + t, 2, 1, Map.of()).get(60, TimeUnit.SECONDS);
            }
            ClusterFixture.awaitConverged(controller, List.of(first, follower));
            first.node().close();

            CuratorFramework raw = cluster.client();
            SnapshotManifest h = head(raw);
            assertTrue(
                    raw.getChildren().forPath(ZkPaths.STATE).stream()
                                    .filter(c -> c.startsWith(ZkPaths.SNAPSHOT_PREFIX))
                                    .count()
                            >= 2,
                    "head and previous kept");
            byte[] part = raw.getData().forPath(ZkPaths.snapshotPart(h.snapshotId(), 0));
            raw.setData().forPath(ZkPaths.snapshotPart(h.snapshotId(), 0), Arrays.copyOf(part, part.length / 2));
            // A head that claims to be ahead of the follower, over the truncated part: the follower must read it.
            SnapshotManifest ahead = new SnapshotManifest(
                    h.snapshotId(),
                    h.controllerEpoch(),
                    h.lastDeltaSeq() + 1000,
                    h.partCount(),
                    h.totalLength(),
                    h.streamCrc(),
                    h.compression());
            ClusterState good = follower.node().current();
            raw.setData().forPath(ZkPaths.STATE_HEAD, SnapshotManifestDescriptor.encode(ahead));

            ClusterStateFollower f = follower.node().follower();
            ZkTesting.await("typed error on the corrupt snapshot", () -> f.lastError() != null);
            assertInstanceOf(CorruptStateException.class, f.lastError());
            assertSame(good, f.current(), "last good state kept");
            assertEquals(7, f.current().topicsById().size());

            // A new controller recovers from the previous snapshot plus deltas and publishes a fresh snapshot.
            ClusterFixture.Broker second = cluster.broker(3, "", true);
            ZkTesting.await("new controller", () -> second.node().isController());
            ClusterState recovered = second.node().controller().state();
            for (int t = 0; t < 7; t++) {
                TopicState was = good.topic("t" + t);
                TopicState now = recovered.topic("t" + t);
                assertEquals(was.id(), now.id(), "topic t" + t + " recovered");
                for (int p = 0; p < was.partitionCount(); p++) {
                    assertEquals(
                            Arrays.toString(was.partition(p).replicas()),
                            Arrays.toString(now.partition(p).replicas()));
                }
            }
            ZkTesting.await("fresh head", () -> {
                try {
                    return head(raw).snapshotId() != h.snapshotId();
                } catch (Exception e) {
                    return false;
                }
            });
            ClusterFixture.awaitConverged(second, List.of(follower, second));
            assertNull(f.lastError(), "the follower reads again once the state is sound");
            assertNotEquals(good.appliedSeq(), f.current().appliedSeq());
        }
    }

    @Test
    void shouldRejectStateFromAnOlderControllerEpoch() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config().withDeltasPerSnapshot(2))) {
            ClusterFixture.Broker first = cluster.broker(1, "", true);
            ClusterFixture.Broker follower = cluster.broker(2, "", false);
            ZkTesting.await("first controller", () -> first.node().isController());
            first.node().close();
            ClusterFixture.Broker second = cluster.broker(3, "", true);
            ZkTesting.await("second controller", () -> second.node().isController());
            assertEquals(2, second.node().controllerEpoch());
            for (int t = 0; t < 3; t++) {
                second.node().createTopic("t" + t, 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
            }
            ClusterFixture.awaitConverged(second, List.of(follower, second));
            second.node().close();
            ClusterStateFollower f = follower.node().follower();
            ClusterState good = f.current();
            assertEquals(2, good.controllerEpoch());

            // A snapshot claiming to come from epoch 1 (a fenced controller's view) is refused.
            CuratorFramework raw = cluster.client();
            SnapshotManifest h = head(raw);
            SnapshotManifest stale = new SnapshotManifest(
                    h.snapshotId(),
                    1,
                    h.lastDeltaSeq() + 100,
                    h.partCount(),
                    h.totalLength(),
                    h.streamCrc(),
                    h.compression());
            raw.setData().forPath(ZkPaths.STATE_HEAD, SnapshotManifestDescriptor.encode(stale));
            ZkTesting.await("stale epoch rejected", () -> f.lastError() != null);
            StaleEpochException e = assertInstanceOf(StaleEpochException.class, f.lastError());
            assertEquals(1, e.seenEpoch());
            assertEquals(2, e.currentEpoch());
            assertEquals(1, f.rejected());
            assertSame(good, f.current());
        }
    }
}
