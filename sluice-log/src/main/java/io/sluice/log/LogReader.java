package io.sluice.log;

import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentChainSearch;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads a partition log without copying: batch regions of a segment file for fetches, and the timestamp searches of
 * ListOffsets.
 * Thread-safe and lock-free: each read works on one snapshot of the segment chain and the segments' volatile sizes,
 * with one batch scanner per reading thread.
 */
final class LogReader {
    private static final ThreadLocal<BatchScanner> READ_SCANNER = ThreadLocal.withInitial(BatchScanner::new);

    private final PartitionLogState state;

    LogReader(PartitionLogState state) {
        this.state = state;
    }

    /** See {@link PartitionLog#read(long, int, long, boolean)}. */
    LogReadResult read(long fetchOffset, int maxBytes, long maxOffsetExclusive, boolean minOneBatch) {
        long start = state.logStartOffset;
        long end = state.logEndOffset;
        LogSegment[] chain = state.segments;
        if (fetchOffset < start || fetchOffset > end) {
            throw new OffsetOutOfRangeException(state.name, fetchOffset, start, end);
        }
        long limit = Math.min(maxOffsetExclusive, end);
        if (fetchOffset >= limit) {
            return LogReadResult.empty(start, end);
        }
        if (fetchOffset < chain[0].baseOffset()) {
            // retention or DeleteRecords removed the segment between reading the log start and the segment chain
            throw new OffsetOutOfRangeException(state.name, fetchOffset, state.logStartOffset, state.logEndOffset);
        }
        BatchScanner scanner = READ_SCANNER.get();
        try {
            for (int i = SegmentChainSearch.floorSegment(chain, fetchOffset); i < chain.length; i++) {
                LogSegment.Region region = chain[i].read(fetchOffset, maxBytes, limit, minOneBatch, scanner);
                if (region != null) {
                    if (region.sizeInBytes() == 0) {
                        return LogReadResult.empty(start, end);
                    }
                    return new LogReadResult(
                            chain[i].channel(),
                            region.position(),
                            region.sizeInBytes(),
                            region.firstOffset(),
                            start,
                            end);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + state.name + " at offset " + fetchOffset, e);
        }
        return LogReadResult.empty(start, end);
    }

    /** See {@link PartitionLog#offsetForTimestamp}. */
    OffsetAndTimestamp offsetForTimestamp(long timestampMs) {
        return SegmentChainSearch.offsetForTimestamp(
                state.name, state.segments, state.logStartOffset, timestampMs, READ_SCANNER.get());
    }

    /** See {@link PartitionLog#offsetOfMaxTimestamp}. */
    OffsetAndTimestamp offsetOfMaxTimestamp() {
        return SegmentChainSearch.offsetOfMaxTimestamp(
                state.name, state.segments, state.logStartOffset, READ_SCANNER.get());
    }
}
