package io.sluice.cluster.controller;

import static io.sluice.cluster.controller.ReplicationModel.ids;
import static io.sluice.cluster.controller.ReplicationModel.topic;
import static io.sluice.cluster.state.PartitionState.NO_LEADER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.wire.DeltaRecord;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The partition rules without ZooKeeper: each case drives {@link ReplicationControl} through a model state. */
class ReplicationControlTest {
    static final ClusterConfig CONFIG = ClusterConfig.defaults();
    static final Map<String, String> UNCLEAN = Map.of(ClusterConfig.UNCLEAN_LEADER_ELECTION_ENABLE, "true");
    static final Map<String, String> CLEAN = Map.of(ClusterConfig.UNCLEAN_LEADER_ELECTION_ENABLE, "false");

    static ReplicationModel threeBrokers(Map<String, String> configs) {
        return new ReplicationModel(CONFIG, List.of(1, 2, 3), topic("t", configs, ids(1, 2, 3), ids(2, 3, 1)));
    }

    // ---- topic creation, leave, join, bounce -----------------------------------------------------------------

    @Test
    void shouldCreatePartitionsWithEveryReplicaInSyncAndThePreferredLeading() {
        PartitionState[] ps = ReplicationControl.newPartitions(new int[][] {{3, 1, 2}});
        assertEquals(new PartitionState(ids(3, 1, 2), 3, 0, ids(3, 1, 2), 0), ps[0]);
    }

    @Test
    void shouldMoveLeadershipToTheNextLiveInSyncReplicaAndDropTheLeaverFromTheIsr() {
        ReplicationModel m = threeBrokers(Map.of());
        m.leave(1);
        assertEquals(new PartitionState(ids(1, 2, 3), 2, 1, ids(2, 3), 1), m.partition("t", 0));
        assertEquals(
                new PartitionState(ids(2, 3, 1), 2, 0, ids(2, 3), 1),
                m.partition("t", 1),
                "a follower leaving shrinks the ISR only: leader epoch kept");
    }

    @Test
    void shouldKeepTheLastInSyncReplicaInTheIsrWhenItLeavesAndLeaveThePartitionOffline() {
        ReplicationModel m = threeBrokers(Map.of());
        m.leave(2, 3);
        m.leave(1);
        PartitionState p0 = m.partition("t", 0);
        assertEquals(NO_LEADER, p0.leader());
        assertArrayEquals(ids(1), p0.isr(), "the last leader stays in the ISR so it can come back clean");
        assertEquals(1, p0.leaderEpoch());

        m.join(3);
        assertEquals(NO_LEADER, m.partition("t", 0).leader(), "an out-of-sync replica does not lead");
        m.join(1);
        PartitionState back = m.partition("t", 0);
        assertEquals(1, back.leader());
        assertArrayEquals(ids(1), back.isr(), "3 returns as a follower; the leader adds it back after catch-up");
        assertEquals(2, back.leaderEpoch());
        assertTrue(back.partitionEpoch() > p0.partitionEpoch());
    }

    @Test
    void shouldElectAnOutOfSyncReplicaOnlyWhereUncleanElectionIsEnabledAndLogIt() {
        ReplicationModel clean = threeBrokers(Map.of());
        clean.leave(2, 3);
        clean.join(2);
        clean.leave(1);
        assertEquals(NO_LEADER, clean.partition("t", 0).leader());

        ReplicationModel unclean = threeBrokers(UNCLEAN);
        unclean.leave(2, 3);
        unclean.join(2);
        unclean.leave(1);
        PartitionState p0 = unclean.partition("t", 0);
        assertEquals(2, p0.leader());
        assertArrayEquals(ids(2), p0.isr());
    }

    @Test
    void shouldLetTheTopicConfigOverrideTheClusterDefaultForUncleanElection() {
        ClusterConfig uncleanDefault = CONFIG.withUncleanLeaderElectionEnable(true);
        ReplicationModel m = new ReplicationModel(
                uncleanDefault, List.of(1, 2), topic("strict", CLEAN, ids(1, 2)), topic("lax", Map.of(), ids(1, 2)));
        m.leave(2);
        m.join(2);
        m.leave(1);
        assertEquals(NO_LEADER, m.partition("strict", 0).leader(), "topic says false, default says true");
        assertEquals(2, m.partition("lax", 0).leader(), "no topic setting: the default allows it");
    }

    @Test
    void shouldGiveAnOfflinePartitionBackToAReturningInSyncReplicaInReplicaOrder() {
        ReplicationModel m = threeBrokers(Map.of());
        m.leave(1, 2, 3);
        PartitionState offline = m.partition("t", 1);
        assertEquals(NO_LEADER, offline.leader());
        m.join(2, 3, 1);
        assertEquals(offline.isr()[0], m.partition("t", 1).leader());
    }

