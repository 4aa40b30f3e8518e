package io.sluice.cli.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

/** The size a move's progress is measured against: the leader's copy, else the largest original copy. */
class MoveProgressReaderTest {
    private static final TopicPartition TP = new TopicPartition("orders", 0);
    private static final Node ONE = new Node(1, "127.0.0.1", 9001);
    private static final Node TWO = new Node(2, "127.0.0.1", 9002);
    private static final Node THREE = new Node(3, "127.0.0.1", 9003);
    /** Broker 3 is added to [1, 2] in place of 1. */
    private static final PartitionReassignment MOVE =
            new PartitionReassignment(List.of(3, 2, 1), List.of(3), List.of(1));

    private static final Map<Integer, Map<TopicPartition, Long>> SIZES =
            Map.of(1, Map.of(TP, 1_000L), 2, Map.of(TP, 900L), 3, Map.of(TP, 100L));

    @Test
    void shouldMeasureAgainstTheLeadersCopy() {
        TopicPartitionInfo led = new TopicPartitionInfo(0, TWO, List.of(THREE, TWO, ONE), List.of(TWO, ONE));
        assertEquals(900L, MoveProgressReader.sourceSize(TP, led, MOVE, SIZES));
    }

    @Test
    void shouldMeasureALeaderlessMoveAgainstTheLargestOriginalCopy() {
        TopicPartitionInfo leaderless = new TopicPartitionInfo(0, null, List.of(THREE, TWO, ONE), List.of());
        assertEquals(
                1_000L, MoveProgressReader.sourceSize(TP, leaderless, MOVE, SIZES), "not 0, which read as 100% done");
        TopicPartitionInfo silentLeader = new TopicPartitionInfo(0, ONE, List.of(THREE, TWO, ONE), List.of(ONE));
        assertEquals(
                900L,
                MoveProgressReader.sourceSize(TP, silentLeader, MOVE, Map.of(2, Map.of(TP, 900L))),
                "a leader that did not answer: the largest copy that did, the adding replica's left out");
    }
}
