package io.sluice.cli.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

class TopicDescriptionFormatTest {

    @Test
    void shouldFormatLikeKafkaTopicsDescribe() {
        Node broker0 = new Node(0, "127.0.0.1", 9092);
        Uuid id = new Uuid(1, 2);
        TopicDescription description = new TopicDescription(
                "orders",
                false,
                List.of(
                        new TopicPartitionInfo(0, broker0, List.of(broker0), List.of(broker0)),
                        new TopicPartitionInfo(1, null, List.of(broker0), List.of())),
                Set.of(),
                id);
        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put("retention.ms", "1000");
        overrides.put("segment.bytes", "4096");

        assertEquals(
                "Topic: orders\tTopicId: " + id + "\tPartitionCount: 2\tReplicationFactor: 1"
                        + "\tConfigs: retention.ms=1000,segment.bytes=4096\n"
                        + "\tTopic: orders\tPartition: 0\tLeader: 0\tReplicas: 0\tIsr: 0\n"
                        + "\tTopic: orders\tPartition: 1\tLeader: none\tReplicas: 0\tIsr: \n",
                TopicDescriptionFormat.format(description, overrides));
    }

    @Test
    void shouldLeaveCountsToTheBrokerWhenNotGiven() {
        NewTopic defaults = TopicCreateCommand.newTopic("t", null, null, List.of());
        assertEquals(-1, defaults.replicationFactor());
        assertEquals(-1, defaults.numPartitions());
        NewTopic given =
                TopicCreateCommand.newTopic("t", 8, (short) 1, List.of("retention.ms=5", "cleanup.policy=delete"));
        assertEquals(8, given.numPartitions());
        assertEquals(1, given.replicationFactor());
        assertEquals(Map.of("retention.ms", "5", "cleanup.policy", "delete"), given.configs());
    }
}
