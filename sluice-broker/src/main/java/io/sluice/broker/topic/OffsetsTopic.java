package io.sluice.broker.topic;

import io.sluice.broker.cluster.ControllerForwarder;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.Map;
import org.apache.kafka.common.internals.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The internal {@code __consumer_offsets} topic, as Kafka has it: a group is coordinated by the
 * leader of the partition its id hashes to. Sluice keeps the groups themselves in each
 * coordinator's own store; the topic exists in the cluster state only to place coordinators, so
 * no broker opens logs for it. It is created on the first coordinator lookup, on the controller
 * (forwarded there from other brokers).
 *
 * <p>Thread-safe.
 */
public final class OffsetsTopic {
    private static final Logger LOG = LoggerFactory.getLogger(OffsetsTopic.class);
    public static final String NAME = Topic.GROUP_METADATA_TOPIC_NAME;
    /** No replication yet: a partition's single replica is its leader. */
    private static final int REPLICATION_FACTOR = 1;

    private final TopicManager topics;
    private final ControllerForwarder forwarder;
    private final int partitions;
    private final int selfId;

    public OffsetsTopic(TopicManager topics, ControllerForwarder forwarder, int partitions, int selfId) {
        this.topics = topics;
        this.forwarder = forwarder;
        this.partitions = partitions;
        this.selfId = selfId;
    }

    public static boolean isInternal(String topic) {
        return NAME.equals(topic);
    }

    /**
     * The live leader of {@code partition}, or -1 while there is none: the topic is still being created (creation
     * is requested here) or the partition's broker is down.
     */
    public int leaderOf(int partition) {
        TopicState topic = topics.assignment(NAME);
        if (topic == null) {
            if (topics.isStarted()) {
                requestCreation();
            }
            return PartitionState.NO_LEADER;
        }
        if (partition < 0 || partition >= topic.partitionCount()) {
            LOG.error("{} has {} partitions but offsets.topic.num.partitions is {}; group partition {} has no coordinator",
                    NAME, topic.partitionCount(), partitions, partition);
            return PartitionState.NO_LEADER;
        }
        return topic.partition(partition).leader();
    }

    /** Whether this broker coordinates the groups of {@code partition}. */
    public boolean owns(int partition) {
        TopicState topic = topics.assignment(NAME);
        return topic != null && partition >= 0 && partition < topic.partitionCount()
                && topic.partition(partition).leader() == selfId;
    }

    private void requestCreation() {
        if (topics.isController()) {
            try {
                topics.create(NAME, partitions, REPLICATION_FACTOR, Map.of(), false);
            } catch (TopicException e) {
                if (e.error() != org.apache.kafka.common.protocol.Errors.TOPIC_ALREADY_EXISTS) {
                    LOG.warn("Cannot create {}: {}", NAME, e.getMessage());
                }
            }
        } else {
            forwarder.createTopicAsync(NAME, partitions);
        }
    }
}
