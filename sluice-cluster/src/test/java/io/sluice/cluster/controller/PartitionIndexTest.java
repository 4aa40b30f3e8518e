package io.sluice.cluster.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.TopicRecord;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PartitionIndexTest {

    static TopicState topic(String name, PartitionState... partitions) {
        return new TopicState(UUID.randomUUID(), name, Map.of(), partitions);
    }

    static PartitionState p(int leader, int... replicas) {
        return new PartitionState(replicas, leader, 0, replicas);
    }

    static DeltaRecord delta(ClusterState s) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = s.controllerEpoch();
        d.prevSeq = s.appliedSeq();
        return d;
    }

    @Test
    void shouldNameThePartitionsOfEachReplicaAndTheOfflineOnesThroughCreatesChangesAndDeletes() {
        TopicState a = topic("a", p(1, 1, 2), p(PartitionState.NO_LEADER, 2, 3));
        ClusterState s0 = ClusterState.of(1, 5, List.of(ZkTesting.broker(1, ""), ZkTesting.broker(2, "")), List.of(a));
        PartitionIndex index = new PartitionIndex();
        index.rebuild(s0);
        PartitionKey a0 = new PartitionKey(a.id(), 0);
        PartitionKey a1 = new PartitionKey(a.id(), 1);
        assertEquals(Set.of(a0), index.replicaOf(1));
        assertEquals(Set.of(a0, a1), index.replicaOf(2));
        assertEquals(Set.of(a1), index.offline());
        assertEquals(Set.of(), index.replicaOf(9));

        TopicState b = topic("b", p(3, 3, 1));
        DeltaRecord d1 = delta(s0);
        d1.createdTopics.add(TopicRecord.of(b));
        d1.partitionChanges.add(new PartitionChangeRecord(a.id(), 1, 3, 1, new int[] {2, 3}));
        d1.partitionChanges.add(new PartitionChangeRecord(a.id(), 0, PartitionState.NO_LEADER, 1, new int[] {1, 2}));
        ClusterState s1 = s0.apply(d1, 6);
        index.applied(s0, d1, s1);
        PartitionKey b0 = new PartitionKey(b.id(), 0);
        assertEquals(Set.of(a0, b0), index.replicaOf(1));
        assertEquals(Set.of(a1, b0), index.replicaOf(3));
        assertEquals(Set.of(a0), index.offline());

        DeltaRecord d2 = delta(s1);
        d2.deletedTopics.add(a.id());
        ClusterState s2 = s1.apply(d2, 7);
        index.applied(s1, d2, s2);
        assertEquals(Set.of(b0), index.replicaOf(1));
        assertEquals(Set.of(), index.replicaOf(2));
        assertEquals(Set.of(), index.offline());

        PartitionIndex rebuilt = new PartitionIndex();
        rebuilt.rebuild(s2);
        for (int broker = 0; broker < 5; broker++) {
            assertEquals(rebuilt.replicaOf(broker), index.replicaOf(broker), "broker " + broker);
        }
    }
}
