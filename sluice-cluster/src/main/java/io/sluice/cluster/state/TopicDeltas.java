package io.sluice.cluster.state;

import io.sluice.cluster.state.wire.ConfigRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.error.MalformedInputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The topic half of applying a delta: created and deleted topics, added partitions, partition changes and topic
 * configurations, into a copy of the topics (unchanged topics and partitions shared); a record naming an unknown
 * topic or partition, or otherwise malformed, is a {@link MalformedInputException}. Stateless; thread-safe.
 */
final class TopicDeltas {
    private TopicDeltas() {}

    /** The topics after {@code delta} (number {@code seq}); {@code before} is not modified. */
    static LinkedHashMap<UUID, TopicState> apply(
            LinkedHashMap<UUID, TopicState> before, DeltaRecord delta, long seq, boolean topicConfigsChanged) {
        LinkedHashMap<UUID, TopicState> topics = new LinkedHashMap<>(before);
        for (Object r : delta.createdTopics) {
            TopicState topic = DecodedElements.element(TopicRecord.class, r, "delta " + seq + " createdTopics")
                    .toTopic();
            topics.put(topic.id(), topic);
        }
        for (UUID id : delta.deletedTopics) {
            topics.remove(id);
        }
        applyAddedPartitions(topics, delta.addedPartitions, seq);
        applyPartitionChanges(topics, delta.partitionChanges, seq);
        if (topicConfigsChanged) {
            applyTopicConfigs(topics, delta.configChanges, seq);
        }
        return topics;
    }

    private static void applyTopicConfigs(Map<UUID, TopicState> topics, List<ConfigRecord> changes, long seq) {
        for (ConfigRecord c : changes) {
            if (c.entityType != ConfigRecord.TOPIC) {
                continue;
            }
            Map<String, String> values = c.configs();
            TopicState topic = topics.get(c.topicId);
            if (topic == null) {
                throw new MalformedInputException("delta " + seq + ": config change for unknown topic id " + c.topicId);
            }
            topics.put(c.topicId, topic.withConfigs(values));
        }
    }

    /** The topic {@code c} names; an unknown one is malformed ({@code what} says which list it came from). */
    private static TopicState topicOf(Map<UUID, TopicState> topics, PartitionChangeRecord c, long seq, String what) {
        TopicState topic = topics.get(c.topicId);
        if (topic == null) {
            throw new MalformedInputException("delta " + seq + ": " + what + " unknown topic id " + c.topicId);
        }
        return topic;
    }

    /** CreatePartitions: each record the next partition of its topic, with its complete state. */
    private static void applyAddedPartitions(
            Map<UUID, TopicState> topics, List<PartitionChangeRecord> added, long seq) {
        if (added.isEmpty()) {
            return;
        }
        Map<UUID, List<PartitionState>> byTopic = new LinkedHashMap<>();
        for (Object decoded : added) {
            PartitionChangeRecord c =
                    DecodedElements.element(PartitionChangeRecord.class, decoded, "delta " + seq + " addedPartitions");
            TopicState topic = topicOf(topics, c, seq, "partitions added to");
            List<PartitionState> list = byTopic.computeIfAbsent(c.topicId, k -> new ArrayList<>());
            int expected = topic.partitionCount() + list.size();
            if (c.partition != expected || expected >= TopicRecord.MAX_PARTITIONS) {
                throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " adds partition "
                        + c.partition + " where the next is " + expected);
            }
            if (c.replicas == null || c.isr == null) {
                throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " adds partition "
                        + c.partition + " without replicas or isr");
            }
            requireReplicaSet(seq, topic, c);
            int partitionEpoch =
                    c.partitionEpoch == PartitionChangeRecord.PARTITION_EPOCH_NOT_CARRIED ? 0 : c.partitionEpoch;
            list.add(new PartitionState(
                    c.replicas, c.leader, c.leaderEpoch, c.isr, partitionEpoch, c.addingReplicas, c.removingReplicas));
        }
        for (Map.Entry<UUID, List<PartitionState>> e : byTopic.entrySet()) {
            topics.put(e.getKey(), topics.get(e.getKey()).withAddedPartitions(e.getValue()));
        }
    }

    private static void applyPartitionChanges(
            Map<UUID, TopicState> topics, List<PartitionChangeRecord> changes, long seq) {
        if (changes.isEmpty()) {
            return;
        }
        Map<UUID, PartitionState[]> byTopic = new LinkedHashMap<>();
        for (Object decoded : changes) {
            PartitionChangeRecord c =
                    DecodedElements.element(PartitionChangeRecord.class, decoded, "delta " + seq + " partitionChanges");
            TopicState topic = topicOf(topics, c, seq, "partition change for");
            if (c.partition < 0 || c.partition >= topic.partitionCount()) {
                throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " partition "
                        + c.partition + " outside 0.." + (topic.partitionCount() - 1));
            }
            if (c.isr == null) {
                throw new MalformedInputException(
                        "delta " + seq + ": topic " + topic.name() + " partition " + c.partition + " has a null isr");
            }
            PartitionState[] slots =
                    byTopic.computeIfAbsent(c.topicId, k -> new PartitionState[topic.partitionCount()]);
            PartitionState base = slots[c.partition] != null ? slots[c.partition] : topic.partition(c.partition);
            // A v0 record (written before partition epochs) still counts as a change: one epoch up.
            int partitionEpoch = c.partitionEpoch == PartitionChangeRecord.PARTITION_EPOCH_NOT_CARRIED
                    ? base.partitionEpoch() + 1
                    : c.partitionEpoch;
            if (c.replicas == null) {
                slots[c.partition] = base.with(c.leader, c.leaderEpoch, c.isr, partitionEpoch);
            } else {
                requireReplicaSet(seq, topic, c);
                slots[c.partition] = new PartitionState(
                        c.replicas,
                        c.leader,
                        c.leaderEpoch,
                        c.isr,
                        partitionEpoch,
                        c.addingReplicas,
                        c.removingReplicas);
            }
        }
        for (Map.Entry<UUID, PartitionState[]> e : byTopic.entrySet()) {
            topics.put(e.getKey(), topics.get(e.getKey()).withPartitions(e.getValue()));
        }
    }

    private static void requireReplicaSet(long seq, TopicState topic, PartitionChangeRecord c) {
        if (c.replicas.length == 0 || c.addingReplicas == null || c.removingReplicas == null) {
            throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " partition "
                    + c.partition + " changes its replicas to " + Arrays.toString(c.replicas)
                    + " with adding " + Arrays.toString(c.addingReplicas) + " and removing "
                    + Arrays.toString(c.removingReplicas));
        }
    }
}
