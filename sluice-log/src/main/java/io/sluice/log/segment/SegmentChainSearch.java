package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

import io.sluice.log.OffsetAndTimestamp;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Timestamp searches over a partition's segment chain (ListOffsets), on an immutable snapshot of the chain and the
 * log start offset. Stateless; thread-safe (the caller passes its own scanner).
 */
public final class SegmentChainSearch {
    private SegmentChainSearch() {}

    /**
     * The first record at or after {@code start} whose timestamp is at least {@code timestampMs} (records of the
     * batch are walked, decompressing when needed), with its timestamp and its batch's leader epoch; null when no
     * record is that recent.
     */
    public static OffsetAndTimestamp offsetForTimestamp(
            String name, LogSegment[] chain, long start, long timestampMs, BatchScanner scanner) {
        try {
            for (LogSegment segment : chain) {
                if (segment.nextOffset() <= start) {
                    continue;
                }
                OffsetAndTimestamp found = segment.findByTimestamp(timestampMs, start, scanner);
                if (found != null) {
                    return found;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("searching " + name + " for timestamp " + timestampMs, e);
        }
        return null;
    }

    /** The first record carrying the largest timestamp at or after {@code start}; null when none is timestamped. */
    public static OffsetAndTimestamp offsetOfMaxTimestamp(
            String name, LogSegment[] chain, long start, BatchScanner scanner) {
        long max = NO_TIMESTAMP;
        long offset = -1;
        for (LogSegment segment : chain) {
            if (segment.maxTimestamp() > max && segment.nextOffset() > start) {
                max = segment.maxTimestamp();
                offset = segment.offsetOfMaxTimestamp();
            }
        }
        if (max == NO_TIMESTAMP) {
            return null;
        }
        OffsetAndTimestamp exact = offsetForTimestamp(name, chain, start, max, scanner);
        return exact != null ? exact : new OffsetAndTimestamp(Math.max(offset, start), max);
    }
}
