package io.sluice.broker.topic;

import io.sluice.broker.cluster.ControllerForwarder;
import io.sluice.broker.config.TopicConfigKeys;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.IntConsumer;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The internal {@code __consumer_offsets} topic, as Kafka has it: committed offsets and group metadata are records on
 * its partitions, replicated like any other partition's ({@code offsets.topic.replication.factor} copies, capped to
 * the brokers alive at creation), and a group is coordinated by the leader of the partition its id hashes to, which
 * moves with that leadership ({@link #roleListener}). It is created on the first coordinator lookup, on the controller
 * (forwarded there from other brokers). Clients may read it but not produce to it.
 *
 * <p>Thread-safe.
 */
public final class OffsetsTopic {
    private static final Logger LOG = LoggerFactory.getLogger(OffsetsTopic.class);
    public static final String NAME = Topic.GROUP_METADATA_TOPIC_NAME;
    /**
     * Settings the topic always has. compact: a later record of a key replaces the earlier one, for the log cleaner
     * to come (until then the partitions keep everything, and no retention deletes them). flush.messages=1 (not
     * Kafka's default): each commit is fsynced on the leader before it is answered, as the per-broker group files
     * it replaces were.
     */
    private static final Map<String, String> FIXED_CONFIGS = Map.of(TopicConfigKeys.CLEANUP_POLICY, "compact");

    private static final Map<String, String> DEFAULT_CONFIGS = Map.of(TopicConfigKeys.FLUSH_MESSAGES, "1");

    /** This broker leads a partition of the topic in a new leader epoch. */
    @FunctionalInterface
    public interface LeaderElected {
        void accept(int partition, int leaderEpoch);
    }

    private final TopicManager topics;
    private final ControllerForwarder forwarder;
    private final int partitions;

    public OffsetsTopic(TopicManager topics, ControllerForwarder forwarder, int partitions) {
        this.topics = topics;
        this.forwarder = forwarder;
        this.partitions = partitions;
    }

    public static boolean isInternal(String topic) {
        return NAME.equals(topic);
    }

    /** The replication factor the topic is created with: the configured one, but no more than the live brokers. */
    static int replicationFactor(int configured, int liveBrokers) {
        return Math.max(1, Math.min(configured, liveBrokers));
    }

    /** The topic's configuration: what it was created with, under the settings it always has. */
    static Map<String, String> configs(Map<String, String> stored) {
        Map<String, String> configs = new HashMap<>(DEFAULT_CONFIGS);
        configs.putAll(stored);
        configs.putAll(FIXED_CONFIGS);
        return configs;
    }

    /**
     * A {@link TopicManager#addRoleListener role listener} telling a coordinator which partitions of this topic the
     * broker starts leading (with the leader epoch) and stops leading.
     */
    public static BiConsumer<Partition, Partition.Transition> roleListener(
            LeaderElected becameLeader, IntConsumer resigned) {
        return (partition, transition) -> {
            if (!isInternal(partition.topic().name())) {
                return;
            }
            switch (transition) {
                case BECAME_LEADER -> becameLeader.accept(partition.index(), partition.leaderEpoch());
                case BECAME_FOLLOWER, OFFLINE, REMOVED -> resigned.accept(partition.index());
                default -> {}
            }
        };
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
            LOG.error(
                    "{} has {} partitions but offsets.topic.num.partitions is {}; group partition {} has no coordinator",
                    NAME,
                    topic.partitionCount(),
                    partitions,
                    partition);
            return PartitionState.NO_LEADER;
        }
        return topic.partition(partition).leader();
    }

    /** Partitions and replication factor -1: the controller applies offsets.topic.* (see TopicManager#create). */
    private void requestCreation() {
        if (topics.isController()) {
            try {
                topics.create(NAME, partitions, -1, Map.of(), false);
            } catch (TopicException e) {
                if (e.error() != Errors.TOPIC_ALREADY_EXISTS) {
                    LOG.warn("Cannot create {}: {}", NAME, e.getMessage());
                }
            }
        } else {
            forwarder.createTopicAsync(NAME, partitions);
        }
    }
}
