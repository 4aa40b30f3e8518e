package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

import io.sluice.log.index.CorruptIndexException;
import io.sluice.log.index.OffsetIndex;
import io.sluice.log.index.TimeIndex;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Derives what a {@link LogSegment} knows about its {@code .log} file by walking the batch headers in it: the valid
 * prefix a full recovery keeps, the state a trusted load takes from the index files plus the batches after their last
 * entry, and the max timestamp left after a truncation. Nothing here changes a segment; the segment applies the result.
 * Stateless; thread-safe (each call works only on what it is handed; callers hold the segment's append lock or have not
 * shared the segment yet).
 */
final class SegmentRebuild {
    private SegmentRebuild() {}

    /** Receives each batch a recovery scan accepts, in file order, to index it. */
    @FunctionalInterface
    interface AcceptedBatchSink {
        void accepted(RecordBatchView batch, int position);
    }

    /**
     * Where a recovery scan stopped: the bytes of whole valid batches, the offset after the last of them (the segment
     * base when there is none), and why the scan stopped before the end of the file (null when it did not).
     */
    record ValidPrefix(long validBytes, long nextOffset, String problem) {}

    /**
     * Scans every batch from the start of the file (checking its CRC-32C when asked), handing each accepted one to
     * {@code sink}, and stops at the first batch that is torn, insane, out of order or corrupt.
     */
    static ValidPrefix scanValidPrefix(
            FileChannel channel, long baseOffset, BatchScanner scanner, boolean verifyCrc, AcceptedBatchSink sink)
            throws IOException {
        long fileSize = channel.size();
        if (fileSize > Integer.MAX_VALUE) {
            fileSize = Integer.MAX_VALUE;
        }
        long expectedAtLeast = baseOffset;
        long position = 0;
        String problem = null;
        while (position < fileSize) {
            RecordBatchView batch = scanner.readHeader(channel, position, fileSize);
            if (batch == null) {
                problem = scanner.problem();
                break;
            }
            if (batch.baseOffset() < expectedAtLeast) {
                problem = "baseOffset " + batch.baseOffset() + " is below the expected " + expectedAtLeast;
                break;
            }
            if (batch.lastOffset() - baseOffset > Integer.MAX_VALUE) {
                problem = "lastOffset " + batch.lastOffset() + " is too far above the segment base " + baseOffset;
                break;
            }
            if (verifyCrc && !scanner.isCrcValid(channel, position)) {
                problem = "CRC-32C mismatch in batch at baseOffset " + batch.baseOffset();
                break;
            }
            sink.accepted(batch, (int) position);
            expectedAtLeast = batch.lastOffset() + 1;
            position += batch.sizeInBytes();
        }
        return new ValidPrefix(position, position == 0 ? baseOffset : expectedAtLeast, problem);
    }

    /**
     * What a trusted load found: either a {@code problem} (then the other components are unset and the segment must be
     * recovered) or the state the segment takes.
     */
    record TrustedLoad(
            String problem,
            OffsetIndex offsetIndex,
            TimeIndex timeIndex,
            int size,
            long nextOffset,
            long maxTimestamp,
            long offsetOfMaxTimestamp,
            long firstBatchTimestamp,
            int bytesSinceLastIndexEntry) {

        static TrustedLoad failed(String problem) {
            return new TrustedLoad(problem, null, null, 0, 0, NO_TIMESTAMP, -1, NO_TIMESTAMP, 0);
        }
    }

