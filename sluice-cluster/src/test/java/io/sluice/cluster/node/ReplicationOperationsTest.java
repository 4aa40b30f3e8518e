package io.sluice.cluster.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.controller.AlterPartitionResult;
import io.sluice.cluster.controller.ClusterController;
import io.sluice.cluster.controller.ControlledShutdownResult;
import io.sluice.cluster.controller.ControllerStats;
import io.sluice.cluster.controller.ElectionResult;
import io.sluice.cluster.controller.ElectionType;
import io.sluice.cluster.controller.InvalidAssignmentRequestException;
import io.sluice.cluster.controller.IsrChangeRequest;
import io.sluice.cluster.controller.NotControllerException;
import io.sluice.cluster.controller.ReplicationError;
import io.sluice.cluster.controller.TopicExistsException;
import io.sluice.cluster.registry.BrokerRegistration;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.zk.ZkPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's replication operations end to end on a real ZooKeeper: AlterPartition fencing, controlled
 * shutdown, leaves and returns of in-sync replicas, and the leader-imbalance check, each seen by every broker.
 * Brokers 2 and 3 are bare registrations on their own sessions, so they can die and return at will.
 */
class ReplicationOperationsTest {
    @TempDir
    Path dir;

    static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    /** Controller broker 1 plus registrations of brokers 2 and 3, and topic "r" with 3 partitions on all three. */
    private static final class Cluster {
        final ClusterFixture.Broker controller;
        final BrokerRegistration[] regs = new BrokerRegistration[6];
        final CuratorFramework[] sessions = new CuratorFramework[6];
        final ClusterFixture fixture;
        TopicState topic;

        Cluster(ClusterFixture fixture) throws Exception {
            this.fixture = fixture;
            controller = fixture.broker(1, "", true);
            ClusterFixture.awaitController(List.of(controller));
            for (int id = 2; id <= 3; id++) {
                register(id);
            }
            ZkTesting.await("3 brokers", () -> state() != null && state().brokerCount() == 3);
            topic = get(node().createTopic("r", 3, 3, Map.of()));
        }

        ClusterNode node() {
            return controller.node();
        }

        ClusterState state() {
            return node().controller().state();
        }

        ControllerStats stats() {
            return node().controller().stats();
        }

        PartitionState partition(int p) {
            return state().topic("r").partition(p);
        }

        void register(int id) throws Exception {
            sessions[id] = fixture.client();
            regs[id] = new BrokerRegistration(sessions[id], ZkTesting.broker(id, ""), ZkTesting.SESSION);
            regs[id].register();
        }

        /** Broker {@code id} leaves: its registration is gone and nothing re-creates it. */
        void kill(int id) throws Exception {
            regs[id].close();
            ZkTesting.await("broker " + id + " gone", () -> !state().hasBroker(id));
        }

        /** The partition of "r" led by {@code leader}. */
        int ledBy(int leader) {
            for (int p = 0; p < 3; p++) {
                if (partition(p).leader() == leader) {
                    return p;
                }
            }
            throw new AssertionError("nothing led by " + leader + " in " + state().topic("r"));
        }
    }

    @Test
    void shouldApplyALeadersIsrChangeAndRefuseStaleForeignOrIneligibleOnesWithoutPublishing() throws Exception {
        try (ClusterFixture fixture = new ClusterFixture(dir, ZkTesting.config())) {
            Cluster c = new Cluster(fixture);
            int p = c.ledBy(1);
            PartitionState before = c.partition(p);
            assertArrayEquals(before.replicas(), before.isr(), "created with every replica in sync");
            UUID id = c.topic.id();
            int[] shrunk = {1, before.replicas()[0] == 1 ? before.replicas()[1] : before.replicas()[0]};
            IsrChangeRequest ok = new IsrChangeRequest(id, p, before.leaderEpoch(), before.partitionEpoch(), shrunk);
            AlterPartitionResult accepted =
                    get(c.node().alterPartition(1, List.of(ok))).get(0);
            assertEquals(ReplicationError.NONE, accepted.error());
            assertEquals(before.partitionEpoch() + 1, accepted.state().partitionEpoch());
            assertEquals(before.leaderEpoch(), accepted.state().leaderEpoch());
            ClusterState converged = ClusterFixture.awaitConverged(c.controller, List.of(c.controller));
            assertEquals(
                    accepted.state(), c.controller.node().current().topic("r").partition(p));
            assertEquals(accepted.state(), converged.topic("r").partition(p));

            PartitionState now = accepted.state();
            int le = now.leaderEpoch();
            int pe = now.partitionEpoch();
            assertRefused(
                    c, ReplicationError.INVALID_UPDATE_VERSION, 1, new IsrChangeRequest(id, p, le, pe - 1, new int[] {1
                    }));
            assertRefused(
                    c, ReplicationError.FENCED_LEADER_EPOCH, 1, new IsrChangeRequest(id, p, le - 1, pe, new int[] {1}));
            assertRefused(
                    c, ReplicationError.INVALID_REQUEST, 2, new IsrChangeRequest(id, p, le, pe, new int[] {1, 2}));
            assertRefused(
                    c, ReplicationError.INVALID_REQUEST, 1, new IsrChangeRequest(id, p, le, pe, new int[] {2, 3}));
            c.kill(3);
            PartitionState afterKill = c.partition(p);
            assertRefused(
                    c,
                    ReplicationError.INELIGIBLE_REPLICA,
                    1,
                    new IsrChangeRequest(
                            id, p, afterKill.leaderEpoch(), afterKill.partitionEpoch(), new int[] {1, 2, 3}));
        }
    }

