package io.sluice.broker.api;

import io.sluice.broker.auth.AuthorizedOperations;
import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.cluster.ControllerForwarder;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.OffsetsTopic;
import io.sluice.broker.topic.TopicException;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntPredicate;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Metadata: live brokers, controller, cluster id and, for the requested topics (or all), each
 * partition's leader, leader epoch, replicas, ISR and offline replicas as the controller published
 * them, with topic ids from v10; a leader that is not live, or live without an endpoint for the request's listener,
 * is answered as {@link AdvertisedLeader} says (LEADER_NOT_AVAILABLE, LISTENER_NOT_FOUND).
 * Unknown topics are created when auto.create.topics.enable is on and the client allows it: at
 * once on the controller, forwarded to it from any other broker. The operations the client may
 * perform on the cluster (v8-10) and on each named topic (v8+) are reported when asked for.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class MetadataHandler implements ApiHandler<MetadataRequestData> {
    private static final short FIRST_VERSION_WITH_AUTO_CREATE_FLAG = 4;

    private final ClusterView cluster;
    private final TopicManager topics;
    private final boolean autoCreateTopics;
    private final ControllerForwarder forwarder;
    private final AuthorizedOperations authorized;

    public MetadataHandler(
            ClusterView cluster,
            TopicManager topics,
            boolean autoCreateTopics,
            ControllerForwarder forwarder,
            AuthorizedOperations authorized) {
        this.cluster = cluster;
        this.topics = topics;
        this.autoCreateTopics = autoCreateTopics;
        this.forwarder = forwarder;
        this.authorized = authorized;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, MetadataRequestData request) {
        short version = context.apiVersion();
        MetadataResponseData response = new MetadataResponseData()
                .setClusterId(cluster.clusterId())
                .setControllerId(cluster.controllerId())
                .setClusterAuthorizedOperations(
                        request.includeClusterAuthorizedOperations()
                                ? authorized.onCluster(context)
                                : AuthorizedOperations.OMITTED);
        List<BrokerNode> reachable = cluster.liveBrokers(context.listenerName());
        for (BrokerNode node : reachable) {
            response.brokers()
                    .add(new MetadataResponseData.MetadataResponseBroker()
                            .setNodeId(node.id())
                            .setHost(node.host())
                            .setPort(node.port())
                            .setRack(node.rack()));
        }
        Brokers brokers = new Brokers(idsOf(cluster.liveBrokers()), idsOf(reachable), version);
        boolean allTopics =
                request.topics() == null || (version == 0 && request.topics().isEmpty());
        if (!topics.isStarted()) {
            // Still joining or recovering: no topic is known yet, and the client should ask again.
            if (!allTopics) {
                for (MetadataRequestData.MetadataRequestTopic requested : request.topics()) {
                    response.topics()
                            .add(new MetadataResponseTopic()
                                    .setName(requested.name())
                                    .setTopicId(requested.topicId() == null ? Uuid.ZERO_UUID : requested.topicId())
                                    .setErrorCode(Errors.LEADER_NOT_AVAILABLE.code())
                                    .setTopicAuthorizedOperations(AuthorizedOperations.OMITTED));
                }
            }
        } else if (allTopics) {
            for (TopicInfo topic : topics.topics()) {
                // as Kafka: all topics means all the principal may describe
                if (context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.name())) {
                    response.topics().add(describe(topic, brokers));
                }
            }
        } else {
            boolean mayCreate = autoCreateTopics
                    && (version < FIRST_VERSION_WITH_AUTO_CREATE_FLAG || request.allowAutoTopicCreation());
            for (MetadataRequestData.MetadataRequestTopic requested : request.topics()) {
                response.topics().add(lookup(context, requested, mayCreate, brokers));
            }
        }
        if (request.includeTopicAuthorizedOperations()) {
            for (MetadataResponseTopic topic : response.topics()) {
                // as Kafka: every topic asked for by name, existing or not; none for an unknown topic id
                if (topic.name() != null) {
                    topic.setTopicAuthorizedOperations(authorized.onTopic(context, topic.name()));
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private MetadataResponseTopic lookup(
            RequestContext context,
            MetadataRequestData.MetadataRequestTopic requested,
            boolean mayCreate,
            Brokers brokers) {
        String name = requested.name();
        if (name == null) {
            Uuid id = requested.topicId();
            TopicInfo byId = id == null ? null : topics.topic(id);
            // as Kafka: a topic id the principal may not describe reads as unknown, so ids do not leak names
            if (byId == null || !context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, byId.name())) {
                return new MetadataResponseTopic()
                        .setTopicId(id == null ? Uuid.ZERO_UUID : id)
                        .setErrorCode(Errors.UNKNOWN_TOPIC_ID.code())
                        .setTopicAuthorizedOperations(AuthorizedOperations.OMITTED);
            }
            return describe(byId, brokers);
        }
        if (!context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name)) {
            return refused(name);
        }
        TopicInfo topic = topics.topic(name);
        if (topic != null) {
            return describe(topic, brokers);
        }
        if (mayCreate
                && !context.authorizeCluster(AclOperation.CREATE)
                && !context.authorize(AclOperation.CREATE, ResourceType.TOPIC, name)) {
            return refused(name);
        }
        Errors error = Errors.UNKNOWN_TOPIC_OR_PARTITION;
        try {
            TopicManager.validateName(name);
            if (mayCreate && !topics.isController()) {
                // Like Kafka: the controller creates it; the client retries while the leader is not yet known.
                forwarder.createTopicAsync(name);
                error = Errors.LEADER_NOT_AVAILABLE;
            } else if (mayCreate) {
                return describe(topics.create(name, -1, -1, Map.of(), false), brokers);
            }
        } catch (TopicException e) {
            error = e.error() == Errors.TOPIC_ALREADY_EXISTS ? Errors.NONE : e.error();
            if (error == Errors.NONE && topics.topic(name) != null) {
                return describe(topics.topic(name), brokers);
            }
            if (error == Errors.NOT_CONTROLLER || error == Errors.REQUEST_TIMED_OUT) {
                error = Errors.LEADER_NOT_AVAILABLE;
            }
        }
        return new MetadataResponseTopic()
                .setName(name)
                .setErrorCode(error.code())
                .setTopicAuthorizedOperations(AuthorizedOperations.OMITTED);
    }

    private static MetadataResponseTopic refused(String name) {
        return new MetadataResponseTopic()
                .setName(name)
                .setTopicId(Uuid.ZERO_UUID)
                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                .setIsInternal(OffsetsTopic.isInternal(name))
                .setTopicAuthorizedOperations(AuthorizedOperations.OMITTED);
    }

    private MetadataResponseTopic describe(TopicInfo topic, Brokers brokers) {
        TopicState assignment = topics.assignment(topic.name());
        List<MetadataResponsePartition> partitions = new ArrayList<>(topic.partitionCount());
        IntPredicate live = brokers.live()::contains;
        IntPredicate reachable = brokers.reachable()::contains;
        short version = brokers.version();
        for (int p = 0; assignment != null && p < assignment.partitionCount(); p++) {
            PartitionState state = assignment.partition(p);
            partitions.add(new MetadataResponsePartition()
                    .setPartitionIndex(p)
                    .setErrorCode(AdvertisedLeader.metadataError(state, live, reachable, version))
                    .setLeaderId(AdvertisedLeader.of(state, reachable))
                    .setLeaderEpoch(state.leaderEpoch())
                    .setReplicaNodes(AdvertisedLeader.metadataReplicas(state.replicas(), reachable, version))
                    .setIsrNodes(AdvertisedLeader.metadataReplicas(state.isr(), reachable, version))
                    .setOfflineReplicas(AdvertisedLeader.offlineReplicas(state, reachable)));
        }
        return new MetadataResponseTopic()
                .setName(topic.name())
                .setTopicId(topic.id())
                .setErrorCode(Errors.NONE.code())
                .setIsInternal(OffsetsTopic.isInternal(topic.name()))
                .setPartitions(partitions)
                .setTopicAuthorizedOperations(AuthorizedOperations.OMITTED);
    }

    private static Set<Integer> idsOf(List<BrokerNode> nodes) {
        Set<Integer> ids = new HashSet<>(nodes.size() * 2);
        for (BrokerNode b : nodes) {
            ids.add(b.id());
        }
        return ids;
    }

    /**
     * The brokers live on any listener, those live with an endpoint for the request's listener, and the request's
     * version: what a partition's answer depends on.
     */
    private record Brokers(Set<Integer> live, Set<Integer> reachable, short version) {}
}