    /**
     * Loads the index files of a segment below the recovery point and sanity-checks them; the batches after the last
     * offset index entry are walked (headers only) to find the end.
     */
    static TrustedLoad loadTrusted(
            FileChannel channel, Path dir, long baseOffset, int maxIndexSizeBytes, BatchScanner scanner)
            throws IOException {
        long fileSize = channel.size();
        if (fileSize > Integer.MAX_VALUE) {
            return TrustedLoad.failed("file size " + fileSize + " exceeds " + Integer.MAX_VALUE);
        }
        Path indexPath = SegmentFileNames.indexFile(dir, baseOffset);
        Path timeIndexPath = SegmentFileNames.timeIndexFile(dir, baseOffset);
        OffsetIndex offsetIndex;
        try {
            offsetIndex = OffsetIndex.load(indexPath, baseOffset, maxIndexSizeBytes, fileSize);
        } catch (CorruptIndexException e) {
            return TrustedLoad.failed("offset index " + e.getMessage());
        }
        long position = offsetIndex.lastPosition();
        long expectedAtLeast = baseOffset;
        long tailMaxTimestamp = NO_TIMESTAMP;
        long tailOffsetOfMax = -1;
        boolean first = true;
        while (position < fileSize) {
            RecordBatchView batch = scanner.readHeader(channel, position, fileSize);
            if (batch == null) {
                return TrustedLoad.failed("batch at position " + position + ": " + scanner.problem());
            }
            if (first && offsetIndex.entryCount() > 0 && batch.lastOffset() != offsetIndex.lastOffset()) {
                return TrustedLoad.failed("offset index entry for offset " + offsetIndex.lastOffset()
                        + " points at a batch ending at " + batch.lastOffset());
            }
            if (batch.baseOffset() < expectedAtLeast) {
                return TrustedLoad.failed(
                        "baseOffset " + batch.baseOffset() + " is below the expected " + expectedAtLeast);
            }
            first = false;
            if (batch.maxTimestamp() > tailMaxTimestamp) {
                tailMaxTimestamp = batch.maxTimestamp();
                tailOffsetOfMax = batch.lastOffset();
            }
            expectedAtLeast = batch.lastOffset() + 1;
            position += batch.sizeInBytes();
        }
        if (first && offsetIndex.entryCount() > 0) {
            return TrustedLoad.failed(
                    "offset index points at position " + offsetIndex.lastPosition() + " at the end of the file");
        }
        long nextOffset = fileSize == 0 ? baseOffset : expectedAtLeast;
        int size = (int) fileSize;
        TimeIndex timeIndex;
        try {
            timeIndex =
                    TimeIndex.load(timeIndexPath, baseOffset, maxIndexSizeBytes, Math.max(nextOffset, baseOffset + 1));
        } catch (CorruptIndexException e) {
            return TrustedLoad.failed("time index " + e.getMessage());
        }
        if (fileSize > 0 && timeIndex.entryCount() == 0 && offsetIndex.entryCount() > 0) {
            return TrustedLoad.failed(
                    "time index is empty while the offset index has " + offsetIndex.entryCount() + " entries");
        }
        long maxTimestamp = timeIndex.lastTimestamp();
        long offsetOfMaxTimestamp = timeIndex.lastEntryOffset();
        if (tailMaxTimestamp > maxTimestamp) {
            maxTimestamp = tailMaxTimestamp;
            offsetOfMaxTimestamp = tailOffsetOfMax;
        }
        RecordBatchView firstBatch = scanner.readHeader(channel, 0, size);
        long firstBatchTimestamp = firstBatch == null ? NO_TIMESTAMP : firstBatch.maxTimestamp();
        return new TrustedLoad(
                null,
                offsetIndex,
                timeIndex,
                size,
                nextOffset,
                maxTimestamp,
                offsetOfMaxTimestamp,
                firstBatchTimestamp,
                (int) (fileSize - offsetIndex.lastPosition()));
    }

    /** A segment's largest batch timestamp and the last offset of the batch that carries it. */
    record MaxTimestamp(long timestamp, long offset) {}

    /**
     * The max timestamp of the batches below {@code limit}: the time index's last entry, raised by any batch after the
     * offset index's last entry (the indexes must already be truncated to {@code limit}).
     */
    static MaxTimestamp maxTimestamp(
            FileChannel channel, OffsetIndex offsetIndex, TimeIndex timeIndex, int limit, BatchScanner scanner)
            throws IOException {
        long max = timeIndex.lastTimestamp();
        long offsetOfMax = timeIndex.lastEntryOffset();
        long position = offsetIndex.lastPosition();
        while (position < limit) {
            RecordBatchView batch = scanner.readHeader(channel, position, limit);
            if (batch == null) {
                break;
            }
            if (batch.maxTimestamp() > max) {
                max = batch.maxTimestamp();
                offsetOfMax = batch.lastOffset();
            }
            position += batch.sizeInBytes();
        }
        return new MaxTimestamp(max, offsetOfMax);
    }
}
