package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.log.OffsetAndTimestamp;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsTopic;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.ListOffsetsResponseData.ListOffsetsPartitionResponse;
import org.apache.kafka.common.message.ListOffsetsResponseData.ListOffsetsTopicResponse;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ListOffsets: earliest, latest, max timestamp, or the first offset at or after a timestamp, for
 * each requested partition (v1+ form: one offset per partition).
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class ListOffsetsHandler implements ApiHandler<ListOffsetsRequestData> {
    private static final long UNKNOWN = -1L;
    private static final short FIRST_VERSION_WITH_LEADER_EPOCH = 4;
    private final TopicManager topics;

    public ListOffsetsHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, ListOffsetsRequestData request) {
        ListOffsetsResponseData response = new ListOffsetsResponseData();
        for (ListOffsetsTopic topic : request.topics()) {
            ListOffsetsTopicResponse topicResponse = new ListOffsetsTopicResponse().setName(topic.name());
            for (ListOffsetsPartition requested : topic.partitions()) {
                topicResponse
                        .partitions()
                        .add(
                                context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.name())
                                        ? lookup(topic.name(), requested, context.apiVersion())
                                        : new ListOffsetsPartitionResponse()
                                                .setPartitionIndex(requested.partitionIndex())
                                                .setOffset(UNKNOWN)
                                                .setTimestamp(UNKNOWN)
                                                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
            }
            response.topics().add(topicResponse);
        }
        return CompletableFuture.completedFuture(response);
    }

    private ListOffsetsPartitionResponse lookup(String topic, ListOffsetsPartition requested, short version) {
        ListOffsetsPartitionResponse result = new ListOffsetsPartitionResponse()
                .setPartitionIndex(requested.partitionIndex())
                .setOffset(UNKNOWN)
                .setTimestamp(UNKNOWN);
        Partition partition = topics.partition(topic, requested.partitionIndex());
        if (partition == null) {
            return result.setErrorCode(
                    topics.unservedError(topic, requested.partitionIndex(), requested.currentLeaderEpoch())
                            .code());
        }
        if (requested.currentLeaderEpoch() > partition.leaderEpoch()) {
            return result.setErrorCode(Errors.UNKNOWN_LEADER_EPOCH.code());
        }
        if (requested.currentLeaderEpoch() >= 0 && requested.currentLeaderEpoch() < partition.leaderEpoch()) {
            return result.setErrorCode(Errors.FENCED_LEADER_EPOCH.code());
        }
        result.setErrorCode(Errors.NONE.code());
        if (version >= FIRST_VERSION_WITH_LEADER_EPOCH) {
            result.setLeaderEpoch(partition.leaderEpoch());
        }
        long timestamp = requested.timestamp();
        if (timestamp == ListOffsetsRequest.EARLIEST_TIMESTAMP
                || timestamp == ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP) {
            return result.setOffset(partition.log().logStartOffset());
        }
        if (timestamp == ListOffsetsRequest.LATEST_TIMESTAMP) {
            return result.setOffset(partition.highWatermark());
        }
        if (timestamp == ListOffsetsRequest.MAX_TIMESTAMP) {
            OffsetAndTimestamp max = partition.log().offsetOfMaxTimestamp();
            return max == null ? result : result.setOffset(max.offset()).setTimestamp(max.timestamp());
        }
        if (timestamp < 0) {
            return result.setErrorCode(Errors.INVALID_REQUEST.code());
        }
        OffsetAndTimestamp found = partition.log().offsetForTimestamp(timestamp);
        if (found == null || found.offset() >= partition.highWatermark()) {
            return result;
        }
        return result.setOffset(found.offset()).setTimestamp(found.timestamp());
    }
}
