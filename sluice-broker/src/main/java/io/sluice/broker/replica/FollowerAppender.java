package io.sluice.broker.replica;

import static io.sluice.record.batch.RecordBatchDescriptor.RECORD_BATCH_OVERHEAD;

import io.sluice.broker.topic.Partition;
import io.sluice.log.PartitionLog;
import io.sluice.log.batch.BatchFraming;
import io.sluice.log.epoch.EpochEndOffset;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.BaseRecords;
import org.apache.kafka.common.record.MemoryRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one partition's part of a follower fetch answer to the local log: truncates where the leader says the
 * logs diverge (Fetch v12+ diverging epoch, KIP-320; the truncation point is the earlier of the two logs' ends of that
 * epoch, Kafka's rule, repeated fetch by fetch until the epochs agree), or appends the batches exactly as they came
 * (offsets and epochs are the leader's; each batch's CRC is checked first, nothing else is decoded), then follows the
 * leader's high watermark and log start offset.
 *
 * <p>Every write to the log happens inside the partition's follower-write fence, after re-checking that the broker
 * still follows in the fetch's leader epoch, so a role change never sees a stale fetch's batches land after it.
 *
 * <p>Thread-safe (stateless but for a per-thread batch view); called by fetcher threads.
 */
final class FollowerAppender {
    private static final Logger LOG = LoggerFactory.getLogger(FollowerAppender.class);
    private static final ThreadLocal<RecordBatchView> VIEW = ThreadLocal.withInitial(RecordBatchView::new);

    /** Runs after the fetched batches passed their checks, before the fence is taken: a test's seam. */
    private final Runnable afterBatchesChecked;

    FollowerAppender() {
        this(() -> {});
    }

    FollowerAppender(Runnable afterBatchesChecked) {
        this.afterBatchesChecked = afterBatchesChecked;
    }

    /** @return false when the partition failed and should back off before the next fetch */
    boolean apply(Partition partition, int leaderEpoch, FetchResponseData.PartitionData data) {
        if (partition.isLeader() || partition.assignment().leaderEpoch() != leaderEpoch) {
            return true;
        }
        Errors error = Errors.forCode(data.errorCode());
        try {
            switch (error) {
                case NONE -> {
                    boolean diverging = data.divergingEpoch().epoch() >= 0
                            || data.divergingEpoch().endOffset() >= 0;
                    // Checked before the fence: a role change need not wait for the CRCs of up to a fetch's bytes.
                    ByteBuffer batches = diverging ? null : wholeCheckedBatches(partition, data.records());
                    afterBatchesChecked.run();
                    long fence = partition.beginFollowerWrite(leaderEpoch);
                    if (fence == 0) {
                        return droppedAfterRoleChange(partition, leaderEpoch);
                    }
                    try {
                        if (diverging) {
                            truncateToDivergence(partition, data.divergingEpoch());
                            return true;
                        }
                        if (batches != null) {
                            startOverAtStraddlingBatch(partition, batches);
                            partition.log().appendAsFollower(batches);
                        }
                        followLogStart(partition.log(), data.logStartOffset());
                    } finally {
                        partition.endFollowerWrite(fence);
                    }
                    partition.followLeaderHighWatermark(data.highWatermark());
                    return true;
                }
                case OFFSET_OUT_OF_RANGE -> {
                    long fence = partition.beginFollowerWrite(leaderEpoch);
                    if (fence == 0) {
                        return droppedAfterRoleChange(partition, leaderEpoch);
                    }
                    try {
                        resetOutOfRange(partition, data);
                    } finally {
                        partition.endFollowerWrite(fence);
                    }
                    return true;
                }
                default -> {
                    LOG.info("fetching {} in leader epoch {} failed: {}", partition, leaderEpoch, error);
                    return false;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.error("applying the fetched data of {} failed", partition, e);
            return false;
        }
    }

    /**
     * The broker led the partition or followed it in another leader epoch before the answer could be applied: the
     * answer is dropped, and fetching goes on from the new role's state.
     */
    private static boolean droppedAfterRoleChange(Partition partition, int leaderEpoch) {
        LOG.info(
                "{}: role changed (leader {}, epoch {}) while applying a fetch answer of leader epoch {}; dropped",
                partition,
                partition.assignment().leader(),
                partition.assignment().leaderEpoch(),
                leaderEpoch);
        return true;
    }

    private static void truncateToDivergence(Partition partition, FetchResponseData.EpochEndOffset diverging)
            throws IOException {
        PartitionLog log = partition.log();
        long leaderEnd = diverging.endOffset();
        long target;
        if (diverging.epoch() < 0 || leaderEnd < 0) {
            target = Math.min(partition.highWatermark(), log.logEndOffset());
        } else {
            EpochEndOffset local = log.endOffsetForEpoch(diverging.epoch());
            target = local.endOffset() < 0
                    ? Math.min(partition.highWatermark(), log.logEndOffset())
                    : Math.min(local.endOffset(), leaderEnd);
        }
        LOG.info(
                "{}: leader's log diverges at epoch {} ending {}; truncating from {} to {}",
                partition,
                diverging.epoch(),
                leaderEnd,
                log.logEndOffset(),
                target);
        log.truncateTo(target);
        partition.capHighWatermarkAtLogEnd();
    }

    private static void resetOutOfRange(Partition partition, FetchResponseData.PartitionData data) throws IOException {
        PartitionLog log = partition.log();
        long leaderStart = data.logStartOffset();
        if (leaderStart >= 0 && log.logEndOffset() < leaderStart) {
            LOG.warn(
                    "{}: log end {} is below the leader's log start {}; starting the log over there",
                    partition,
                    log.logEndOffset(),
                    leaderStart);
            log.truncateFullyAndStartAt(leaderStart);
        } else if (data.highWatermark() >= 0 && data.highWatermark() < log.logEndOffset()) {
            LOG.warn(
                    "{}: log end {} is beyond the leader's; truncating to the leader's high watermark {}",
                    partition,
                    log.logEndOffset(),
                    data.highWatermark());
            log.truncateTo(data.highWatermark());
        }
        partition.capHighWatermarkAtLogEnd();
    }

    /** The whole batches at the start of {@code records}, each header and CRC checked; null when there are none. */
    private static ByteBuffer wholeCheckedBatches(Partition partition, BaseRecords records) {
        if (!(records instanceof MemoryRecords memory) || memory.sizeInBytes() == 0) {
            return null;
        }
        ByteBuffer batches = memory.buffer();
        int start = batches.position();
        int end = wholeBatchesEnd(partition, batches, start, batches.limit());
        if (end == start) {
            return null;
        }
        ByteBuffer whole = batches.duplicate();
        whole.position(start).limit(end);
        return whole;
    }

    /**
     * Kafka's Partition.appendRecordsToFollowerOrFutureReplica: DeleteRecords may put the leader's log start inside a
     * batch, so a follower that started its log over at that start is sent a batch beginning below it. While the log
     * is empty it starts over at the batch's base offset instead; the leader's log start, applied after the append,
     * raises it again.
     */
    private static void startOverAtStraddlingBatch(Partition partition, ByteBuffer batches) throws IOException {
        PartitionLog log = partition.log();
        long logEnd = log.logEndOffset();
        RecordBatchView first = VIEW.get().wrap(batches, batches.position());
        if (logEnd == log.logStartOffset() && first.baseOffset() < logEnd && first.lastOffset() >= logEnd) {
            LOG.info(
                    "{}: the first batch fetched starts at {}, below the empty log's start {}; starting the log "
                            + "there",
                    partition,
                    first.baseOffset(),
                    logEnd);
            log.truncateFullyAndStartAt(first.baseOffset());
        }
    }

    /** End of the last whole batch from {@code start}; checks each batch's header and CRC. */
    private static int wholeBatchesEnd(Partition partition, ByteBuffer buffer, int start, int limit) {
        RecordBatchView view = VIEW.get();
        int p = start;
        while (limit - p >= RECORD_BATCH_OVERHEAD) {
            view.wrap(buffer, p);
            if (view.sizeInBytes() > limit - p) {
                break;
            }
            String problem = BatchFraming.check(view, limit - p);
            if (problem != null) {
                throw new IllegalStateException(
                        "fetched batch of " + partition + " at offset " + view.baseOffset() + ": " + problem);
            }
            if (!view.isCrcValid()) {
                throw new IllegalStateException("fetched batch of " + partition + " at offset " + view.baseOffset()
                        + " fails its CRC-32C check");
            }
            p += view.sizeInBytes();
        }
        return p;
    }

    private static void followLogStart(PartitionLog log, long leaderLogStart) throws IOException {
        if (leaderLogStart > log.logStartOffset() && leaderLogStart <= log.logEndOffset()) {
            log.deleteRecordsBefore(leaderLogStart);
        }
    }
}
