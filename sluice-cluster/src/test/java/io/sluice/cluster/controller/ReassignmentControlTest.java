package io.sluice.cluster.controller;

import static io.sluice.cluster.controller.ReplicationModel.ids;
import static io.sluice.cluster.controller.ReplicationModel.topic;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** KIP-455 reassignment in the controller, without ZooKeeper: each case drives a {@link ReplicationModel}. */
class ReassignmentControlTest {
    private static final String UNCLEAN = "unclean.leader.election.enable";

    /** Brokers 1..4; topic t with one partition on [1, 2, 3], 1 leading, all in sync. */
    private static ReplicationModel model() {
        return new ReplicationModel(ClusterConfig.defaults(), List.of(1, 2, 3, 4), topic("t", Map.of(), ids(1, 2, 3)));
    }

    @Test
    void shouldAddTheNewBrokerOutsideTheIsrAndKeepTheRemovedOneUntilTheNewOneIsInSync() {
        ReplicationModel m = model();
        PartitionState before = m.partition("t", 0);
        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(4, 2, 3)).error());
        PartitionState moving = m.partition("t", 0);
        assertArrayEquals(ids(4, 2, 3, 1), moving.replicas(), "target first, then the removing replicas");
        assertArrayEquals(ids(4), moving.addingReplicas());
        assertArrayEquals(ids(1), moving.removingReplicas());
        assertArrayEquals(ids(1, 2, 3), moving.isr(), "the adding replica is not in sync yet");
        assertEquals(1, moving.leader(), "the leader stays while the move runs");
        assertEquals(before.leaderEpoch() + 1, moving.leaderEpoch(), "a replica-set change bumps the leader epoch");
        assertTrue(moving.partitionEpoch() > before.partitionEpoch());
        assertEquals(1, m.lastDelta.partitionChanges.size());

        // The leader reports 4 caught up: the reassignment completes in the same delta.
        List<AlterPartitionResult> r = m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 4));
        assertEquals(ReplicationError.NONE, r.get(0).error());
        PartitionState done = m.partition("t", 0);
        assertArrayEquals(ids(4, 2, 3), done.replicas());
        assertFalse(done.isReassigning());
        assertArrayEquals(ids(2, 3, 4), done.isr(), "the removed replica leaves the ISR");
        assertEquals(4, done.leader(), "a leader outside the target hands over to the first in-sync target replica");
        assertEquals(moving.leaderEpoch() + 1, done.leaderEpoch());
    }

    @Test
    void shouldCompleteAtOnceWhenTheTargetIsAlreadyInSync() {
        ReplicationModel m = model();
        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(2, 3)).error());
        PartitionState done = m.partition("t", 0);
        assertArrayEquals(ids(2, 3), done.replicas());
        assertArrayEquals(ids(2, 3), done.isr());
        assertEquals(2, done.leader());
        assertFalse(done.isReassigning());
        assertEquals(1, m.lastDelta.partitionChanges.size(), "started and completed in one change");
    }

    @Test
    void shouldApplyAReorderAtOnceAndPublishNothingForTheSameReplicas() {
        ReplicationModel m = model();
        m.reassign("t", 0, ids(3, 2, 1));
        PartitionState reordered = m.partition("t", 0);
        assertArrayEquals(ids(3, 2, 1), reordered.replicas());
        assertEquals(1, reordered.leader(), "a reorder moves the preferred replica, not the leader");
        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(3, 2, 1)).error());
        assertTrue(m.lastDelta.isEmpty(), "the same replica set again changes nothing");
    }

    @Test
    void shouldPublishNothingForTheSameTargetOfARunningReassignmentAgain() {
        ReplicationModel m = model();
        m.reassign("t", 0, ids(4, 2, 3));
        PartitionState moving = m.partition("t", 0);

        // kafka-reassign-partitions.sh --execute --additional, run again to change the throttle of the running move
        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(4, 2, 3)).error());

        assertTrue(m.lastDelta.isEmpty(), "the same target again changes nothing");
        assertEquals(moving, m.partition("t", 0));
        assertEquals(moving.leaderEpoch(), m.partition("t", 0).leaderEpoch(), "no new leader epoch");
    }

    @Test
    void shouldCancelBackToTheOriginalReplicas() {
        ReplicationModel m = model();
        m.reassign("t", 0, ids(4, 2, 3));
        assertEquals(ReplicationError.NONE, m.reassign("t", 0, null).error());
        PartitionState back = m.partition("t", 0);
        assertArrayEquals(
                ids(2, 3, 1),
                back.replicas(),
                "the interim replicas without the adding ones, in their order (as Kafka's controller reverts)");
        assertArrayEquals(ids(1, 2, 3), back.isr());
        assertEquals(1, back.leader());
        assertFalse(back.isReassigning());

        ReassignmentResult again = m.reassign("t", 0, null);
        assertEquals(ReplicationError.NO_REASSIGNMENT_IN_PROGRESS, again.error());
        assertNotNull(again.message());
    }

    @Test
    void shouldMeasureANewTargetAgainstTheOriginalReplicas() {
        ReplicationModel m = model();
        m.reassign("t", 0, ids(4, 2, 3));
        m.reassign("t", 0, ids(1, 2, 4));
        PartitionState moving = m.partition("t", 0);
        assertArrayEquals(ids(1, 2, 4, 3), moving.replicas());
        assertArrayEquals(ids(4), moving.addingReplicas());
        assertArrayEquals(ids(3), moving.removingReplicas());
        m.reassign("t", 0, ids(1, 2, 3));
        PartitionState back = m.partition("t", 0);
        assertArrayEquals(ids(1, 2, 3), back.replicas(), "the original set as target ends the reassignment");
        assertFalse(back.isReassigning());
    }

    @Test
    void shouldRefuseInvalidTargetsWithKafkasErrors() {
        ReplicationModel m = model();
        PartitionState before = m.partition("t", 0);
        assertEquals(
                ReplicationError.INVALID_REPLICA_ASSIGNMENT,
                m.reassign("t", 0, ids()).error());
        ReassignmentResult twice = m.reassign("t", 0, ids(1, 1, 2));
        assertEquals(ReplicationError.INVALID_REPLICA_ASSIGNMENT, twice.error());
        assertTrue(twice.message().contains("broker 1 more than once"), twice.message());
        ReassignmentResult unknown = m.reassign("t", 0, ids(1, 2, 9));
        assertEquals(ReplicationError.INVALID_REPLICA_ASSIGNMENT, unknown.error());
        assertTrue(unknown.message().contains("broker 9"), unknown.message());
        assertEquals(
                ReplicationError.UNKNOWN_TOPIC_OR_PARTITION,
                m.reassign("t", 5, ids(1)).error());
        assertEquals(
                ReplicationError.UNKNOWN_TOPIC_OR_PARTITION,
                m.reassign("nope", 0, ids(1)).error());
        assertEquals(before, m.partition("t", 0), "nothing changed");
    }

    @Test
    void shouldIndexTheNewReplicaSoItsLeavingIsSeen() {
        ReplicationModel m = model();
        m.reassign("t", 0, ids(4, 2, 3));
        m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 4));
        m.leave(4);
        PartitionState p = m.partition("t", 0);
        assertArrayEquals(ids(2, 3), p.isr(), "broker 4 leads after the move; its leaving is followed");
        assertEquals(2, p.leader());
        m.leave(1);
        assertEquals(p, m.partition("t", 0), "broker 1 no longer hosts the partition");
    }

    @Test
    void shouldCarryTheReplicaSetInTheChangeRecord() {
        ReplicationModel m = model();
        m.reassign("t", 0, ids(4, 2, 3));
        PartitionChangeRecord c = m.lastDelta.partitionChanges.get(0);
        assertArrayEquals(ids(4, 2, 3, 1), c.replicas);
        assertArrayEquals(ids(4), c.addingReplicas);
        assertArrayEquals(ids(1), c.removingReplicas);
    }

    @Test
    void shouldLeaveTheReplicaSetOutOfAnIsrOnlyChange() {
        ReplicationModel m = model();
        m.alterPartition(1, m.isrChange("t", 0, 1, 2));
        PartitionChangeRecord c = m.lastDelta.partitionChanges.get(0);
        assertArrayEquals(ids(1, 2, 3), c.replicas, "records always carry the full replica set from v2 on");
        assertFalse(m.partition("t", 0).isReassigning());
    }

    // ---- a new target for a running reassignment -----------------------------------------------------------------

    /** Brokers 1..6; topic t with one partition on [1, 2, 3], 1 leading, all in sync; topic configs as given. */
    private static ReplicationModel sixBrokers(Map<String, String> configs) {
        return new ReplicationModel(
                ClusterConfig.defaults(), List.of(1, 2, 3, 4, 5, 6), topic("t", configs, ids(1, 2, 3)));
    }

    @Test
    void shouldDropFromTheIsrAnAddingReplicaThatANewTargetLeavesOut() {
        ReplicationModel m = sixBrokers(Map.of());
        m.reassign("t", 0, ids(1, 4, 5));
        m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 4));
        PartitionState caughtUp = m.partition("t", 0);
        assertArrayEquals(ids(1, 2, 3, 4), caughtUp.isr(), "4 caught up, 5 lags");

        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(1, 5, 6)).error());
        PartitionState changed = m.partition("t", 0);
        assertArrayEquals(ids(1, 5, 6, 2, 3), changed.replicas(), "measured against the original [1, 2, 3]");
        assertArrayEquals(ids(5, 6), changed.addingReplicas());
        assertArrayEquals(ids(2, 3), changed.removingReplicas());
        assertArrayEquals(ids(1, 2, 3), changed.isr(), "4 is no replica any more, so it leaves the ISR");
        assertEquals(1, changed.leader());
        assertEquals(caughtUp.leaderEpoch() + 1, changed.leaderEpoch());

        // The leader's next ISR changes are accepted, and the new target completes.
        assertEquals(
                ReplicationError.NONE,
                m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 5)).get(0).error());
        assertEquals(
                ReplicationError.NONE,
                m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 5, 6)).get(0).error());
        PartitionState done = m.partition("t", 0);
        assertArrayEquals(ids(1, 5, 6), done.replicas());
        assertArrayEquals(ids(1, 5, 6), done.isr());
        assertFalse(done.isReassigning());
    }

    @Test
    void shouldElectAnInSyncReplicaWhenANewTargetDropsTheAddingReplicaThatLeads() {
        ReplicationModel m = sixBrokers(Map.of());
        m.reassign("t", 0, ids(4, 1, 5));
        m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 4));
        m.elect(ElectionType.PREFERRED, new PartitionRef("t", 0));
        PartitionState ledBy4 = m.partition("t", 0);
        assertEquals(4, ledBy4.leader(), "the preferred replica of [4, 1, 5, 2, 3] leads");

        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(1, 5, 6)).error());
        PartitionState changed = m.partition("t", 0);
        assertArrayEquals(ids(1, 5, 6, 2, 3), changed.replicas());
        assertArrayEquals(ids(1, 2, 3), changed.isr());
        assertEquals(1, changed.leader(), "4 is no replica any more; 1 is the first eligible in-sync replica");
        assertEquals(ledBy4.leaderEpoch() + 1, changed.leaderEpoch());

        // Broker 1 gone and back (out of sync): the next drop elects the first eligible in-sync replica, 2.
        m.reassign("t", 0, ids(4, 1, 5));
        m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 4));
        m.leave(1);
        m.join(1);
        assertEquals(4, m.partition("t", 0).leader(), "the first live in-sync replica of [4, 1, 5, 2, 3]");
        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(1, 5, 6)).error());
        PartitionState again = m.partition("t", 0);
        assertArrayEquals(ids(2, 3), again.isr());
        assertEquals(2, again.leader());
    }

    @Test
    void shouldKeepTheLeaderAnInSyncReplicaWhenANewTargetOnlyReordersTheOriginalReplicas() {
        ReplicationModel m = sixBrokers(Map.of());
        m.reassign("t", 0, ids(4, 5, 2));
        m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 4));
        m.leave(1);
        m.join(1);
        assertEquals(4, m.partition("t", 0).leader(), "the adding replica 4 leads; 1 is back, out of sync");

        assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(3, 2, 1)).error());
        PartitionState back = m.partition("t", 0);
        assertArrayEquals(ids(3, 2, 1), back.replicas());
        assertFalse(back.isReassigning());
        assertArrayEquals(ids(2, 3), back.isr());
        assertEquals(3, back.leader(), "the first eligible in-sync replica of [3, 2, 1], not the dropped 4");
    }

    /**
     * Brokers 1..6, t on [1, 2, 3] moving to [4, 5]: 4 caught up and leads, then 1, 2 and 3 left and came back out of
     * sync. The ISR is [4], adding replicas only.
     */
    private static ReplicationModel onlyAnAddingReplicaInSync(Map<String, String> configs) {
        ReplicationModel m = sixBrokers(configs);
        m.reassign("t", 0, ids(4, 5));
        m.alterPartition(1, m.isrChange("t", 0, 1, 2, 3, 4));
        m.leave(2, 3);
        m.leave(1);
        m.join(1, 2, 3);
        PartitionState p = m.partition("t", 0);
        assertArrayEquals(ids(4), p.isr());
        assertEquals(4, p.leader());
        return m;
    }

    @Test
    void shouldRefuseANewTargetThatWouldDropEveryInSyncReplica() {
        for (Map<String, String> configs : List.of(Map.<String, String>of(), Map.of(UNCLEAN, "true"))) {
            ReplicationModel m = onlyAnAddingReplicaInSync(configs);
            PartitionState before = m.partition("t", 0);
            for (int[] target : List.of(ids(5, 6), ids(1, 2, 3), ids(3, 2, 1))) {
                ReassignmentResult r = m.reassign("t", 0, target);
                assertEquals(ReplicationError.INVALID_REPLICA_ASSIGNMENT, r.error(), configs + " " + r);
                assertTrue(r.message().contains("t-0") && r.message().contains("[4]"), r.message());
                assertTrue(r.message().contains("unclean leader election"), r.message());
                assertEquals(before, m.partition("t", 0), "nothing changed");
            }
            assertEquals(ReplicationError.NONE, m.reassign("t", 0, ids(4, 6)).error(), "a target keeping 4 is taken");
            assertArrayEquals(ids(4), m.partition("t", 0).isr());
        }
    }

    // ---- cancel --------------------------------------------------------------------------------------------------

    @Test
    void shouldRefuseACancelThatWouldRequireAnUncleanElection() {
        ReplicationModel m = onlyAnAddingReplicaInSync(Map.of());
        PartitionState before = m.partition("t", 0);
        ReassignmentResult r = m.reassign("t", 0, null);
        assertEquals(ReplicationError.INVALID_REPLICA_ASSIGNMENT, r.error());
        assertTrue(r.message().contains("t-0") && r.message().contains("[4]"), r.message());
        assertTrue(r.message().contains("unclean leader election"), r.message());
        assertEquals(before, m.partition("t", 0), "the reassignment goes on");
        assertTrue(m.lastDelta.isEmpty());

        m.alterPartition(4, m.isrChange("t", 0, 4, 5));
        PartitionState done = m.partition("t", 0);
        assertArrayEquals(ids(4, 5), done.replicas(), "the reassignment completes once 5 is in sync");
        assertFalse(done.isReassigning());
    }

    @Test
    void shouldCancelUncleanlyWhereTheTopicAllowsUncleanElection() {
        ReplicationModel m = onlyAnAddingReplicaInSync(Map.of(UNCLEAN, "true"));
        PartitionState before = m.partition("t", 0);
        assertEquals(ReplicationError.NONE, m.reassign("t", 0, null).error());
        PartitionState back = m.partition("t", 0);
        assertArrayEquals(ids(1, 2, 3), back.replicas());
        assertFalse(back.isReassigning());
        assertArrayEquals(ids(1), back.isr(), "the first live original replica, out of sync");
        assertEquals(1, back.leader());
        assertEquals(before.leaderEpoch() + 1, back.leaderEpoch());
    }
}
