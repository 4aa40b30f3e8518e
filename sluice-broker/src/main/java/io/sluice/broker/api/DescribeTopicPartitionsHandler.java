package io.sluice.broker.api;

import io.sluice.broker.auth.AuthorizedOperations;
import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.OffsetsTopic;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.Cursor;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeTopicPartitions (KIP-966; what Kafka 3.9's admin client and {@code kafka-topics.sh --describe} use when a
 * broker offers it): the named topics, or every topic when none is named, in name order, each partition with its
 * leader, epoch, replicas, ISR and offline replicas, paged by a cursor at most {@code ResponsePartitionLimit}
 * partitions (and at most {@link #MAX_PARTITIONS}) at a time. As in Kafka, partitions carry no error: a leader that
 * is not live, or has no endpoint for the request's listener, is -1 (see {@link AdvertisedLeader}). Sluice has no
 * eligible leader replicas (ELR): those fields are empty.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DescribeTopicPartitionsHandler implements ApiHandler<DescribeTopicPartitionsRequestData> {
    /** Kafka's max.request.partition.size.limit default: no answer carries more partitions. */
    static final int MAX_PARTITIONS = 2000;

    private final ClusterView cluster;
    private final TopicManager topics;
    private final AuthorizedOperations authorized;

    public DescribeTopicPartitionsHandler(ClusterView cluster, TopicManager topics, AuthorizedOperations authorized) {
        this.cluster = cluster;
        this.topics = topics;
        this.authorized = authorized;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DescribeTopicPartitionsRequestData request) {
        TreeMap<String, TopicInfo> wanted = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        if (request.topics().isEmpty()) {
            for (TopicInfo t : topics.topics()) {
                if (context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, t.name())) {
                    wanted.put(t.name(), t);
                }
            }
        } else {
            for (DescribeTopicPartitionsRequestData.TopicRequest t : request.topics()) {
                TopicInfo info = topics.topic(t.name());
                if (!context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, t.name())) {
                    refused.add(t.name());
                } else if (info == null) {
                    unknown.add(t.name());
                } else {
                    wanted.put(info.name(), info);
                }
            }
        }
        DescribeTopicPartitionsResponseData response = new DescribeTopicPartitionsResponseData();
        for (String name : unknown) {
            response.topics()
                    .add(new DescribeTopicPartitionsResponseTopic()
                            .setName(name)
                            .setTopicId(Uuid.ZERO_UUID)
                            .setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                            .setTopicAuthorizedOperations(authorized.onTopic(context, name)));
        }
        for (String name : refused) {
            response.topics()
                    .add(new DescribeTopicPartitionsResponseTopic()
                            .setName(name)
                            .setTopicId(Uuid.ZERO_UUID)
                            .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                            .setTopicAuthorizedOperations(authorized.onTopic(context, name)));
        }
        Set<Integer> reachable = new HashSet<>();
        for (BrokerNode b : cluster.liveBrokers(context.listenerName())) {
            reachable.add(b.id());
        }
        int budget = Math.max(1, Math.min(request.responsePartitionLimit(), MAX_PARTITIONS));
        DescribeTopicPartitionsRequestData.Cursor cursor = request.cursor();
        for (TopicInfo info : cursor == null
                ? wanted.values()
                : wanted.tailMap(cursor.topicName(), true).values()) {
            TopicState state = topics.assignment(info.name());
            if (state == null) {
                continue;
            }
            int first =
                    cursor != null && cursor.topicName().equals(info.name()) ? Math.max(0, cursor.partitionIndex()) : 0;
            DescribeTopicPartitionsResponseTopic topic = new DescribeTopicPartitionsResponseTopic()
                    .setName(info.name())
                    .setTopicId(info.id())
                    .setErrorCode(Errors.NONE.code())
                    .setIsInternal(OffsetsTopic.isInternal(info.name()))
                    .setTopicAuthorizedOperations(authorized.onTopic(context, info.name()));
            response.topics().add(topic);
            for (int p = first; p < state.partitionCount(); p++) {
                if (budget == 0) {
                    response.setNextCursor(
                            new Cursor().setTopicName(info.name()).setPartitionIndex(p));
                    return CompletableFuture.completedFuture(response);
                }
                topic.partitions().add(describe(p, state.partition(p), reachable));
                budget--;
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private static DescribeTopicPartitionsResponsePartition describe(
            int index, PartitionState state, Set<Integer> reachable) {
        // as Kafka: no partition error; a leader that is not live, or lacks the request's listener, is -1
        return new DescribeTopicPartitionsResponsePartition()
                .setPartitionIndex(index)
                .setErrorCode(Errors.NONE.code())
                .setLeaderId(AdvertisedLeader.of(state, reachable::contains))
                .setLeaderEpoch(state.leaderEpoch())
                .setReplicaNodes(AdvertisedLeader.all(state.replicas()))
                .setIsrNodes(AdvertisedLeader.all(state.isr()))
                .setEligibleLeaderReplicas(List.of())
                .setLastKnownElr(List.of())
                .setOfflineReplicas(AdvertisedLeader.offlineReplicas(state, reachable::contains));
    }
}
