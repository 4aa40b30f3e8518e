package io.sluice.cluster.controller;

import static io.sluice.cluster.controller.ReplicationModel.ids;
import static io.sluice.cluster.controller.ReplicationModel.topic;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A reassignment completes in whatever change puts its target replicas in the ISR, as Kafka's controller does, not
 * only on an AlterPartition: each case meets the target through another rule, with the removing replica gone for
 * good (so no later ISR change would come).
 */
class ReassignmentCompletionTest {
    private static final String UNCLEAN = "unclean.leader.election.enable";

    /** Brokers 1..3; t-0 on [1] moving to [2]: replicas [2, 1], only 1 (leading) in sync. */
    private static ReplicationModel movingFromOneToTwo(Map<String, String> topicConfigs) {
        ReplicationModel m =
                new ReplicationModel(ClusterConfig.defaults(), List.of(1, 2, 3), topic("t", topicConfigs, ids(1)));
        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(2)).error());
        PartitionState moving = m.partition("t", 0);
        assertArrayEquals(ids(2, 1), moving.replicas());
        assertArrayEquals(ids(1), moving.isr());
        return m;
    }

    private static void assertCompletedOnTwo(PartitionState ps) {
        assertFalse(ps.isReassigning(), ps.toString());
        assertArrayEquals(ids(2), ps.replicas());
        assertArrayEquals(ids(2), ps.isr());
        assertEquals(2, ps.leader());
    }

    @Test
    void shouldCompleteWhenAnUncleanElectionOnLeavingLeavesOnlyTheTargetInSync() {
        ReplicationModel m = movingFromOneToTwo(Map.of(UNCLEAN, "true"));
        m.leave(1);
        assertCompletedOnTwo(m.partition("t", 0));
        assertEquals(1, m.lastDelta.partitionChanges.size(), "elected and completed in one change");
    }

    @Test
    void shouldCompleteWhenAnUncleanElectLeadersLeavesOnlyTheTargetInSync() {
        ReplicationModel m = movingFromOneToTwo(Map.of());
        m.leave(1);
        assertEquals(PartitionState.NO_LEADER, m.partition("t", 0).leader(), "offline: 1 was the only one in sync");
        List<ElectionResult> r = m.elect(ElectionType.UNCLEAN, new PartitionRef("t", 0));
        assertEquals(ReplicationError.NONE, r.get(0).error());
        assertCompletedOnTwo(m.partition("t", 0));
        assertEquals(m.partition("t", 0), r.get(0).state(), "the result carries the state as published");
    }

    @Test
    void shouldCompleteWhenAnAdministrativeIsrPutsTheTargetInSync() throws Exception {
        ReplicationModel m = movingFromOneToTwo(Map.of());
        m.setIsr("t", 0, 1, 2);
        assertCompletedOnTwo(m.partition("t", 0));
    }

    @Test
    void shouldCompleteWhenARegisteringBrokerIsElectedOverAMetTarget() {
        // A state as an earlier controller could leave it: t-0 moving from [1] to [2], 2 the last in sync but gone.
        PartitionState offline = new PartitionState(ids(2, 1), PartitionState.NO_LEADER, 5, ids(2), 9, ids(2), ids(1));
        ReplicationModel m = new ReplicationModel(
                ClusterConfig.defaults(),
                List.of(1, 3),
                new TopicState(UUID.randomUUID(), "t", Map.of(), new PartitionState[] {offline}));
        m.join(2);
        assertCompletedOnTwo(m.partition("t", 0));
    }

    @Test
    void shouldCompleteALoadedReassignmentWhoseTargetIsMetAtTheNextCheck() {
        // Loaded at take-over: every target replica in sync, yet still under reassignment.
        PartitionState met = new PartitionState(ids(2, 1), 1, 5, ids(1, 2), 9, ids(2), ids(1));
        TopicState other = topic("u", Map.of(), ids(3), ids(3));
        ReplicationModel m = new ReplicationModel(
                ClusterConfig.defaults(),
                List.of(1, 2, 3),
                new TopicState(UUID.randomUUID(), "t", Map.of(), new PartitionState[] {met}),
                other);
        m.rebalance();
        PartitionState done = m.partition("t", 0);
        assertCompletedOnTwo(done);
        assertEquals(6, done.leaderEpoch());
        assertTrue(done.partitionEpoch() > 9);
        m.rebalance();
        assertTrue(m.lastDelta.isEmpty(), "nothing more to do: " + m.lastDelta);
    }
}
