package io.sluice.broker.fetch;

import io.sluice.broker.network.FileSliceRecords;
import io.sluice.broker.replica.LeaderState;
import io.sluice.broker.replica.ReplicaManager;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.log.LogReadResult;
import io.sluice.log.OffsetOutOfRangeException;
import io.sluice.log.epoch.EpochEndOffset;
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
 * record bytes are read), within the per-partition and per-response byte limits, for consumers
 * never beyond the high watermark, for followers up to the log end (after recording how far the
 * follower got, which may move the high watermark it is told). As in Kafka (KIP-74), only the first
 * partition that returns records may exceed those limits, by returning one whole batch larger than
 * them, so a consumer or follower always progresses; every later partition stays within
 * min(partition_max_bytes, what is left of max_bytes).
 *
 * <p>Thread-safe: each {@link #read(boolean)} builds a fresh response.
 */
final class FetchReader {
    private static final Logger LOG = LoggerFactory.getLogger(FetchReader.class);
    private static final long NO_FETCHABLE_LIMIT = -1;

    /** A built response with the record bytes it carries and whether any partition failed. */
    record Result(FetchResponseData response, long bytes, boolean hasError) {}

    private final TopicManager topics;
    private final ReplicaManager replicas;
    private final List<FetchTarget> targets;
    private final int responseMaxBytes;
    private final boolean readCommitted;
    private final int replicaId;

    /** @param replicaId the fetching follower's broker id, -1 for a consumer */
    FetchReader(
            TopicManager topics,
            ReplicaManager replicas,
            List<FetchTarget> targets,
            int responseMaxBytes,
            byte isolationLevel,
            int replicaId) {
        this.topics = topics;
        this.replicas = replicas;
        this.targets = targets;
        this.responseMaxBytes = responseMaxBytes;
        this.readCommitted = isolationLevel == IsolationLevel.READ_COMMITTED.id();
        this.replicaId = replicaId;
    }

    /**
     * Builds the response from the logs as they are now.
     *
     * @param arrival true for the read made when the request arrives: a follower's fetch offset is then recorded as
     *                its progress (later re-reads of a parked fetch say nothing new about the follower)
     */
    Result read(boolean arrival) {
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
            Errors error = readPartition(target, data, remaining, minOneBatch, arrival);
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
            byTopic.computeIfAbsent(
                            key,
                            k -> new FetchableTopicResponse()
                                    .setTopic(target.topic())
                                    .setTopicId(target.topicId() == null ? Uuid.ZERO_UUID : target.topicId()))
                    .partitions()
                    .add(data);
        }
        FetchResponseData response = new FetchResponseData()
                .setErrorCode(Errors.NONE.code())
                .setSessionId(0)
                .setResponses(new ArrayList<>(byTopic.values()));
        return new Result(response, bytes, hasError);
    }

    /**
     * KIP-320, as Kafka's Partition.readRecords: the fetcher's log diverges from this leader's at the epoch of its last
     * batch when this log's latest epoch at most that one ends before the fetch offset, or is an older epoch; the
     * answer then carries that epoch and its end offset and no records, and the fetcher truncates there. An epoch this
     * log cannot place (newer than its latest) or a fetch offset below the log start is OFFSET_OUT_OF_RANGE.
     *
     * @return NONE with {@code data} unchanged when the logs agree, NONE with the diverging epoch set, or the error
     */
    private static Errors checkDivergence(Partition partition, FetchTarget target, PartitionData data) {
        EpochEndOffset end = partition.log().endOffsetForEpoch(target.lastFetchedEpoch());
        if (end.endOffset() == EpochEndOffset.UNDEFINED_OFFSET
                || end.epoch() == EpochEndOffset.UNDEFINED_EPOCH
                || target.fetchOffset() < partition.log().logStartOffset()) {
            return Errors.OFFSET_OUT_OF_RANGE;
        }
        if (end.epoch() < target.lastFetchedEpoch() || end.endOffset() < target.fetchOffset()) {
            data.divergingEpoch().setEpoch(end.epoch()).setEndOffset(end.endOffset());
        }
        return Errors.NONE;
    }

    private Errors readPartition(
            FetchTarget target, PartitionData data, long remaining, boolean minOneBatch, boolean arrival) {
        if (target.topicError() != Errors.NONE) {
            return target.topicError();
        }
        Partition partition = topics.partition(target.topic(), target.partition());
        if (partition == null) {
            return topics.unservedError(target.topic(), target.partition(), target.currentLeaderEpoch());
        }
        if (target.currentLeaderEpoch() > partition.leaderEpoch()) {
            return Errors.UNKNOWN_LEADER_EPOCH;
        }
        if (target.currentLeaderEpoch() >= 0 && target.currentLeaderEpoch() < partition.leaderEpoch()) {
            return Errors.FENCED_LEADER_EPOCH;
        }
        boolean follower = replicaId >= 0;
        // read once: leadership may end between two reads
        LeaderState leading = follower ? partition.leaderState() : null;
        if (follower && leading == null) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        if (follower && !leading.isFollower(replicaId)) {
            // Kafka: with a current leader epoch that matches, (replica id, epoch) is not recognized yet.
            return target.currentLeaderEpoch() >= 0 ? Errors.UNKNOWN_LEADER_EPOCH : Errors.NOT_LEADER_OR_FOLLOWER;
        }
        try {
            data.setLogStartOffset(partition.log().logStartOffset());
            if (target.lastFetchedEpoch() >= 0) {
                Errors divergence = checkDivergence(partition, target, data);
                if (divergence != Errors.NONE) {
                    return divergence;
                }
                if (data.divergingEpoch().endOffset() >= 0) {
                    // A diverging follower's fetch offset says nothing about what it holds in this leader's log.
                    long highWatermark = partition.highWatermark();
                    data.setHighWatermark(highWatermark).setLastStableOffset(highWatermark);
                    return Errors.NONE;
                }
            }
            long logEnd = partition.log().logEndOffset();
            if (follower
                    && arrival
                    && target.fetchOffset() >= partition.log().logStartOffset()
                    && target.fetchOffset() <= logEnd) {
                replicas.onFollowerFetch(partition, replicaId, target.fetchOffset(), target.logStartOffset(), logEnd);
            }
            long highWatermark = partition.highWatermark();
            data.setHighWatermark(highWatermark).setLastStableOffset(highWatermark);
            int limit = (int) Math.max(0, Math.min(target.partitionMaxBytes(), remaining));
            if (limit == 0
                    && !minOneBatch
                    && target.fetchOffset() >= partition.log().logStartOffset()
                    && target.fetchOffset() <= partition.log().logEndOffset()) {
                return Errors.NONE;
            }
            if (follower && replicas.throttling().holdsLeaderAnswer(partition, replicaId)) {
                return Errors.NONE;
            }
            long readLimit = follower ? logEnd : highWatermark;
            LogReadResult read = partition.log().read(target.fetchOffset(), limit, readLimit, minOneBatch);
            if (follower) {
                replicas.throttling().leaderSent(partition, replicaId, read.sizeInBytes());
            }
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
