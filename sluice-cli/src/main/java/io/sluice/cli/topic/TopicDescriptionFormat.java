package io.sluice.cli.topic;

import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Formats a topic description the way Kafka's kafka-topics.sh --describe does (tab-separated
 * fields, one header line, one line per partition). Stateless; thread-safe.
 */
public final class TopicDescriptionFormat {
    private static final String NO_LEADER = "none";

    private TopicDescriptionFormat() {}

    public static String format(TopicDescription description, Map<String, String> overrides) {
        List<TopicPartitionInfo> partitions = description.partitions();
        int replicationFactor =
                partitions.isEmpty() ? 0 : partitions.get(0).replicas().size();
        StringJoiner configs = new StringJoiner(",");
        overrides.forEach((name, value) -> configs.add(name + "=" + value));
        StringBuilder text = new StringBuilder();
        text.append("Topic: ")
                .append(description.name())
                .append("\tTopicId: ")
                .append(description.topicId())
                .append("\tPartitionCount: ")
                .append(partitions.size())
                .append("\tReplicationFactor: ")
                .append(replicationFactor)
                .append("\tConfigs: ")
                .append(configs)
                .append('\n');
        for (TopicPartitionInfo partition : partitions) {
            Node leader = partition.leader();
            text.append("\tTopic: ")
                    .append(description.name())
                    .append("\tPartition: ")
                    .append(partition.partition())
                    .append("\tLeader: ")
                    .append(leader == null || leader.isEmpty() ? NO_LEADER : leader.idString())
                    .append("\tReplicas: ")
                    .append(ids(partition.replicas()))
                    .append("\tIsr: ")
                    .append(ids(partition.isr()))
                    .append('\n');
        }
        return text.toString();
    }

    private static String ids(List<Node> nodes) {
        StringJoiner joined = new StringJoiner(",");
        for (Node node : nodes) {
            joined.add(node.idString());
        }
        return joined.toString();
    }
}
