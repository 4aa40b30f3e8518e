package io.sluice.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.controller.ControllerStats;
import io.sluice.cluster.controller.NotControllerException;
import io.sluice.cluster.controller.TopicExistsException;
import io.sluice.cluster.registry.BrokerRegistration;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ClusterStateFollower;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterNodeTest {
    @TempDir
    Path dir;

    static <T> T get(java.util.concurrent.CompletableFuture<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    @SuppressWarnings("ReferenceEquality") // fixture brokers: each object is one broker, compared as itself
    @Test
    void shouldCreateTopicAcrossLiveBrokersAndEveryBrokerSeesIt() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            List<ClusterFixture.Broker> brokers = new ArrayList<>();
            for (int id = 1; id <= 3; id++) {
                brokers.add(cluster.broker(id, "rack-" + id, true));
            }
            ClusterFixture.Broker controller = ClusterFixture.awaitController(brokers);
            ZkTesting.await(
                    "3 brokers in the state",
                    () -> controller.node().controller().state() != null
                            && controller.node().controller().state().brokers().size() == 3);
            TopicState topic = get(controller.node().createTopic("orders", 12, 2, Map.of("retention.ms", "1000")));
            ClusterState state = ClusterFixture.awaitConverged(controller, brokers);
            TopicState seen = brokers.get(0).node().current().topic("orders");
            assertEquals(topic, seen);
            assertEquals(Map.of("retention.ms", "1000"), seen.configs());
            Map<Integer, Integer> leaders = new HashMap<>();
            for (int p = 0; p < 12; p++) {
                PartitionState ps = seen.partition(p);
                assertEquals(2, ps.replicas().length);
                assertEquals(ps.replicas()[0], ps.leader());
                leaders.merge(ps.leader(), 1, Integer::sum);
            }
            assertEquals(Map.of(1, 4, 2, 4, 3, 4), leaders, "leaders balanced");
            assertEquals(3, state.brokers().size());

            ExecutionException dup = assertThrows(
                    ExecutionException.class, () -> get(controller.node().createTopic("orders", 1, 1, Map.of())));
            assertInstanceOf(TopicExistsException.class, dup.getCause());
            ClusterFixture.Broker other =
                    brokers.stream().filter(b -> b != controller).findFirst().orElseThrow();
            ExecutionException notController = assertThrows(
                    ExecutionException.class, () -> get(other.node().createTopic("x", 1, 1, Map.of())));
            assertInstanceOf(NotControllerException.class, notController.getCause());

            get(controller.node().deleteTopic("orders"));
            ClusterFixture.awaitConverged(controller, brokers);
            assertEquals(null, brokers.get(2).node().current().topic("orders"));
        }
    }

    @Test
    void shouldApplyDeltasInOrderAndFoldThemIntoSnapshots() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config().withDeltasPerSnapshot(4))) {
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterFixture.Broker controller = ClusterFixture.awaitController(List.of(b1));
            List<ClusterState> seen = new CopyOnWriteArrayList<>();
            b1.node().addListener(seen::add);
            for (int t = 0; t < 10; t++) {
                get(controller.node().createTopic("t" + t, 2, 1, Map.of()));
            }
            ClusterFixture.awaitConverged(controller, List.of(b1));
            long lastSeq = -1;
            int lastTopics = -1;
            for (ClusterState s : seen) {
                assertTrue(s.appliedSeq() > lastSeq, "sequence increases");
                assertTrue(s.topicsById().size() >= lastTopics, "topics only grow");
                lastSeq = s.appliedSeq();
                lastTopics = s.topicsById().size();
            }
            assertEquals(10, lastTopics);
            ControllerStats stats = controller.node().controller().stats();
            assertTrue(stats.snapshots.get() >= 2, "folded: " + stats);

            // A broker that starts now reads the newest snapshot and only the few deltas after it.
            ClusterFixture.Broker late = cluster.broker(2, "", false);
            ZkTesting.await("2 brokers", () -> late.node().current().brokers().size() == 2);
            ClusterState converged = ClusterFixture.awaitConverged(controller, List.of(b1, late));
            ExecutionException notEligible =
                    assertThrows(ExecutionException.class, () -> get(late.node().createTopic("x", 1, 1, Map.of())));
            assertInstanceOf(NotControllerException.class, notEligible.getCause());
            ClusterStateFollower f = late.node().follower();
            assertEquals(1, f.snapshotsLoaded());
            assertTrue(f.deltasApplied() < 4 + 1, "deltas read: " + f.deltasApplied());
            assertEquals(2, converged.brokers().size());
            long deltasPresent = cluster.client().getChildren().forPath("/cluster/state").stream()
                    .filter(c -> c.startsWith("delta-"))
                    .count();
            assertTrue(deltasPresent <= 2 * 4 + 1, "old deltas pruned, " + deltasPresent + " left");
        }
    }

    @Test
    void shouldCoalesceJoinsArrivingTogetherIntoOneDelta() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            CuratorFramework shared = cluster.client();
            List<BrokerRegistration> regs = new ArrayList<>();
            for (int id = 100; id < 120; id++) {
                BrokerRegistration r = new BrokerRegistration(shared, ZkTesting.broker(id, ""), ZkTesting.SESSION);
                r.register();
                regs.add(r);
            }
            // The controller starts after the 20 joins: it sees them in one membership event.
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterFixture.awaitController(List.of(b1));
            ZkTesting.await("21 brokers", () -> b1.node().current().brokers().size() == 21);
            ClusterState s = ClusterFixture.awaitConverged(b1, List.of(b1));
            assertEquals(21, s.brokers().size());
            ControllerStats stats = b1.node().controller().stats();
            assertEquals(1, stats.membershipDeltas.get(), stats.toString());
            assertEquals(21, stats.joins.get());
            assertEquals(1, stats.transactions.get(), "one ZooKeeper write for 21 joins: " + stats);
            for (BrokerRegistration r : regs) {
                r.close();
            }
            ZkTesting.await(
                    "leaves applied", () -> b1.node().current().brokers().size() == 1);
        }
    }

    @Test
    void shouldRemoveBrokerWhoseSessionExpiredAndRestoreItsPartitionsWhenItReturns() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterFixture.Broker controller = ClusterFixture.awaitController(List.of(b1));
            // Broker 2 is a bare ephemeral registration on its own session, so it can die without coming back.
            CuratorFramework c2 = cluster.client();
            c2.create()
                    .creatingParentContainersIfNeeded()
                    .withMode(org.apache.zookeeper.CreateMode.EPHEMERAL)
                    .forPath(
                            "/brokers/ids/2",
                            io.sluice.cluster.state.wire.StateSerializer.encodeBroker(ZkTesting.broker(2, "")));
            ZkTesting.await("2 brokers", () -> b1.node().current().brokers().size() == 2);
            TopicState t = get(controller.node().createTopic("logs", 4, 1, Map.of()));
            List<Integer> ledBy2 = new ArrayList<>();
            for (int p = 0; p < 4; p++) {
                if (t.partition(p).leader() == 2) {
                    ledBy2.add(p);
                }
            }
            assertEquals(2, ledBy2.size());

            // Broker 2 dies: its session expires on the server and nothing re-registers it.
            ZkTesting.expireSession(c2);
            ZkTesting.await(
                    "broker 2 removed", () -> !b1.node().current().brokers().containsKey(2));
            ClusterState offline = b1.node().current();
            for (int p : ledBy2) {
                assertEquals(
                        PartitionState.NO_LEADER,
                        offline.topic("logs").partition(p).leader());
                assertEquals(1, offline.topic("logs").partition(p).leaderEpoch());
            }

            // Broker 2 restarts with its data: it leads its partitions again, under a new leader epoch.
            BrokerRegistration again =
                    new BrokerRegistration(cluster.client(), ZkTesting.broker(2, ""), ZkTesting.SESSION);
            again.register();
            ZkTesting.await("broker 2 back and leading again", () -> {
                TopicState logs = b1.node().current().topic("logs");
                return b1.node().current().brokers().containsKey(2)
                        && logs.partition(ledBy2.get(0)).leader() == 2;
            });
            ClusterState back = b1.node().current();
            for (int p : ledBy2) {
                assertEquals(2, back.topic("logs").partition(p).leader());
                assertEquals(2, back.topic("logs").partition(p).leaderEpoch(), "epoch bumped on each change");
            }
            ClusterState elected = get(controller.node().electLeaders(List.of(new PartitionRef("logs", 0))));
            assertEquals(back.topic("logs").partition(0), elected.topic("logs").partition(0), "already preferred");
            again.close();
        }
    }

    @Test
    void shouldBumpLeaderEpochWhenABrokerBouncesThroughSessionLoss() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterFixture.Broker controller = ClusterFixture.awaitController(List.of(b1));
            ClusterFixture.Broker b2 = cluster.broker(2, "", false);
            ZkTesting.await("2 brokers", () -> b1.node().current().brokers().size() == 2);
            TopicState t = get(controller.node().createTopic("bounce", 2, 1, Map.of()));
            int p2 = t.partition(0).leader() == 2 ? 0 : 1;
            // Session lost, registration re-created at once by the broker: the controller sees a new incarnation,
            // either as one bounce or (when the deletion and the re-creation reach it in separate batches) as a
            // leave followed by a join. Either way the old incarnation is fenced by a newer leader epoch.
            ControllerStats stats = controller.node().controller().stats();
            ZkTesting.expireSession(b2.client());
            ZkTesting.await("new incarnation noticed", () -> stats.bounces.get() + stats.leaves.get() >= 1);
            ZkTesting.await("follower applied it", () -> {
                PartitionState now = b1.node().current().topic("bounce").partition(p2);
                return now.leader() == 2 && now.leaderEpoch() >= 1;
            });
            PartitionState now = b1.node().current().topic("bounce").partition(p2);
            assertEquals(
                    stats.bounces.get() == 1 && stats.leaves.get() == 0 ? 1 : 2,
                    now.leaderEpoch(),
                    "one epoch per leadership change: " + stats);
        }
    }

    @SuppressWarnings("ReferenceEquality") // fixture brokers: each object is one broker, compared as itself
    @Test
    void shouldFailOverControllerWithStateIntactAndFenceTheOldOne() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            List<ClusterFixture.Broker> brokers = new ArrayList<>();
            for (int id = 1; id <= 3; id++) {
                brokers.add(cluster.broker(id, "", true));
            }
            ClusterFixture.Broker first = ClusterFixture.awaitController(brokers);
            int firstEpoch = first.node().controllerEpoch();
            ZkTesting.await(
                    "3 brokers",
                    () -> first.node().controller().state() != null
                            && first.node().controller().state().brokers().size() == 3);
            get(first.node().createTopic("before", 6, 3, Map.of()));
            ClusterState before = ClusterFixture.awaitConverged(first, brokers);

            ZkTesting.expireSession(first.client());
            ClusterFixture.Broker[] next = new ClusterFixture.Broker[1];
            ZkTesting.await("a new controller", () -> {
                for (ClusterFixture.Broker b : brokers) {
                    if (b.node().isController() && b.node().controllerEpoch() > firstEpoch) {
                        next[0] = b;
                        return true;
                    }
                }
                return false;
            });
            ClusterFixture.Broker second = next[0];
            assertTrue(second.node().controllerEpoch() > firstEpoch);
            TopicState was = before.topic("before");
            TopicState now = second.node().controller().state().topic("before");
            assertEquals(was.id(), now.id(), "state intact across failover");
            for (int p = 0; p < was.partitionCount(); p++) {
                assertEquals(
                        java.util.Arrays.toString(was.partition(p).replicas()),
                        java.util.Arrays.toString(now.partition(p).replicas()));
            }
            get(second.node().createTopic("after", 3, 2, Map.of()));
            ClusterState after = ClusterFixture.awaitConverged(second, brokers);
            assertEquals(second.node().controllerEpoch(), after.controllerEpoch());
            assertNotNull(after.topic("before"));
            assertNotNull(after.topic("after"));
            if (first != second) {
                ExecutionException e = assertThrows(
                        ExecutionException.class, () -> get(first.node().createTopic("from-old", 1, 1, Map.of())));
                assertFalse(e.getCause() instanceof TopicExistsException);
            }
            ZkTesting.await(
                    "stale first controller rejoins as a broker",
                    () -> first.node().current().topic("after") != null);
        }
    }
}
