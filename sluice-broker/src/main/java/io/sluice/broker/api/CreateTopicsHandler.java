package io.sluice.broker.api;

import io.sluice.broker.config.ConfigEntry;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.TopicException;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.state.TopicState;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfig;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicConfigs;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * CreateTopics: validates names, partition counts, replication factors and configuration
 * overrides, then has the controller create (or, with validateOnly, only checks) each topic, on the replicas the
 * controller places or on those given in {@code assignments} ({@code kafka-topics.sh --replica-assignment}). A
 * broker that is not the controller answers NOT_CONTROLLER and the client retries on the controller. From v5
 * the result carries the effective configuration; from v7 the topic id.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class CreateTopicsHandler implements ApiHandler<CreateTopicsRequestData> {
    private final TopicManager topics;
    private final int defaultReplicationFactor;

    public CreateTopicsHandler(TopicManager topics, int defaultReplicationFactor) {
        this.topics = topics;
        this.defaultReplicationFactor = defaultReplicationFactor;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, CreateTopicsRequestData request) {
        CreateTopicsResponseData response = new CreateTopicsResponseData();
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new HashSet<>();
        for (CreatableTopic topic : request.topics()) {
            if (!seen.add(topic.name())) {
                duplicated.add(topic.name());
            }
        }
        for (CreatableTopic topic : request.topics()) {
            CreatableTopicResult result = new CreatableTopicResult().setName(topic.name());
            if (duplicated.contains(topic.name())) {
                fail(
                        result,
                        Errors.INVALID_REQUEST,
                        "Create topics request from client `" + context.clientId()
                                + "` contains multiple entries for the following topics: " + topic.name());
                if (response.topics().find(topic.name()) == null) {
                    response.topics().add(result);
                }
                continue;
            }
            if (!context.authorizeCluster(AclOperation.CREATE)
                    && !context.authorize(AclOperation.CREATE, ResourceType.TOPIC, topic.name())) {
                fail(result, Errors.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.");
                response.topics().add(result);
                continue;
            }
            try {
                TopicInfo created = create(topic, request.validateOnly());
                result.setErrorCode(Errors.NONE.code())
                        .setTopicId(created.id())
                        .setNumPartitions(created.partitionCount())
                        .setReplicationFactor((short) replicationFactorOf(created, topic));
                if (context.apiVersion() >= 5) {
                    for (ConfigEntry entry :
                            topics.effectiveConfigPreview(created).describe()) {
                        result.configs()
                                .add(new CreatableTopicConfigs()
                                        .setName(entry.name())
                                        .setValue(entry.value())
                                        .setReadOnly(entry.readOnly())
                                        .setConfigSource(entry.source().describeConfigsId())
                                        .setIsSensitive(entry.sensitive()));
                    }
                }
            } catch (TopicException e) {
                fail(result, e.error(), e.getMessage());
            }
            response.topics().add(result);
        }
        return CompletableFuture.completedFuture(response);
    }

    private TopicInfo create(CreatableTopic topic, boolean validateOnly) throws TopicException {
        Map<String, String> overrides = new HashMap<>();
        for (CreatableTopicConfig config : topic.configs()) {
            if (config.value() == null) {
                throw new TopicException(
                        Errors.INVALID_CONFIG, "Null value not supported for topic config '" + config.name() + "'");
            }
            overrides.put(config.name(), config.value());
        }
        int numPartitions = topic.numPartitions();
        int replicationFactor = topic.replicationFactor();
        int[][] assignments = null;
        if (!topic.assignments().isEmpty()) {
            if (numPartitions != -1 || replicationFactor != -1) {
                throw new TopicException(
                        Errors.INVALID_REQUEST,
                        "Both numPartitions or replicationFactor and "
                                + "replicasAssignments were set. Both cannot be used at the same time.");
            }
            assignments = manualAssignments(topic);
        }
        return topics.create(topic.name(), numPartitions, replicationFactor, assignments, overrides, validateOnly);
    }

    /** The replicas of each partition in partition order; the partition indexes must be 0, 1, 2, ... as in Kafka. */
    private static int[][] manualAssignments(CreatableTopic topic) throws TopicException {
        int[][] replicas = new int[topic.assignments().size()][];
        for (CreatableReplicaAssignment a : topic.assignments()) {
            int p = a.partitionIndex();
            if (p < 0 || p >= replicas.length || replicas[p] != null) {
                throw new TopicException(
                        Errors.INVALID_REPLICA_ASSIGNMENT,
                        "Partitions should be a consecutive 0-based integer sequence");
            }
            replicas[p] = a.brokerIds().stream().mapToInt(Integer::intValue).toArray();
        }
        return replicas;
    }

    private int replicationFactorOf(TopicInfo created, CreatableTopic requested) {
        TopicState assignment = topics.assignment(created.name());
        if (assignment != null
                && assignment.partitionCount() > 0
                && created.id().equals(topics.topic(created.name()).id())) {
            return assignment.partition(0).replicas().length;
        }
        return requested.replicationFactor() == -1 ? defaultReplicationFactor : requested.replicationFactor();
    }

    private static void fail(CreatableTopicResult result, Errors error, String message) {
        result.setErrorCode(error.code())
                .setErrorMessage(message)
                .setNumPartitions(-1)
                .setReplicationFactor((short) -1)
                .setConfigs(null);
    }
}
