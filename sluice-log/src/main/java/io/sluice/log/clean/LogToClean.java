package io.sluice.log.clean;

import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.TopicPartitionKey;
import io.sluice.log.segment.LogSegment;
import java.io.IOException;

/**
 * One compacted log as the cleaner weighs it, computed as Kafka's LogCleanerManager does: the dirty section runs from
 * the checkpointed offset (the log start when the checkpoint is missing or out of the log's range) to the first
 * uncleanable offset (the smallest of the stable offset, the active segment's base and the first segment younger than
 * min.compaction.lag.ms; in Sluice also the first segment a partition move has pinned, which a clean could not swap
 * out: a log moving whole would otherwise stay the dirtiest, be cleaned and its swap refused at every pass, and keep
 * the cleaner from every other log until the move ended); its share of the log's bytes is the dirty ratio; a dirty segment older than
 * max.compaction.lag.ms makes the log due whatever its ratio. Immutable; computed from one view of the segment chain.
 *
 * @param checkpointReset   true when the checkpoint was missing or out of range and the log start was used
 * @param compactionDelayMs how long past max.compaction.lag.ms its oldest dirty segment is (Kafka's
 *                          maxCompactionDelay; 0 when not overdue)
 */
public record LogToClean(
        TopicPartitionKey key,
        PartitionLog log,
        LogSegment[] chain,
        long firstDirtyOffset,
        long firstUncleanableOffset,
        long cleanBytes,
        long cleanableBytes,
        boolean needCompactionNow,
        boolean checkpointReset,
        long compactionDelayMs) {

    /**
     * @param checkpoint   the checkpointed first dirty offset, or null
     * @param stableOffset the offset cleaning must stay below (the high watermark), Long.MAX_VALUE when unknown
     */
    public static LogToClean of(TopicPartitionKey key, PartitionLog log, Long checkpoint, long stableOffset, long nowMs)
            throws IOException {
        LogSegment[] chain = log.segmentChain();
        long logStart = log.logStartOffset();
        long logEnd = log.logEndOffset();
        boolean reset = checkpoint == null || checkpoint < logStart || checkpoint > logEnd;
        long firstDirty = reset ? logStart : checkpoint;
        LogConfig config = log.config();
        LogSegment active = chain[chain.length - 1];
        long uncleanable = Math.min(stableOffset, active.baseOffset());
        long minLag = Math.max(config.minCompactionLagMs(), 0L);
        long earliestDirtyTimestamp = Long.MAX_VALUE;
        for (int i = 0; i < chain.length - 1; i++) {
            LogSegment segment = chain[i];
            if (chain[i + 1].baseOffset() <= firstDirty) {
                continue;
            }
            if (minLag > 0 && segment.baseOffset() < uncleanable && segment.largestTimestamp() > nowMs - minLag) {
                uncleanable = Math.min(uncleanable, segment.baseOffset());
            }
            if (segment.firstBatchTimestamp() > 0) {
                earliestDirtyTimestamp = Math.min(earliestDirtyTimestamp, segment.firstBatchTimestamp());
            }
        }
        long pinnedFrom = log.lowestPinnedOffset();
        for (int i = 0; i < chain.length - 1 && pinnedFrom != Long.MAX_VALUE; i++) {
            if (chain[i].nextOffset() > pinnedFrom) {
                uncleanable = Math.min(uncleanable, chain[i].baseOffset());
                break;
            }
        }
        uncleanable = Math.max(firstDirty, uncleanable);
        long cleanUntil = nowMs - Math.max(config.maxCompactionLagMs(), 0L);
        boolean due = earliestDirtyTimestamp < cleanUntil;
        return new LogToClean(
                key,
                log,
                chain,
                firstDirty,
                uncleanable,
                bytesIn(chain, logEnd, logStart, firstDirty),
                bytesIn(chain, logEnd, firstDirty, uncleanable),
                due,
                reset,
                due ? cleanUntil - earliestDirtyTimestamp : 0);
    }

    /** Bytes of the segments overlapping [from, to). */
    private static long bytesIn(LogSegment[] chain, long logEnd, long from, long to) {
        long total = 0;
        for (int i = 0; i < chain.length; i++) {
            long end = i + 1 < chain.length ? chain[i + 1].baseOffset() : logEnd;
            if (chain[i].baseOffset() < to && end > from) {
                total += chain[i].size();
            }
        }
        return total;
    }

    public long totalBytes() {
        return cleanBytes + cleanableBytes;
    }

    /** Dirty bytes over all bytes of the cleanable part of the log (0 for an empty log). */
    public double cleanableRatio() {
        return totalBytes() == 0 ? 0 : (double) cleanableBytes / totalBytes();
    }

    /** Kafka's rule: due by max.compaction.lag.ms with something to clean, or dirtier than min.cleanable.dirty.ratio. */
    public boolean shouldClean() {
        return (needCompactionNow && cleanableBytes > 0)
                || cleanableRatio() > log.config().minCleanableDirtyRatio();
    }
}