    /**
     * The refusal publishes nothing. A membership delta or leader rebalance of the controller's own may land meanwhile
     * (a ZooKeeper session stalls on a loaded machine): both count themselves before the delta counter moves, so a
     * moved delta counter with neither of them moved is the refusal's, and an interfered attempt is repeated (a
     * refusal changes nothing, so it can be asked again).
     */
    private static void assertRefused(Cluster c, ReplicationError expected, int sender, IsrChangeRequest req)
            throws Exception {
        ControllerStats stats = c.stats();
        for (int attempt = 1; ; attempt++) {
            long deltas = stats.deltas.get();
            long ownDeltas = stats.membershipDeltas.get() + stats.rebalances.get();
            PartitionState current = c.partition(req.partition());
            AlterPartitionResult r =
                    get(c.node().alterPartition(sender, List.of(req))).get(0);
            long deltasAfter = stats.deltas.get();
            long ownDeltasAfter = stats.membershipDeltas.get() + stats.rebalances.get();
            if (deltasAfter != deltas && ownDeltasAfter != ownDeltas && attempt < 5) {
                System.out.println("controller published its own delta during a refusal, asking again: " + stats);
                continue;
            }
            assertEquals(expected, r.error(), req.toString());
            assertEquals(current, r.state(), "the current state comes back to resync from");
            assertEquals(deltas, deltasAfter, "nothing published for " + req + " (" + stats + ")");
            return;
        }
    }

    @Test
    void shouldMoveEveryLeadershipAwayFromABrokerInControlledShutdown() throws Exception {
        try (ClusterFixture fixture = new ClusterFixture(dir, ZkTesting.config())) {
            Cluster c = new Cluster(fixture);
            int p = c.ledBy(2);
            long deltas = c.stats().deltas.get();
            ControlledShutdownResult r = get(c.node().controlledShutdown(2));
            assertEquals(ReplicationError.NONE, r.error());
            assertEquals(List.of(), r.remaining());
            assertEquals(deltas + 1, c.stats().deltas.get(), "one delta");
            ClusterState s = ClusterFixture.awaitConverged(c.controller, List.of(c.controller));
            for (int q = 0; q < 3; q++) {
                PartitionState ps = s.topic("r").partition(q);
                assertFalse(ps.leader() == 2 || ps.inIsr(2), "partition " + q + ": " + ps);
            }
            assertEquals(
                    c.topic.partition(p).leaderEpoch() + 1,
                    s.topic("r").partition(p).leaderEpoch());
            assertEquals(
                    ReplicationError.BROKER_NOT_AVAILABLE,
                    get(c.node().controlledShutdown(9)).error());
        }
    }

    @Test
    void shouldPlaceNoReplicaOfANewTopicOnABrokerInControlledShutdown() throws Exception {
        try (ClusterFixture fixture = new ClusterFixture(dir, ZkTesting.config())) {
            Cluster c = new Cluster(fixture);
            assertEquals(
                    ReplicationError.NONE, get(c.node().controlledShutdown(2)).error());
            TopicState placed = get(c.node().createTopic("n", 6, 2, Map.of()));
            for (int p = 0; p < 6; p++) {
                int[] replicas = placed.partition(p).replicas();
                assertFalse(replicas[0] == 2 || replicas[1] == 2, "partition " + p + ": " + placed.partition(p));
            }
            ExecutionException refused =
                    assertThrows(ExecutionException.class, () -> get(c.node().createTopic("m", 1, 3, Map.of())));
            InvalidAssignmentRequestException cause = (InvalidAssignmentRequestException) refused.getCause();
            assertEquals(ReplicationError.INVALID_REPLICATION_FACTOR, cause.error());
            assertEquals(
                    "Replication factor: 3 larger than available brokers: 2. Brokers in controlled shutdown take no new"
                            + " replicas: [2].",
                    cause.getMessage());
            assertNull(c.state().topic("m"));
            ExecutionException taken =
                    assertThrows(ExecutionException.class, () -> get(c.node().createTopic("r", 1, 3, Map.of())));
            assertInstanceOf(
                    TopicExistsException.class,
                    taken.getCause(),
                    "a taken name is answered first, as Kafka does (not the replication factor)");
        }
    }

