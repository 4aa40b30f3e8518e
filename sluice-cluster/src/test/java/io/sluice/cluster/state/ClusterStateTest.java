package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.error.MalformedInputException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ClusterStateTest {

    static DeltaRecord delta(int epoch, long prev) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = epoch;
        d.prevSeq = prev;
        return d;
    }

    @Test
    void shouldApplyJoinsLeavesTopicsAndLeaderChangesInOrder() {
        DeltaRecord join = delta(1, -1);
        join.joined.add(BrokerRecord.of(ZkTesting.broker(1, "")));
        join.joined.add(BrokerRecord.of(ZkTesting.broker(2, "")));
        ClusterState s1 = ClusterState.EMPTY.apply(join, 5);
        assertEquals(List.of(1, 2), List.copyOf(s1.brokers().keySet()));
        assertEquals(5, s1.appliedSeq());

        TopicState t = new TopicState(UUID.randomUUID(), "orders", Map.of(), new PartitionState[] {
            new PartitionState(new int[] {1, 2}, 1, 0, new int[] {1, 2}),
            new PartitionState(new int[] {2, 1}, 2, 0, new int[] {2, 1})
        });
        DeltaRecord create = delta(1, 5);
        create.createdTopics.add(TopicRecord.of(t));
        ClusterState s2 = s1.apply(create, 6);
        assertSame(s1.brokers(), s1.brokers());
        assertEquals(t, s2.topic("orders"));

        DeltaRecord leave = delta(2, 6);
        leave.left = new int[] {1};
        leave.partitionChanges.add(new PartitionChangeRecord(t.id(), 0, PartitionState.NO_LEADER, 1, new int[] {1, 2}));
        ClusterState s3 = s2.apply(leave, 9);
        assertEquals(List.of(2), List.copyOf(s3.brokers().keySet()));
        assertTrue(s3.topic("orders").partition(0).isOffline());
        assertSame(s2.topic("orders").partition(1), s3.topic("orders").partition(1), "unchanged partitions shared");
        assertEquals(2, s3.controllerEpoch());

        DeltaRecord delete = delta(2, 9);
        delete.deletedTopics.add(t.id());
        assertEquals(null, s3.apply(delete, 10).topic("orders"));
    }

    @Test
    void shouldRejectStaleEpochGapsAndUnknownPartitions() {
        ClusterState s = ClusterState.EMPTY.apply(delta(4, -1), 3);
        StaleEpochException stale = assertThrows(StaleEpochException.class, () -> s.apply(delta(3, 3), 4));
        assertEquals(3, stale.seenEpoch());
        assertEquals(4, stale.currentEpoch());
        assertThrows(StateGapException.class, () -> s.apply(delta(4, 2), 4));
        DeltaRecord unknown = delta(4, 3);
        unknown.partitionChanges.add(new PartitionChangeRecord(UUID.randomUUID(), 0, 1, 1, new int[] {1}));
        assertThrows(MalformedInputException.class, () -> s.apply(unknown, 4));
    }
}
