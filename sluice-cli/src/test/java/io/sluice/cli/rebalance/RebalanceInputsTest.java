package io.sluice.cli.rebalance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cluster.assign.RebalancePlanner.PartitionReplicas;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the rebalance planner is given: each topic's segment.bytes and each partition's ISR. */
class RebalanceInputsTest {
    private static final long BROKER_SEGMENT_BYTES = 2L << 20;
    private static final long TOPIC_SEGMENT_BYTES = 1L << 20;

    @TempDir
    Path dataDir;

    /**
     * "small" sets segment.bytes to 1 MiB, "plain" follows the broker's log.segment.bytes of 2 MiB. The tolerance
     * used to take the broker's value for every topic.
     */
    @Test
    void shouldGiveEachTopicItsEffectiveSegmentBytes() throws Exception {
        try (SluiceBroker broker = SluiceBroker.start(BrokerConfig.fromMap(Map.of(
                        "log.dirs", dataDir.toString(),
                        "listeners", "PLAINTEXT://127.0.0.1:0",
                        "log.segment.bytes", Long.toString(BROKER_SEGMENT_BYTES))));
                Admin admin = admin(broker)) {
            admin.createTopics(List.of(
                            new NewTopic("small", 2, (short) 1)
                                    .configs(Map.of("segment.bytes", Long.toString(TOPIC_SEGMENT_BYTES))),
                            new NewTopic("plain", 1, (short) 1)))
                    .all()
                    .get();
            RebalanceInputs inputs = RebalanceInputs.read(admin, Set.of(), Duration.ofSeconds(30), false);
            assertEquals(TOPIC_SEGMENT_BYTES, inputs.segmentBytesOf("small"));
            assertEquals(BROKER_SEGMENT_BYTES, inputs.segmentBytesOf("plain"));
            assertEquals(BROKER_SEGMENT_BYTES, inputs.segmentBytesOf("not-a-topic"));
            List<PartitionReplicas> small = inputs.partitions().stream()
                    .filter(p -> p.topic().equals("small"))
                    .toList();
            assertEquals(2, small.size());
            for (PartitionReplicas p : small) {
                assertArrayEquals(p.replicas(), p.isr(), p.toString());
            }
        }
    }

    @Test
    void shouldCarryThePartitionsIsr() {
        Node one = new Node(1, "h", 1);
        Node two = new Node(2, "h", 2);
        Node three = new Node(3, "h", 3);
        PartitionReplicas p = RebalanceInputs.partitionOf(
                new TopicPartition("t", 4),
                new TopicPartitionInfo(4, one, List.of(two, one, three), List.of(one, three)),
                100,
                null);
        assertArrayEquals(new int[] {2, 1, 3}, p.replicas());
        assertArrayEquals(new int[] {1, 3}, p.isr());
        assertEquals(100, p.sizeBytes());
    }

    private static Admin admin(SluiceBroker broker) {
        Properties props = new Properties();
        props.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.boundAddress().getPort());
        return Admin.create(props);
    }
}