    @Test
    void shouldAnswerAnOperationThatFailsWithAnErrorAndGoOn() throws Exception {
        try (ClusterFixture fixture = new ClusterFixture(dir, ZkTesting.config())) {
            Cluster c = new Cluster(fixture);
            ExecutionException broken = assertThrows(
                    ExecutionException.class,
                    () -> get(c.node().alterAcls((current, add, remove) -> {
                        throw new AssertionError("a change that breaks");
                    })));
            assertInstanceOf(AssertionError.class, broken.getCause());
            ExecutionException huge = assertThrows(
                    ExecutionException.class, () -> get(c.node().createTopic("huge", Integer.MAX_VALUE, 1, Map.of())));
            assertEquals(
                    ReplicationError.INVALID_PARTITIONS,
                    ((InvalidAssignmentRequestException) huge.getCause()).error(),
                    huge.getCause().toString());
            assertEquals(1, get(c.node().createTopic("after", 1, 1, Map.of())).partitionCount());
        }
    }

    @Test
    void shouldForgetTheControlledShutdownOfABrokerThatRegisteredAgainWhileNoControllerWatched() throws Exception {
        try (ClusterFixture fixture = new ClusterFixture(dir, ZkTesting.config())) {
            Cluster c = new Cluster(fixture);
            assertEquals(
                    ReplicationError.NONE,
                    get(c.node().controlledShutdown(2, c.regs[2].epoch())).error());
            assertTrue(c.state().isShuttingDown(2));
            // The controller goes, and broker 2 stops and starts again on the same endpoint before another controller
            // takes over (a whole cluster restarted after a clean stop)
            c.controller.node().close();
            c.regs[2].close();
            c.register(2);
            ClusterController taking = fixture.broker(4, "", true).node().controller();
            ZkTesting.await("broker 4 took over", taking::isActive);
            ZkTesting.await(
                    "broker 2's new registration is not in controlled shutdown",
                    () -> !taking.state().isShuttingDown(2));
            assertTrue(taking.state().hasBroker(2));
        }
    }

    @Test
    void shouldRefuseAControlledShutdownFromAnEarlierRegistrationOfTheBroker() throws Exception {
        try (ClusterFixture fixture = new ClusterFixture(dir, ZkTesting.config())) {
            Cluster c = new Cluster(fixture);
            long first = c.regs[2].epoch();
            assertTrue(first > 0, "registered with an epoch: " + first);
            c.kill(2);
            c.register(2);
            ZkTesting.await("broker 2 back", () -> c.state().hasBroker(2));
            long second = c.regs[2].epoch();
            assertTrue(second > first, "a later registration has a higher epoch: " + first + " then " + second);
            long deltas = c.stats().deltas.get();

            ControlledShutdownResult late = get(c.node().controlledShutdown(2, first));
            assertEquals(ReplicationError.STALE_BROKER_EPOCH, late.error());
            assertEquals(deltas, c.stats().deltas.get(), "nothing published for the earlier incarnation");
            assertFalse(c.state().isShuttingDown(2), "the broker that registered again is not marked");

            assertEquals(
                    ReplicationError.NONE,
                    get(c.node().controlledShutdown(2, second)).error());
            assertTrue(c.state().isShuttingDown(2));
            assertEquals(
                    ReplicationError.NONE,
                    get(c.node().controlledShutdown(2, -1)).error(),
                    "an unknown epoch (-1) is taken as the current one, as Kafka does");
        }
    }

