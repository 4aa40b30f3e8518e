package io.sluice.log.segment;

import io.sluice.log.segment.LogSegment.Region;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * The read path of a {@link LogSegment}: finding the batch that holds an offset through the sparse offset index, and
 * the region of whole batches a fetch returns. Each call reads the segment's volatile {@link LogSegment#size()} and
 * {@link LogSegment#nextOffset()} when the segment's own methods did before. Stateless; thread-safe (lock-free, like the
 * segment's reads; the scanner belongs to the calling thread).
 */
final class SegmentReads {
    private SegmentReads() {}

    /** See {@link LogSegment#findBatchPosition}. */
    static long findBatchPosition(LogSegment segment, long offset, BatchScanner scanner) throws IOException {
        int limit = segment.size();
        long position = segment.offsetIndex().lookup(offset);
        FileChannel channel = segment.channel();
        while (position < limit) {
            RecordBatchView batch = scanner.readHeader(channel, position, limit);
            if (batch == null) {
                return -1;
            }
            if (batch.lastOffset() >= offset) {
                return position;
            }
            position += batch.sizeInBytes();
        }
        return -1;
    }

    /** See {@link LogSegment#read}. */
    static Region read(
            LogSegment segment,
            long offset,
            int maxBytes,
            long maxOffsetExclusive,
            boolean minOneBatch,
            BatchScanner scanner)
            throws IOException {
        int limit = segment.size();
        long start = findBatchPosition(segment, offset, scanner);
        if (start < 0) {
            return null;
        }
        long end = maxOffsetExclusive >= segment.nextOffset()
                ? limit
                : endPositionBefore(segment, maxOffsetExclusive, limit, scanner);
        if (end <= start) {
            return new Region(start, 0, -1);
        }
        FileChannel channel = segment.channel();
        RecordBatchView first = scanner.readHeader(channel, start, end);
        if (first == null) {
            return new Region(start, 0, -1);
        }
        long firstOffset = first.baseOffset();
        int firstSize = first.sizeInBytes();
        if (firstSize > maxBytes) {
            return minOneBatch ? new Region(start, firstSize, firstOffset) : new Region(start, 0, -1);
        }
        long target = Math.min(end, start + (long) maxBytes);
        // jump to the last indexed batch boundary before the target, then walk at most about one index interval
        long position = Math.max(start + firstSize, segment.offsetIndex().floorPosition(target));
        while (position < target) {
            RecordBatchView batch = scanner.readHeader(channel, position, limit);
            if (batch == null || position + batch.sizeInBytes() > target) {
                break;
            }
            position += batch.sizeInBytes();
        }
        return new Region(start, (int) (position - start), firstOffset);
    }

    /** Position after the last batch that starts below {@code offsetExclusive} (the high watermark). */
    private static long endPositionBefore(LogSegment segment, long offsetExclusive, int limit, BatchScanner scanner)
            throws IOException {
        long position = findBatchPosition(segment, offsetExclusive, scanner);
        if (position < 0) {
            return limit;
        }
        RecordBatchView batch = scanner.readHeader(segment.channel(), position, limit);
        if (batch != null && batch.baseOffset() < offsetExclusive) {
            position += batch.sizeInBytes();
        }
        return position;
    }
}
