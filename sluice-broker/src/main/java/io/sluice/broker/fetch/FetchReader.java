package io.sluice.broker.fetch;

import io.sluice.broker.network.FileSliceRecords;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.log.LogReadResult;
import io.sluice.log.OffsetOutOfRangeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FetchResponseData.FetchableTopicResponse;
import org.apache.kafka.common.message.FetchResponseData.PartitionData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds one fetch response from the partitions' logs: positions and sizes of whole batches (no
 * record bytes are read), within the per-partition and per-response byte limits, never beyond the
 * high watermark. As in Kafka (KIP-74), only the first partition that returns records may exceed
 * those limits, by returning one whole batch larger than them, so a consumer or follower always
 * progresses; every later partition stays within min(partition_max_bytes, what is left of max_bytes).
 *
 * <p>Thread-safe: each {@link #read()} builds a fresh response.
 */
final class FetchReader {
    private static final Logger LOG = LoggerFactory.getLogger(FetchReader.class);
    private static final long NO_FETCHABLE_LIMIT = -1;

    /** A built response with the record bytes it carries and whether any partition failed. */
    record Result(FetchResponseData response, long bytes, boolean hasError) {
    }

    private final TopicManager topics;
    private final List<FetchTarget> targets;
    private final int responseMaxBytes;
    private final boolean readCommitted;

    FetchReader(TopicManager topics, List<FetchTarget> targets, int responseMaxBytes, byte isolationLevel) {
        this.topics = topics;
        this.targets = targets;
        this.responseMaxBytes = responseMaxBytes;
        this.readCommitted = isolationLevel == IsolationLevel.READ_COMMITTED.id();
    }

    Result read() {
        Map<String, FetchableTopicResponse> byTopic = new LinkedHashMap<>();
        long bytes = 0;
        boolean hasError = false;
        long remaining = responseMaxBytes;
        boolean minOneBatch = true;
        for (FetchTarget target : targets) {
            PartitionData data = new PartitionData()
                    .setPartitionIndex(target.partition())
                    .setHighWatermark(NO_FETCHABLE_LIMIT)
                    .setLastStableOffset(NO_FETCHABLE_LIMIT)
                    .setLogStartOffset(NO_FETCHABLE_LIMIT)
                    .setAbortedTransactions(readCommitted ? new ArrayList<>() : null)
                    .setPreferredReadReplica(-1)
                    .setRecords(MemoryRecords.EMPTY);
            Errors error = readPartition(target, data, remaining, minOneBatch);
            data.setErrorCode(error.code());
            if (error != Errors.NONE) {
                hasError = true;
            } else {
                int size = data.records().sizeInBytes();
                bytes += size;
                remaining -= size;
                if (size > 0) {
                    minOneBatch = false;
                }
            }
            String key = target.topic() + '/' + target.topicId();
            byTopic.computeIfAbsent(key, k -> new FetchableTopicResponse().setTopic(target.topic())
                    .setTopicId(target.topicId() == null ? Uuid.ZERO_UUID : target.topicId())).partitions().add(data);
        }
        FetchResponseData response = new FetchResponseData()
                .setErrorCode(Errors.NONE.code())
                .setSessionId(0)
                .setResponses(new ArrayList<>(byTopic.values()));
        return new Result(response, bytes, hasError);
    }

    private Errors readPartition(FetchTarget target, PartitionData data, long remaining, boolean minOneBatch) {
        if (target.topicError() != Errors.NONE) {
            return target.topicError();
        }
        Partition partition = topics.partition(target.topic(), target.partition());
        if (partition == null) {
            return topics.unservedError(target.topic(), target.partition());
        }
        if (target.currentLeaderEpoch() > partition.leaderEpoch()) {
            return Errors.UNKNOWN_LEADER_EPOCH;
        }
        if (target.currentLeaderEpoch() >= 0 && target.currentLeaderEpoch() < partition.leaderEpoch()) {
            return Errors.FENCED_LEADER_EPOCH;
        }
        long highWatermark = partition.highWatermark();
        data.setHighWatermark(highWatermark).setLastStableOffset(highWatermark);
        try {
            int limit = (int) Math.max(0, Math.min(target.partitionMaxBytes(), remaining));
            data.setLogStartOffset(partition.log().logStartOffset());
            if (limit == 0 && !minOneBatch && target.fetchOffset() >= partition.log().logStartOffset() && target.fetchOffset() <= partition.log().logEndOffset()) {
                return Errors.NONE;
            }
            LogReadResult read = partition.log().read(target.fetchOffset(), limit, highWatermark, minOneBatch);
            data.setLogStartOffset(read.logStartOffset());
            if (!read.isEmpty()) {
                data.setRecords(new FileSliceRecords(read.channel(), read.position(), read.sizeInBytes()));
            }
            return Errors.NONE;
        } catch (OffsetOutOfRangeException e) {
            return Errors.OFFSET_OUT_OF_RANGE;
        } catch (RuntimeException e) {
            if (topics.partition(target.topic(), target.partition()) != partition) {
                return Errors.UNKNOWN_TOPIC_OR_PARTITION;
            }
            LOG.error("Reading {} at offset {} failed", partition, target.fetchOffset(), e);
            return Errors.KAFKA_STORAGE_ERROR;
        }
    }
}
