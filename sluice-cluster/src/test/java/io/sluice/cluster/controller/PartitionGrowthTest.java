package io.sluice.cluster.controller;

import static io.sluice.cluster.controller.ReplicationModel.ids;
import static io.sluice.cluster.controller.ReplicationModel.topic;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.TopicRecord;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** CreatePartitions and manual assignments in the controller, without ZooKeeper: each case drives a {@link ReplicationModel}. */
class PartitionGrowthTest {

    /** Brokers 1..4; topic t with two partitions of three replicas. */
    private static ReplicationModel model() {
        return new ReplicationModel(
                ClusterConfig.defaults(),
                List.of(1, 2, 3, 4),
                topic("t", Map.of("retention.ms", "5"), ids(1, 2, 3), ids(2, 3, 4)));
    }

    private static PartitionIncrease to(int count, int[]... assignments) {
        return new PartitionIncrease("t", count, assignments.length == 0 ? null : assignments);
    }

    @Test
    void shouldPlaceNewPartitionsLikeTheTopicsOwnRotationWithEveryReplicaInSync() throws Exception {
        ReplicationModel m = model();
        TopicState before = m.state.topic("t");
        List<CreatePartitionsResult> r = m.grow(false, to(6));
        assertEquals(ReplicationError.NONE, r.get(0).error());
        assertNull(r.get(0).message());
        TopicState after = m.state.topic("t");
        assertEquals(6, after.partitionCount());
        assertEquals(before.partition(0), after.partition(0), "existing partitions untouched");
        assertEquals(before.partition(1), after.partition(1));
        assertEquals(Map.of("retention.ms", "5"), after.configs());
        int[][] placed = PartitionGrowth.place(m.state, "t", 6, 3);
        Set<Integer> leaders = new HashSet<>();
        for (int p = 2; p < 6; p++) {
            PartitionState ps = after.partition(p);
            assertArrayEquals(placed[p], ps.replicas(), "the tail of the topic's own placement");
            assertEquals(3, ps.replicas().length, "the topic's replication factor");
            assertArrayEquals(ps.replicas(), ps.isr(), "a new partition is in sync everywhere");
            assertEquals(ps.replicas()[0], ps.leader());
            assertEquals(0, ps.leaderEpoch());
            leaders.add(ps.leader());
        }
        assertEquals(4, leaders.size(), "four new partitions on four brokers: one leader each");
        assertEquals(4, m.lastDelta.addedPartitions.size());
        assertTrue(m.lastDelta.partitionChanges.isEmpty());
    }

    @Test
    void shouldTakeManualAssignmentsAndIndexTheNewPartitions() {
        ReplicationModel m = model();
        assertEquals(
                ReplicationError.NONE,
                m.grow(false, to(4, ids(4, 1, 2), ids(3, 4, 1))).get(0).error());
        assertArrayEquals(ids(4, 1, 2), m.partition("t", 2).replicas());
        assertEquals(3, m.partition("t", 3).leader());
        // The controller's index knows the new partitions: broker 3 leaving moves the leadership of partition 3.
        m.leave(3);
        assertEquals(4, m.partition("t", 3).leader());
        assertArrayEquals(ids(4, 1), m.partition("t", 3).isr());
    }

    @Test
    void shouldPublishNothingWhenValidatingOnly() {
        ReplicationModel m = model();
        assertEquals(ReplicationError.NONE, m.grow(true, to(5)).get(0).error());
        assertTrue(m.lastDelta.isEmpty());
        assertEquals(2, m.state.topic("t").partitionCount());
    }

    @Test
    void shouldRefuseWithKafkasErrorsAndChangeNothing() {
        ReplicationModel m = model();
        CreatePartitionsResult same = m.grow(false, to(2)).get(0);
        assertEquals(ReplicationError.INVALID_PARTITIONS, same.error());
        assertEquals("Topic already has 2 partitions.", same.message());
        CreatePartitionsResult fewer = m.grow(false, to(1)).get(0);
        assertEquals(ReplicationError.INVALID_PARTITIONS, fewer.error());
        assertEquals("Topic currently has 2 partitions, 1 would not be an increase.", fewer.message());
        assertEquals(
                ReplicationError.INVALID_PARTITIONS,
                m.grow(false, to(-3)).get(0).error());
        assertEquals(
                ReplicationError.UNKNOWN_TOPIC_OR_PARTITION,
                m.grow(false, new PartitionIncrease("nope", 3, null)).get(0).error());

        CreatePartitionsResult count = m.grow(false, to(5, ids(1, 2, 3))).get(0);
        assertEquals(ReplicationError.INVALID_REPLICA_ASSIGNMENT, count.error());
        assertEquals("Increasing the number of partitions by 3 but 1 assignments provided.", count.message());
        assertEquals(
                ReplicationError.INVALID_REPLICA_ASSIGNMENT,
                m.grow(false, to(3, ids(1, 2, 9))).get(0).error());
        assertEquals(
                ReplicationError.INVALID_REPLICA_ASSIGNMENT,
                m.grow(false, to(3, ids(1, 1, 2))).get(0).error());
        assertEquals(
                ReplicationError.INVALID_REPLICA_ASSIGNMENT,
                m.grow(false, to(3, ids(1, 2))).get(0).error(),
                "the topic's replication factor is 3");
        assertEquals(
                ReplicationError.INVALID_REPLICA_ASSIGNMENT,
                m.grow(false, to(3, ids())).get(0).error());
        assertEquals(
                ReplicationError.INVALID_REPLICA_ASSIGNMENT,
                m.grow(false, new PartitionIncrease("t", 3, new int[][] {null}))
                        .get(0)
                        .error());
        assertEquals(2, m.state.topic("t").partitionCount());
        assertTrue(m.lastDelta.isEmpty());
    }

