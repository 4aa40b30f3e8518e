package io.sluice.log;

import io.sluice.log.segment.LogSegment;
import io.sluice.log.ship.SegmentPins;
import java.io.IOException;

/**
 * Which of a partition's oldest segments retention and DeleteRecords may delete, as Kafka decides it: never the
 * active segment, never one a partition move has pinned. Stateless; the caller passes a snapshot of the chain.
 */
final class RetentionRules {
    private RetentionRules() {}

    /**
     * How many of the oldest segments to delete: those below the log start offset, older than log.retention.ms (by
     * their newest batch timestamp) or beyond log.retention.bytes, stopping at the first one kept.
     */
    static int deletableByRetention(
            LogSegment[] chain, LogConfig config, SegmentPins pins, long logStartOffset, long nowMs)
            throws IOException {
        long total = 0;
        for (LogSegment segment : chain) {
            total += segment.size();
        }
        int deletable = 0;
        while (deletable < chain.length - 1) {
            LogSegment segment = chain[deletable];
            if (pins.holds(segment.nextOffset())) {
                break;
            }
            boolean belowStart = chain[deletable + 1].baseOffset() <= logStartOffset;
            boolean expired = config.retentionMs() >= 0 && nowMs - segment.largestTimestamp() > config.retentionMs();
            boolean oversized = config.retentionBytes() >= 0 && total - segment.size() >= config.retentionBytes();
            if (!(belowStart || expired || oversized)) {
                break;
            }
            total -= segment.size();
            deletable++;
        }
        return deletable;
    }

    /** How many of the oldest segments lie entirely below {@code logStartOffset} (DeleteRecords). */
    static int deletableBelowLogStart(LogSegment[] chain, long logStartOffset, SegmentPins pins) {
        int count = 0;
        while (count < chain.length - 1
                && chain[count + 1].baseOffset() <= logStartOffset
                && !pins.holds(chain[count].nextOffset())) {
            count++;
        }
        return count;
    }
}
