package io.sluice.cluster.controller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.DeltaRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * CreatePartitions with automatic placement against a simple model: for any live brokers and racks, replication
 * factor and increase, the topic ends with exactly the count asked for, the existing partitions are untouched, every
 * new partition has the topic's replication factor on distinct live brokers, all in sync with the first leading, and
 * spans as many racks as it can; a count that is no increase changes nothing.
 */
class PartitionGrowthPropertiesTest {

    @Property(tries = 300)
    void growthKeepsTheExistingPartitionsAndPlacesValidReplicas(
            @ForAll @IntRange(min = 1, max = 9) int brokers,
            @ForAll @IntRange(min = 1, max = 4) int racks,
            @ForAll @IntRange(min = 1, max = 4) int replication,
            @ForAll @IntRange(min = 1, max = 12) int existing,
            @ForAll @IntRange(min = -3, max = 20) int increase) {
        int rf = Math.min(replication, brokers);
        List<BrokerInfo> live = new ArrayList<>();
        Set<String> rackNames = new HashSet<>();
        for (int id = 1; id <= brokers; id++) {
            String rack = "r" + (id % racks);
            rackNames.add(rack);
            live.add(ZkTesting.broker(id, rack));
        }
        int[][] first = new int[existing][];
        for (int p = 0; p < existing; p++) {
            first[p] = new int[rf];
            for (int r = 0; r < rf; r++) {
                first[p][r] = 1 + (p + r) % brokers;
            }
        }
        TopicState topic = new TopicState(UUID.randomUUID(), "t", Map.of(), ReplicationControl.newPartitions(first));
        ClusterState state = ClusterState.of(1, 0, live, List.of(topic));
        DeltaRecord delta = new DeltaRecord();
        int count = existing + increase;
        CreatePartitionsResult result = PartitionGrowth.grow(
                        state, List.of(new PartitionIncrease("t", count, null)), false, delta)
                .get(0);
        if (increase <= 0) {
            assertEquals(ReplicationError.INVALID_PARTITIONS, result.error());
            assertTrue(delta.isEmpty());
            return;
        }
        assertEquals(ReplicationError.NONE, result.error(), result::toString);
        delta.controllerEpoch = 1;
        delta.prevSeq = 0;
        TopicState grown = state.apply(delta, 1).topic("t");
        assertEquals(count, grown.partitionCount());
        for (int p = 0; p < existing; p++) {
            assertEquals(topic.partition(p), grown.partition(p));
        }
        for (int p = existing; p < count; p++) {
            PartitionState ps = grown.partition(p);
            int[] replicas = ps.replicas();
            assertEquals(rf, replicas.length);
            Set<Integer> distinct = new HashSet<>();
            Set<String> spanned = new HashSet<>();
            for (int id : replicas) {
                assertTrue(state.hasBroker(id), "replica " + id + " is live");
                distinct.add(id);
                spanned.add(state.broker(id).rack());
            }
            assertEquals(rf, distinct.size(), "no broker twice");
            assertEquals(Math.min(rf, rackNames.size()), spanned.size(), "as many racks as it can");
            assertArrayEquals(replicas, ps.isr());
            assertEquals(replicas[0], ps.leader());
        }
    }
}