    @Test
    void shouldRefuseOperationsAsNotTheControllerWhileATakeOverRetries() throws Exception {
        try (ClusterFixture fixture =
                new ClusterFixture(dir, ZkTesting.config().withControllerRetryDelay(Duration.ofMillis(300)))) {
            Cluster c = new Cluster(fixture);
            long first = c.regs[3].epoch();
            c.kill(3);
            c.register(3);
            ZkTesting.await("broker 3 back", () -> c.state().hasBroker(3));
            ClusterFixture.Broker successor = fixture.broker(4, "", true);
            ZkTesting.await("broker 4 registered", () -> c.state().hasBroker(4));
            // Broker 3's registration cannot be read: a new controller's take-over fails when it compares the
            // registrations with the state, and retries, knowing no registration epoch of broker 3 meanwhile.
            CuratorFramework admin = fixture.client();
            admin.setACL()
                    .withACL(List.of(new ACL(ZooDefs.Perms.ALL & ~ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)))
                    .forPath(ZkPaths.broker(3));
            c.controller.node().close();
            ClusterController taking = successor.node().controller();
            ZkTesting.await("broker 4 elected and taking over", () -> taking.epoch() > 0);

            // A shutdown request of broker 3's earlier incarnation, queued behind a failed take-over attempt.
            ExecutionException refused =
                    assertThrows(ExecutionException.class, () -> get(taking.controlledShutdown(3, first)));
            assertInstanceOf(NotControllerException.class, refused.getCause(), refused.toString());
            assertThrows(ExecutionException.class, () -> get(taking.createTopic("during", 1, 1, Map.of())));
            assertFalse(taking.isActive(), "still taking over");

            // A broker joining meanwhile is not published on the half-loaded state either: the take-over's own
            // comparison of the registrations takes it in once it completes. (Each failed attempt is one full scan;
            // the join's event comes long before the third.)
            long joinsBefore = taking.stats().joins.get();
            long scansBefore = taking.stats().fullScans.get();
            c.register(5);
            ZkTesting.await(
                    "three more take-over attempts",
                    () -> taking.stats().fullScans.get() >= scansBefore + 3);
            assertEquals(joinsBefore, taking.stats().joins.get(), "no join published during the take-over");
            assertFalse(taking.isActive(), "still taking over");

            admin.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(ZkPaths.broker(3));
            ZkTesting.await("the take-over completes", taking::isActive);
            assertEquals(
                    ReplicationError.STALE_BROKER_EPOCH,
                    get(taking.controlledShutdown(3, first)).error());
            assertFalse(taking.state().isShuttingDown(3));
            assertNull(taking.state().topic("during"));
            assertTrue(taking.state().hasBroker(5), "the take-over took in the broker that joined meanwhile");
        }
    }

    @Test
    void shouldTakeALeavingReplicaOutOfTheIsrAndKeepItAFollowerWhenItReturns() throws Exception {
        try (ClusterFixture fixture = new ClusterFixture(dir, ZkTesting.config())) {
            Cluster c = new Cluster(fixture);
            int p = c.ledBy(3);
            PartitionState before = c.partition(p);
            c.kill(3);
            PartitionState gone = c.partition(p);
            assertFalse(gone.inIsr(3));
            assertTrue(gone.leader() == 1 || gone.leader() == 2, gone.toString());
            assertEquals(before.leaderEpoch() + 1, gone.leaderEpoch());
            assertTrue(gone.partitionEpoch() > before.partitionEpoch());

            c.register(3);
            ZkTesting.await("broker 3 back", () -> c.state().hasBroker(3));
            assertEquals(gone, c.partition(p), "an out-of-sync replica returns as a follower");
        }
    }

    @Test
    void shouldGiveLeadershipBackToThePreferredReplicaThroughTheImbalanceCheck() throws Exception {
        try (ClusterFixture fixture =
                new ClusterFixture(dir, ZkTesting.config().withLeaderImbalanceCheckInterval(Duration.ofMillis(100)))) {
            Cluster c = new Cluster(fixture);
            int p = c.ledBy(2);
            get(c.node().controlledShutdown(2));
            assertTrue(c.partition(p).leader() != 2);
            c.kill(2);
            c.register(2);
            ZkTesting.await("broker 2 back", () -> c.state().hasBroker(2));
            PartitionState moved = c.partition(p);
            int[] isr = java.util.Arrays.copyOf(moved.isr(), moved.isr().length + 1);
            isr[isr.length - 1] = 2;
            AlterPartitionResult r = get(c.node()
                            .alterPartition(
                                    moved.leader(),
                                    List.of(new IsrChangeRequest(
                                            c.topic.id(), p, moved.leaderEpoch(), moved.partitionEpoch(), isr))))
                    .get(0);
            assertEquals(ReplicationError.NONE, r.error());
            ZkTesting.await(
                    "broker 2 leads its preferred partition again",
                    () -> c.partition(p).leader() == 2);
            assertTrue(c.stats().rebalances.get() >= 1);
            List<ElectionResult> e =
                    get(c.node().electLeaders(List.of(new PartitionRef("r", p)), ElectionType.PREFERRED));
            assertEquals(ReplicationError.ELECTION_NOT_NEEDED, e.get(0).error());
        }
    }
}
