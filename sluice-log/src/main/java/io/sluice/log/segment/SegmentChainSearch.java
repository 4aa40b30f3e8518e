package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

import io.sluice.log.OffsetAndTimestamp;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Searches over a partition's segment chain (the segment holding an offset; ListOffsets by timestamp), on an
 * immutable snapshot of the chain and the log start offset. Stateless; thread-safe (the caller passes its own scanner).
 */
public final class SegmentChainSearch {
    private SegmentChainSearch() {}

    /** Index of the last segment of {@code chain} whose base offset is at most {@code offset}; 0 when none is. */
    public static int floorSegment(LogSegment[] chain, long offset) {
        int lo = 0;
        int hi = chain.length - 1;
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (chain[mid].baseOffset() <= offset) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

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
                OffsetAndTimestamp found = findInSegment(segment, timestampMs, start, scanner);
                if (found != null) {
                    return found;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("searching " + name + " for timestamp " + timestampMs, e);
        }
        return null;
    }

    /**
     * ListOffsets by timestamp within this segment: the first record at or after {@code startingOffset} whose
     * timestamp is at least {@code timestamp}, or null when no batch here reaches it.
     */
    private static OffsetAndTimestamp findInSegment(
            LogSegment segment, long timestamp, long startingOffset, BatchScanner scanner) throws IOException {
        if (segment.maxTimestamp() < timestamp) {
            return null;
        }
        int limit = segment.size();
        long position =
                segment.offsetIndex().lookup(Math.max(segment.timeIndex().lookup(timestamp), startingOffset));
        while (position < limit) {
            RecordBatchView batch = scanner.readHeader(segment.channel(), position, limit);
            if (batch == null) {
                return null;
            }
            int batchSize = batch.sizeInBytes();
            if (batch.maxTimestamp() >= timestamp && batch.lastOffset() >= startingOffset) {
                OffsetAndTimestamp found =
                        RecordTimestampSearch.find(segment.channel(), position, batchSize, timestamp, startingOffset);
                if (found != null) {
                    return found;
                }
            }
            position += batchSize;
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