    @Test
    void shouldAcceptSomeTopicsAndRefuseOthersInOneRequest() {
        ReplicationModel m = new ReplicationModel(
                ClusterConfig.defaults(), List.of(1, 2), topic("a", Map.of(), ids(1, 2)), topic("b", Map.of(), ids(2)));
        List<CreatePartitionsResult> r = m.grow(
                false,
                new PartitionIncrease("a", 3, null),
                new PartitionIncrease("b", 1, null),
                new PartitionIncrease("b2", 4, null));
        assertEquals(
                List.of(
                        ReplicationError.NONE,
                        ReplicationError.INVALID_PARTITIONS,
                        ReplicationError.UNKNOWN_TOPIC_OR_PARTITION),
                r.stream().map(CreatePartitionsResult::error).toList());
        assertEquals(3, m.state.topic("a").partitionCount());
        assertEquals(1, m.state.topic("b").partitionCount());
    }

    @Test
    void shouldRefuseAReplicationFactorAboveTheLiveBrokers() {
        ReplicationModel m = model();
        m.leave(3, 4);
        CreatePartitionsResult r = m.grow(false, to(3)).get(0);
        assertEquals(ReplicationError.INVALID_REPLICATION_FACTOR, r.error());
        assertEquals("Replication factor: 3 larger than available brokers: 2.", r.message());
    }

    @Test
    void shouldPlaceNoNewReplicaOnABrokerInControlledShutdown() throws Exception {
        ReplicationModel m = model();
        assertEquals(ReplicationError.NONE, m.controlledShutdown(4).error());
        assertEquals(ReplicationError.NONE, m.grow(false, to(8)).get(0).error());
        for (int p = 2; p < 8; p++) {
            assertFalse(
                    Arrays.stream(m.partition("t", p).replicas()).anyMatch(id -> id == 4),
                    "partition " + p + ": " + m.partition("t", p));
        }
        for (int[] replicas : PartitionGrowth.place(m.state, "new", 8, 3)) {
            assertFalse(Arrays.stream(replicas).anyMatch(id -> id == 4), "CreateTopics: " + Arrays.toString(replicas));
        }

        assertEquals(ReplicationError.NONE, m.controlledShutdown(3).error());
        CreatePartitionsResult r = m.grow(false, to(9)).get(0);
        assertEquals(ReplicationError.INVALID_REPLICATION_FACTOR, r.error());
        assertEquals(
                "Replication factor: 3 larger than available brokers: 2. Brokers in controlled shutdown take no new"
                        + " replicas: [3, 4].",
                r.message());
        assertEquals(8, m.state.topic("t").partitionCount(), "nothing added");
        InvalidAssignmentRequestException create = assertThrows(
                InvalidAssignmentRequestException.class, () -> PartitionGrowth.place(m.state, "new", 1, 3));
        assertEquals(ReplicationError.INVALID_REPLICATION_FACTOR, create.error());
    }

    @Test
    void shouldKeepABrokerInControlledShutdownOutOfTheIsrAndLeadershipOfAManualAssignment() throws Exception {
        ReplicationModel m = model();
        assertEquals(ReplicationError.NONE, m.controlledShutdown(4).error());
        assertEquals(
                ReplicationError.NONE, m.grow(false, to(3, ids(4, 1, 2))).get(0).error());
        PartitionState added = m.partition("t", 2);
        assertArrayEquals(ids(4, 1, 2), added.replicas());
        assertArrayEquals(ids(1, 2), added.isr());
        assertEquals(1, added.leader());

        TopicState manual = PartitionGrowth.manualTopic(m.state, "m", new int[][] {ids(4, 3)}, Map.of());
        assertArrayEquals(ids(3), manual.partition(0).isr());
        assertEquals(3, manual.partition(0).leader());

        assertEquals(ReplicationError.NONE, m.controlledShutdown(3).error());
        assertEquals(ReplicationError.NONE, m.controlledShutdown(2).error());
        CreatePartitionsResult onlyShuttingDown =
                m.grow(true, to(4, ids(4, 3, 2))).get(0);
        assertEquals(ReplicationError.INVALID_REPLICA_ASSIGNMENT, onlyShuttingDown.error());
        assertEquals(
                "All brokers specified in the manual partition assignment for partition 3 are fenced or in controlled"
                        + " shutdown.",
                onlyShuttingDown.message());
        assertEquals(
                ReplicationError.INVALID_REPLICA_ASSIGNMENT,
                assertThrows(
                                InvalidAssignmentRequestException.class,
                                () -> PartitionGrowth.manualTopic(m.state, "m", new int[][] {ids(1), ids(4)}, Map.of()))
                        .error());
    }