    @Test
    void shouldMoveABouncedLeadersPartitionsToAnotherInSyncReplicaAndDropItFromTheIsr() {
        ReplicationModel m = threeBrokers(Map.of());
        m.bounce(1);
        PartitionState p0 = m.partition("t", 0);
        assertEquals(2, p0.leader());
        assertEquals(1, p0.leaderEpoch());
        assertArrayEquals(ids(2, 3), p0.isr());
        assertArrayEquals(ids(2, 3), m.partition("t", 1).isr());
    }

    @Test
    void shouldKeepABouncedLeaderWithANewEpochWhenNoOtherReplicaIsInSync() {
        ReplicationModel m = new ReplicationModel(CONFIG, List.of(1, 2), topic("solo", Map.of(), ids(1), ids(1, 2)));
        m.leave(2);
        m.bounce(1);
        assertEquals(new PartitionState(ids(1), 1, 1, ids(1), 1), m.partition("solo", 0));
        PartitionState p1 = m.partition("solo", 1);
        assertEquals(1, p1.leader());
        assertArrayEquals(ids(1), p1.isr());
        assertEquals(1, p1.leaderEpoch());
    }

    // ---- AlterPartition --------------------------------------------------------------------------------------

    @Test
    void shouldAcceptAnIsrChangeFromTheLeaderAndBumpOnlyThePartitionEpoch() {
        ReplicationModel m = threeBrokers(Map.of());
        List<AlterPartitionResult> r = m.alterPartition(1, m.isrChange("t", 0, 1, 2));
        assertEquals(ReplicationError.NONE, r.get(0).error());
        PartitionState expected = new PartitionState(ids(1, 2, 3), 1, 0, ids(1, 2), 1);
        assertEquals(expected, r.get(0).state());
        assertEquals(expected, m.partition("t", 0));
        assertEquals(1, m.lastDelta.partitionChanges.size());
    }

    @Test
    void shouldPublishEveryAcceptedChangeOfOneRequestInOneDelta() {
        ReplicationModel m = new ReplicationModel(
                CONFIG, List.of(1, 2, 3), topic("t", Map.of(), ids(1, 2, 3), ids(1, 3, 2), ids(1, 2)));
        List<AlterPartitionResult> r = m.alterPartition(
                1, m.isrChange("t", 0, 1), m.isrChange("t", 1, 1, 3), new IsrChangeRequest(m.id("t"), 2, 0, 7, ids(1)));
        assertEquals(
                List.of(ReplicationError.NONE, ReplicationError.NONE, ReplicationError.NOT_CONTROLLER),
                r.stream().map(AlterPartitionResult::error).toList());
        assertEquals(2, m.lastDelta.partitionChanges.size());
    }

    @Test
    void shouldRefuseStaleOrForeignOrMalformedIsrChangesWithKafkasCodesAndPublishNothing() {
        ReplicationModel m = threeBrokers(Map.of());
        m.alterPartition(1, m.isrChange("t", 0, 1, 2));
        m.leave(3);
        m.join(3);
        PartitionState now = m.partition("t", 0);
        UUID t = m.id("t");
        int le = now.leaderEpoch();
        int pe = now.partitionEpoch();
        assertCode(m, ReplicationError.FENCED_LEADER_EPOCH, 1, new IsrChangeRequest(t, 0, le - 1, pe, ids(1, 2)));
        assertCode(m, ReplicationError.NOT_CONTROLLER, 1, new IsrChangeRequest(t, 0, le + 1, pe, ids(1, 2)));
        assertCode(m, ReplicationError.NOT_CONTROLLER, 1, new IsrChangeRequest(t, 0, le, pe + 1, ids(1, 2)));
        assertCode(m, ReplicationError.INVALID_UPDATE_VERSION, 1, new IsrChangeRequest(t, 0, le, pe - 1, ids(1)));
        assertCode(m, ReplicationError.INVALID_REQUEST, 2, new IsrChangeRequest(t, 0, le, pe, ids(1, 2)));
        assertCode(m, ReplicationError.INVALID_REQUEST, 1, new IsrChangeRequest(t, 0, le, pe, ids(2)));
        assertCode(m, ReplicationError.INVALID_REQUEST, 1, new IsrChangeRequest(t, 0, le, pe, ids()));
        assertCode(m, ReplicationError.INVALID_REQUEST, 1, new IsrChangeRequest(t, 0, le, pe, ids(1, 1)));
        assertCode(m, ReplicationError.INVALID_REQUEST, 1, new IsrChangeRequest(t, 0, le, pe, ids(1, 9)));
        m.leave(2);
        PartitionState afterLeave = m.partition("t", 0);
        assertCode(
                m,
                ReplicationError.INELIGIBLE_REPLICA,
                1,
                new IsrChangeRequest(t, 0, afterLeave.leaderEpoch(), afterLeave.partitionEpoch(), ids(1, 2)));
        assertCode(m, ReplicationError.UNKNOWN_TOPIC_OR_PARTITION, 1, new IsrChangeRequest(t, 5, 0, 0, ids(1)));
        assertCode(m, ReplicationError.UNKNOWN_TOPIC_ID, 1, new IsrChangeRequest(UUID.randomUUID(), 0, 0, 0, ids(1)));
    }

