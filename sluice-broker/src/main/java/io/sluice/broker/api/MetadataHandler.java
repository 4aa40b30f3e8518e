package io.sluice.broker.api;

import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.TopicException;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * Metadata: brokers, controller, cluster id and, for the requested topics (or all), each
 * partition's leader, replicas and ISR, with topic ids from v10. Unknown topics are created when
 * auto.create.topics.enable is on and the client allows it.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class MetadataHandler implements ApiHandler<MetadataRequestData> {
    private static final int AUTHORIZED_OPERATIONS_OMITTED = Integer.MIN_VALUE;
    private static final short FIRST_VERSION_WITH_AUTO_CREATE_FLAG = 4;

    private final ClusterView cluster;
    private final TopicManager topics;
    private final boolean autoCreateTopics;

    public MetadataHandler(ClusterView cluster, TopicManager topics, boolean autoCreateTopics) {
        this.cluster = cluster;
        this.topics = topics;
        this.autoCreateTopics = autoCreateTopics;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, MetadataRequestData request) {
        short version = context.apiVersion();
        MetadataResponseData response = new MetadataResponseData()
                .setClusterId(cluster.clusterId())
                .setControllerId(cluster.controllerId())
                .setClusterAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED);
        for (BrokerNode node : cluster.liveBrokers()) {
            response.brokers().add(new MetadataResponseData.MetadataResponseBroker()
                    .setNodeId(node.id()).setHost(node.host()).setPort(node.port()).setRack(node.rack()));
        }
        boolean allTopics = request.topics() == null || (version == 0 && request.topics().isEmpty());
        if (allTopics) {
            for (TopicInfo topic : topics.topics()) {
                response.topics().add(describe(topic));
            }
        } else {
            boolean mayCreate = autoCreateTopics && (version < FIRST_VERSION_WITH_AUTO_CREATE_FLAG || request.allowAutoTopicCreation());
            for (MetadataRequestData.MetadataRequestTopic requested : request.topics()) {
                response.topics().add(lookup(requested, mayCreate));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private MetadataResponseTopic lookup(MetadataRequestData.MetadataRequestTopic requested, boolean mayCreate) {
        String name = requested.name();
        if (name == null) {
            Uuid id = requested.topicId();
            TopicInfo byId = id == null ? null : topics.topic(id);
            if (byId == null) {
                return new MetadataResponseTopic().setTopicId(id == null ? Uuid.ZERO_UUID : id)
                        .setErrorCode(Errors.UNKNOWN_TOPIC_ID.code()).setTopicAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED);
            }
            return describe(byId);
        }
        TopicInfo topic = topics.topic(name);
        if (topic != null) {
            return describe(topic);
        }
        Errors error = Errors.UNKNOWN_TOPIC_OR_PARTITION;
        try {
            TopicManager.validateName(name);
            if (mayCreate) {
                return describe(topics.create(name, -1, -1, Map.of(), false));
            }
        } catch (TopicException e) {
            error = e.error() == Errors.TOPIC_ALREADY_EXISTS ? Errors.NONE : e.error();
            if (error == Errors.NONE && topics.topic(name) != null) {
                return describe(topics.topic(name));
            }
        }
        return new MetadataResponseTopic().setName(name).setErrorCode(error.code())
                .setTopicAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED);
    }

    private MetadataResponseTopic describe(TopicInfo topic) {
        int self = cluster.self().id();
        List<MetadataResponsePartition> partitions = new ArrayList<>(topic.partitionCount());
        for (int p = 0; p < topic.partitionCount(); p++) {
            partitions.add(new MetadataResponsePartition()
                    .setPartitionIndex(p)
                    .setErrorCode(Errors.NONE.code())
                    .setLeaderId(self)
                    .setLeaderEpoch(0)
                    .setReplicaNodes(List.of(self))
                    .setIsrNodes(List.of(self))
                    .setOfflineReplicas(List.of()));
        }
        return new MetadataResponseTopic()
                .setName(topic.name())
                .setTopicId(topic.id())
                .setErrorCode(Errors.NONE.code())
                .setIsInternal(false)
                .setPartitions(partitions)
                .setTopicAuthorizedOperations(AUTHORIZED_OPERATIONS_OMITTED);
    }
}
