package io.sluice.broker.api;

import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.config.ConfigEntry;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.TopicException;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfig;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicConfigs;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * CreateTopics: validates names, partition counts, replication factors, manual assignments and
 * configuration overrides, then creates (or, with validateOnly, only checks) each topic. From v5
 * the result carries the effective configuration; from v7 the topic id.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class CreateTopicsHandler implements ApiHandler<CreateTopicsRequestData> {
    private final ClusterView cluster;
    private final TopicManager topics;

    public CreateTopicsHandler(ClusterView cluster, TopicManager topics) {
        this.cluster = cluster;
        this.topics = topics;
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
                fail(result, Errors.INVALID_REQUEST, "Create topics request from client `" + context.clientId()
                        + "` contains multiple entries for the following topics: " + topic.name());
                if (response.topics().find(topic.name()) == null) {
                    response.topics().add(result);
                }
                continue;
            }
            try {
                TopicInfo created = create(topic, request.validateOnly());
                result.setErrorCode(Errors.NONE.code())
                        .setTopicId(created.id())
                        .setNumPartitions(created.partitionCount())
                        .setReplicationFactor((short) 1);
                if (context.apiVersion() >= 5) {
                    for (ConfigEntry entry : topics.effectiveConfigPreview(created).describe()) {
                        result.configs().add(new CreatableTopicConfigs()
                                .setName(entry.name()).setValue(entry.value()).setReadOnly(entry.readOnly())
                                .setConfigSource(entry.source().describeConfigsId()).setIsSensitive(entry.sensitive()));
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
                throw new TopicException(Errors.INVALID_CONFIG, "Null value not supported for topic config '" + config.name() + "'");
            }
            overrides.put(config.name(), config.value());
        }
        int numPartitions = topic.numPartitions();
        int replicationFactor = topic.replicationFactor();
        if (!topic.assignments().isEmpty()) {
            if (numPartitions != -1 || replicationFactor != -1) {
                throw new TopicException(Errors.INVALID_REQUEST,
                        "Both numPartitions or replicationFactor and replicasAssignments were set. Both cannot be used at the same time.");
            }
            numPartitions = topic.assignments().size();
            replicationFactor = -1;
            boolean[] assigned = new boolean[numPartitions];
            for (CreatableReplicaAssignment assignment : topic.assignments()) {
                int index = assignment.partitionIndex();
                if (index < 0 || index >= numPartitions || assigned[index]) {
                    throw new TopicException(Errors.INVALID_REPLICA_ASSIGNMENT,
                            "Partitions of a manual assignment must be 0.." + (numPartitions - 1) + " each once; got partition " + index);
                }
                assigned[index] = true;
                if (assignment.brokerIds().size() != 1 || assignment.brokerIds().get(0) != cluster.self().id()) {
                    throw new TopicException(Errors.INVALID_REPLICA_ASSIGNMENT,
                            "Partition " + index + " is assigned to brokers " + assignment.brokerIds()
                                    + ", but the only live broker is " + cluster.self().id());
                }
            }
        }
        return topics.create(topic.name(), numPartitions, replicationFactor, overrides, validateOnly);
    }

    private static void fail(CreatableTopicResult result, Errors error, String message) {
        result.setErrorCode(error.code()).setErrorMessage(message).setNumPartitions(-1).setReplicationFactor((short) -1)
                .setConfigs(null);
    }
}