    @Test
    void shouldRefuseAShuttingDownReplicaInAProposedIsr() {
        ReplicationModel m = threeBrokers(Map.of());
        m.controlledShutdown(3);
        PartitionState p0 = m.partition("t", 0);
        assertArrayEquals(ids(1, 2), p0.isr());
        assertCode(m, ReplicationError.INELIGIBLE_REPLICA, 1, m.isrChange("t", 0, 1, 2, 3));
    }

    @Test
    void shouldAnswerAnUnchangedIsrWithTheCurrentStateAndPublishNothing() {
        ReplicationModel m = threeBrokers(Map.of());
        List<AlterPartitionResult> r = m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3));
        assertEquals(ReplicationError.NONE, r.get(0).error());
        assertEquals(0, r.get(0).state().partitionEpoch());
        assertTrue(m.lastDelta.isEmpty());
    }

    private static void assertCode(ReplicationModel m, ReplicationError expected, int sender, IsrChangeRequest req) {
        PartitionState before = m.state.topic(req.topicId()) == null
                        || req.partition() >= m.state.topic(req.topicId()).partitionCount()
                ? null
                : m.state.topic(req.topicId()).partition(req.partition());
        List<AlterPartitionResult> r = m.alterPartition(sender, req);
        assertEquals(expected, r.get(0).error(), req.toString());
        assertEquals(before, r.get(0).state(), "the current state comes back to resync from");
        assertTrue(m.lastDelta.isEmpty(), "nothing published for " + req);
    }

    // ---- controlled shutdown ---------------------------------------------------------------------------------

    @Test
    void shouldMoveEveryLeadershipOfAShuttingDownBrokerAndTakeItOutOfTheIsrs() {
        ReplicationModel m = threeBrokers(Map.of());
        ControlledShutdownResult r = m.controlledShutdown(2);
        assertEquals(ReplicationError.NONE, r.error());
        assertEquals(List.of(), r.remaining());
        assertEquals(new PartitionState(ids(1, 2, 3), 1, 0, ids(1, 3), 1), m.partition("t", 0));
        assertEquals(new PartitionState(ids(2, 3, 1), 3, 1, ids(3, 1), 1), m.partition("t", 1));
        assertEquals(2, m.lastDelta.partitionChanges.size(), "one delta");
        assertTrue(m.state.isShuttingDown(2));

        m.leave(1);
        assertEquals(3, m.partition("t", 0).leader(), "a shutting-down broker is never elected");
        m.bounce(2);
        assertFalse(m.state.isShuttingDown(2), "a new session clears the mark");
    }

    @Test
    void shouldKeepRefusingAShuttingDownBrokerAfterAControllerTakesOver() {
        ReplicationModel m = threeBrokers(Map.of());
        m.controlledShutdown(3);
        assertArrayEquals(ids(3), m.lastDelta.shuttingDown, "the mark is published with the moves");
        assertTrue(m.controlledShutdown(3).remaining().isEmpty());
        assertTrue(m.lastDelta.isEmpty(), "a retry with nothing left to move publishes nothing");

        ReplicationControl successor = new ReplicationControl(CONFIG);
        successor.rebuild(m.state.at(m.state.controllerEpoch() + 1, m.state.appliedSeq()));
        List<AlterPartitionResult> r =
                successor.alterPartition(m.state, 1, List.of(m.isrChange("t", 0, 1, 2, 3)), new DeltaRecord());
        assertEquals(ReplicationError.INELIGIBLE_REPLICA, r.get(0).error(), "the new controller refuses it too");
    }

    @Test
    void shouldListThePartitionsAShuttingDownBrokerStillLeadsExceptSingleReplicaOnes() {
        ReplicationModel m = new ReplicationModel(CONFIG, List.of(1, 2), topic("t", Map.of(), ids(1, 2), ids(1)));
        m.alterPartition(1, m.isrChange("t", 0, 1));
        ControlledShutdownResult r = m.controlledShutdown(1);
        assertEquals(List.of(new PartitionRef("t", 0)), r.remaining());
        assertEquals(1, m.partition("t", 0).leader());
        assertEquals(
                ReplicationError.BROKER_NOT_AVAILABLE, m.controlledShutdown(9).error());
    }

    // ---- elections -------------------------------------------------------------------------------------------

    @Test
    void shouldAnswerPreferredElectionsWithKafkasCodes() {
        ReplicationModel m = threeBrokers(Map.of());
        PartitionRef t0 = new PartitionRef("t", 0);
        assertEquals(
                ReplicationError.ELECTION_NOT_NEEDED,
                m.elect(ElectionType.PREFERRED, t0).get(0).error());
        m.leave(1);
        assertEquals(
                ReplicationError.PREFERRED_LEADER_NOT_AVAILABLE,
                m.elect(ElectionType.PREFERRED, t0).get(0).error(),
                "preferred replica not live");
        m.join(1);
        assertEquals(
                ReplicationError.PREFERRED_LEADER_NOT_AVAILABLE,
                m.elect(ElectionType.PREFERRED, t0).get(0).error(),
                "live but not in sync");
        m.alterPartition(2, m.isrChange("t", 0, 2, 3, 1));
        List<ElectionResult> r =
                m.elect(ElectionType.PREFERRED, t0, new PartitionRef("t", 7), new PartitionRef("nope", 0));
        assertEquals(
                List.of(
                        ReplicationError.NONE,
                        ReplicationError.UNKNOWN_TOPIC_OR_PARTITION,
                        ReplicationError.UNKNOWN_TOPIC_OR_PARTITION),
                r.stream().map(ElectionResult::error).toList());
        assertEquals(1, m.partition("t", 0).leader());
        assertEquals(2, m.partition("t", 0).leaderEpoch());
    }

    @Test
    void shouldElectAnyLiveReplicaOnUncleanElectionOfAnOfflinePartitionOnly() {
        ReplicationModel m = threeBrokers(Map.of());
        PartitionRef t0 = new PartitionRef("t", 0);
        assertEquals(
                ReplicationError.ELECTION_NOT_NEEDED,
                m.elect(ElectionType.UNCLEAN, t0).get(0).error());
        m.leave(2, 3);
        m.leave(1);
        assertEquals(
                ReplicationError.ELIGIBLE_LEADERS_NOT_AVAILABLE,
                m.elect(ElectionType.UNCLEAN, t0).get(0).error());
        m.join(3);
        assertEquals(NO_LEADER, m.partition("t", 0).leader());
        ElectionResult r = m.elect(ElectionType.UNCLEAN, t0).get(0);
        assertEquals(ReplicationError.NONE, r.error());
        assertEquals(3, m.partition("t", 0).leader());
        assertArrayEquals(ids(3), m.partition("t", 0).isr());
    }

    @Test
    void shouldPublishNothingWhenThePreferredReplicaAlreadyLeads() {
        ReplicationModel m = threeBrokers(Map.of());
        List<ElectionResult> r = m.elect(ElectionType.PREFERRED, new PartitionRef("t", 1));
        assertEquals(ReplicationError.ELECTION_NOT_NEEDED, r.get(0).error());
        assertTrue(m.lastDelta.isEmpty());
    }

    // ---- leader imbalance ------------------------------------------------------------------------------------

    @Test
    void shouldGiveLeadershipBackToAPreferredReplicaWhoseImbalanceIsAboveThePercentage() {
        ReplicationModel m =
                new ReplicationModel(CONFIG, List.of(1, 2), topic("t", Map.of(), ids(1, 2), ids(1, 2), ids(2, 1)));
        m.bounce(1);
        assertEquals(2, m.partition("t", 0).leader());
        m.alterPartition(2, m.isrChange("t", 0, 2, 1), m.isrChange("t", 1, 2, 1));
        m.rebalance();
        assertEquals(1, m.partition("t", 0).leader());
        assertEquals(1, m.partition("t", 1).leader());
        assertEquals(2, m.partition("t", 2).leader());
    }

    @Test
    void shouldLeaveLeadershipWhereItIsWhileTheImbalanceIsWithinThePercentage() {
        int[][] replicas = new int[20][];
        for (int p = 0; p < 20; p++) {
            replicas[p] = ids(1, 2);
        }
        ReplicationModel m = new ReplicationModel(
                CONFIG.withLeaderImbalancePerBrokerPercentage(10), List.of(1, 2), topic("t", Map.of(), replicas));
        m.controlledShutdown(1);
        m.bounce(1);
        for (int p = 0; p < 20; p++) {
            m.alterPartition(2, m.isrChange("t", p, 2, 1));
        }
        m.elect(ElectionType.PREFERRED, partitions(2, 20));
        assertEquals(1, m.partition("t", 2).leader());
        m.rebalance();
        assertEquals(2, m.partition("t", 0).leader(), "2 of 20 = 10%, not above it");
        assertTrue(m.lastDelta.isEmpty());
    }

    private static PartitionRef[] partitions(int from, int to) {
        PartitionRef[] refs = new PartitionRef[to - from];
        for (int p = from; p < to; p++) {
            refs[p - from] = new PartitionRef("t", p);
        }
        return refs;
    }
}
