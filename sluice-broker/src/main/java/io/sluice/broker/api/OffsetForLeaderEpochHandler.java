package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.log.epoch.EpochEndOffset;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetForLeaderEpoch (KIP-101, KIP-320): for each partition this broker leads, the largest leader epoch at most the
 * one asked for and the offset where it ended in this log (the log end for the current epoch), so a follower or a
 * consumer finds where its log diverges. The caller's current leader epoch is checked as Fetch checks it
 * (FENCED_LEADER_EPOCH when older, UNKNOWN_LEADER_EPOCH when newer).
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class OffsetForLeaderEpochHandler implements ApiHandler<OffsetForLeaderEpochRequestData> {
    private final TopicManager topics;

    public OffsetForLeaderEpochHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, OffsetForLeaderEpochRequestData request) {
        OffsetForLeaderEpochResponseData response = new OffsetForLeaderEpochResponseData();
        // as Kafka (KIP-320): brokers with ClusterAction, consumers with Describe on the topic
        boolean replica = context.authorizeCluster(AclOperation.CLUSTER_ACTION);
        for (OffsetForLeaderEpochRequestData.OffsetForLeaderTopic topic : request.topics()) {
            OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult result =
                    new OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult().setTopic(topic.topic());
            for (OffsetForLeaderEpochRequestData.OffsetForLeaderPartition asked : topic.partitions()) {
                result.partitions()
                        .add(
                                replica || context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.topic())
                                        ? answer(topic.topic(), asked)
                                        : new OffsetForLeaderEpochResponseData.EpochEndOffset()
                                                .setPartition(asked.partition())
                                                .setLeaderEpoch(EpochEndOffset.UNDEFINED_EPOCH)
                                                .setEndOffset(EpochEndOffset.UNDEFINED_OFFSET)
                                                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
            }
            response.topics().add(result);
        }
        return CompletableFuture.completedFuture(response);
    }

    private OffsetForLeaderEpochResponseData.EpochEndOffset answer(
            String topic, OffsetForLeaderEpochRequestData.OffsetForLeaderPartition asked) {
        OffsetForLeaderEpochResponseData.EpochEndOffset out = new OffsetForLeaderEpochResponseData.EpochEndOffset()
                .setPartition(asked.partition())
                .setLeaderEpoch(EpochEndOffset.UNDEFINED_EPOCH)
                .setEndOffset(EpochEndOffset.UNDEFINED_OFFSET);
        Partition partition = topics.partition(topic, asked.partition());
        if (partition == null) {
            return out.setErrorCode(topics.unservedError(topic, asked.partition(), asked.currentLeaderEpoch())
                    .code());
        }
        int current = partition.leaderEpoch();
        if (asked.currentLeaderEpoch() > current) {
            return out.setErrorCode(Errors.UNKNOWN_LEADER_EPOCH.code());
        }
        if (asked.currentLeaderEpoch() >= 0 && asked.currentLeaderEpoch() < current) {
            return out.setErrorCode(Errors.FENCED_LEADER_EPOCH.code());
        }
        EpochEndOffset end = partition.log().endOffsetForEpoch(asked.leaderEpoch());
        return out.setErrorCode(Errors.NONE.code()).setLeaderEpoch(end.epoch()).setEndOffset(end.endOffset());
    }
}
