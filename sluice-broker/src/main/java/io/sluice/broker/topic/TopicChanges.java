package io.sluice.broker.topic;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ConfigException;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.TopicState;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creating and deleting topics for {@link TopicManager}: Kafka's checks of a CreateTopics or DeleteTopics request
 * against the newest applied view (the replication factor against the live brokers of the node's newest state, as
 * Metadata lists them) and the broker defaults, the change sent to the controller, and the wait until this
 * broker has applied its outcome (bounded by {@code sluice.controller.wait.ms}).
 *
 * <p>Thread-safe (stateless past construction); a call blocks its thread until the controller answers and the state
 * is applied here.
 */
final class TopicChanges {
    private static final Logger LOG = LoggerFactory.getLogger(TopicChanges.class);

    private final TopicManager topics;

    TopicChanges(TopicManager topics) {
        this.topics = topics;
    }

    /** See {@link TopicManager#create(String, int, int, int[][], Map, boolean)}. */
    TopicInfo create(
            String name,
            int numPartitions,
            int replicationFactor,
            int[][] assignments,
            Map<String, String> overrides,
            boolean validateOnly)
            throws TopicException {
        TopicManager.validateName(name);
        TopicsView current = topics.view();
        if (current.byName(name) != null) {
            throw new TopicException(Errors.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
        }
        for (TopicInfo existing : current.topics()) {
            if (Topic.hasCollision(name, existing.name())) {
                throw new TopicException(
                        Errors.INVALID_TOPIC_EXCEPTION,
                        "Topic '" + name + "' collides with existing topic '" + existing.name()
                                + "': '.' and '_' are interchangeable in metric names");
            }
        }
        boolean internal = OffsetsTopic.isInternal(name);
        // The live brokers of the node's newest state, the ones Metadata and DescribeCluster list
        // (ClusterMembership.liveBrokers): the applied view above lags that state while this broker applies it, and a
        // client that was shown N brokers must not be refused N replicas for it.
        int live = requireNode().current().brokers().size();
        BrokerConfig config = topics.config();
        int partitionCount = assignments != null
                ? assignments.length
                : numPartitions != -1
                        ? numPartitions
                        : internal ? config.offsetsTopicNumPartitions() : config.numPartitions();
        if (partitionCount <= 0) {
            throw new TopicException(
                    Errors.INVALID_PARTITIONS,
                    "Number of partitions must be larger than 0 (or -1 for the default), was " + numPartitions);
        }
        int replicas = assignments != null
                ? assignments[0].length
                : replicationFactor != -1
                        ? replicationFactor
                        : internal
                                ? OffsetsTopic.replicationFactor(config.offsetsTopicReplicationFactor(), live)
                                : config.defaultReplicationFactor();
        if (assignments == null && replicas <= 0) {
            throw new TopicException(
                    Errors.INVALID_REPLICATION_FACTOR,
                    "Replication factor must be larger than 0 (or -1 for the default), was " + replicationFactor);
        }
        if (assignments == null && replicas > live) {
            throw new TopicException(
                    Errors.INVALID_REPLICATION_FACTOR,
                    "Replication factor: " + replicas + " larger than available brokers: " + live + ".");
        }
        Map<String, String> validOverrides;
        try {
            validOverrides = TopicConfigs.validateNew(overrides);
            TopicConfigs.resolve(topics.dynamicConfig().live(), validOverrides);
        } catch (ConfigException e) {
            throw new TopicException(Errors.INVALID_CONFIG, e.getMessage());
        }
        TopicState created;
        if (assignments != null) {
            created = await(
                    requireNode().createTopic(name, assignments, validOverrides, validateOnly),
                    "create topic '" + name + "'");
            if (validateOnly) {
                return new TopicInfo(name, Uuid.ZERO_UUID, created.partitionCount(), validOverrides);
            }
        } else if (validateOnly) {
            return new TopicInfo(name, Uuid.ZERO_UUID, partitionCount, validOverrides);
        } else {
            created = await(
                    requireNode().createTopic(name, partitionCount, replicas, validOverrides),
                    "create topic '" + name + "'");
        }
        Uuid id = TopicManager.toKafka(created.id());
        TopicInfo applied = topics.awaitApplied(() -> topics.view().byId(id), "topic '" + name + "' to be applied");
        LOG.info(
                "Created topic {} (id {}) with {} partitions, replication factor {} and overrides {}",
                name,
                id,
                partitionCount,
                replicas,
                validOverrides);
        return applied;
    }

    /** Deletes a topic through the controller and waits until this broker has removed its logs. */
    void delete(String name) throws TopicException {
        if (!topics.config().deleteTopicEnable()) {
            throw new TopicException(
                    Errors.TOPIC_DELETION_DISABLED, "Topic deletion is disabled (delete.topic.enable=false).");
        }
        TopicInfo topic = topics.view().byName(name);
        if (topic == null) {
            throw new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic '" + name + "' does not exist.");
        }
        if (OffsetsTopic.isInternal(name)) {
            throw new TopicException(
                    Errors.INVALID_TOPIC_EXCEPTION, "Topic '" + name + "' is internal and cannot be deleted.");
        }
        await(requireNode().deleteTopic(name), "delete topic '" + name + "'");
        topics.awaitApplied(
                () -> topics.view().byId(topic.id()) == null ? Boolean.TRUE : null,
                "deletion of topic '" + name + "' to be applied");
    }

    /** Waits until this broker has applied a state in which topic {@code name} has {@code count} partitions or more. */
    void awaitPartitions(String name, int count) throws TopicException {
        topics.awaitApplied(
                () -> {
                    TopicInfo info = topics.view().byName(name);
                    return info != null && info.partitionCount() >= count ? info : null;
                },
                count + " partitions of topic '" + name + "' to be applied");
    }

    private ClusterNode requireNode() throws TopicException {
        ClusterNode n = topics.clusterNode();
        if (n == null) {
            throw new TopicException(
                    Errors.NOT_CONTROLLER, "Broker " + topics.selfId() + " has not joined the cluster yet.");
        }
        return n;
    }

    private <T> T await(CompletableFuture<T> future, String what) throws TopicException {
        return ControllerAnswer.await(future, what, topics.controllerWaitMs());
    }
}