    @Test
    void shouldRefuseAPartitionCountOutOfRangeBeforePlacingAnything() throws Exception {
        ReplicationModel m = model();
        for (int count : new int[] {0, -1, TopicRecord.MAX_PARTITIONS + 1, Integer.MAX_VALUE}) {
            InvalidAssignmentRequestException e = assertThrows(
                    InvalidAssignmentRequestException.class, () -> PartitionGrowth.place(m.state, "x", count, 1));
            assertEquals(ReplicationError.INVALID_PARTITIONS, e.error(), count + ": " + e.getMessage());
        }
        assertEquals(
                TopicRecord.MAX_PARTITIONS, PartitionGrowth.place(m.state, "x", TopicRecord.MAX_PARTITIONS, 1).length);
    }

    @Test
    void shouldRefuseANewTopicWhoseNameIsTakenOrCollidesBeforeLookingAtItsPartitions() throws Exception {
        ReplicationModel m =
                new ReplicationModel(ClusterConfig.defaults(), List.of(1, 2), topic("a.b", Map.of(), ids(1, 2)));
        assertThrows(
                TopicExistsException.class,
                () -> PartitionGrowth.placedTopic(m.state, "a.b", 1, 3, Map.of()),
                "three replicas on two brokers");
        assertEquals(
                ReplicationError.INVALID_TOPIC_EXCEPTION,
                assertThrows(
                                InvalidAssignmentRequestException.class,
                                () -> PartitionGrowth.placedTopic(m.state, "a_b", 1, 3, Map.of()))
                        .error(),
                "three replicas on two brokers");
        InvalidAssignmentRequestException placed = assertThrows(
                InvalidAssignmentRequestException.class,
                () -> PartitionGrowth.placedTopic(m.state, "a_b", 1, 1, Map.of()));
        assertEquals(ReplicationError.INVALID_TOPIC_EXCEPTION, placed.error());
        assertEquals("Topic 'a_b' collides with existing topic: a.b", placed.getMessage());
        InvalidAssignmentRequestException manual = assertThrows(
                InvalidAssignmentRequestException.class,
                () -> PartitionGrowth.manualTopic(m.state, "a_b", new int[][] {ids(7)}, Map.of()));
        assertEquals(ReplicationError.INVALID_TOPIC_EXCEPTION, manual.error());
        assertEquals(
                "a_c",
                PartitionGrowth.placedTopic(m.state, "a_c", 1, 1, Map.of()).name());
        assertEquals(
                "ab",
                PartitionGrowth.manualTopic(m.state, "ab", new int[][] {ids(2)}, Map.of())
                        .name());
    }

    @Test
    void shouldRefuseWhileAPartitionOfTheTopicIsReassigned() {
        ReplicationModel m = model();
        m.reassign("t", 0, ids(4, 2, 3));
        assertEquals(
                ReplicationError.REASSIGNMENT_IN_PROGRESS,
                m.grow(false, to(3)).get(0).error());
    }

    @Test
    void shouldCheckManualTopicAssignmentsAsKafkasController() throws Exception {
        ReplicationModel m = model();
        PartitionGrowth.checkManual(m.state, new int[][] {ids(1, 2), ids(3, 4)}, -1, 0);
        InvalidAssignmentRequestException mixed = assertThrows(
                InvalidAssignmentRequestException.class,
                () -> PartitionGrowth.checkManual(m.state, new int[][] {ids(1, 2), ids(3)}, -1, 0));
        assertEquals(ReplicationError.INVALID_REPLICA_ASSIGNMENT, mixed.error());
        assertTrue(mixed.getMessage().contains("partition 1 with 1 replica(s)"), mixed.getMessage());
        InvalidAssignmentRequestException unknown = assertThrows(
                InvalidAssignmentRequestException.class,
                () -> PartitionGrowth.checkManual(m.state, new int[][] {ids(7)}, -1, 0));
        assertEquals(
                "The manual partition assignment includes broker 7, but no such broker is registered.",
                unknown.getMessage());
        assertTrue(Arrays.stream(PartitionGrowth.place(m.state, "x", 8, 2)).allMatch(r -> r.length == 2));
    }
}
