package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_GZIP;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_LZ4;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_NONE;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_SNAPPY;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_ZSTD;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;

import io.sluice.log.OffsetAndTimestamp;
import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.batch.RecordCursor;
import io.sluice.record.compress.GzipPayloadDecompressor;
import io.sluice.record.compress.Lz4PayloadDecompressor;
import io.sluice.record.compress.PayloadDecompressor;
import io.sluice.record.compress.SnappyPayloadDecompressor;
import io.sluice.record.compress.ZstdPayloadDecompressor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Finds, inside one stored batch, the first record whose timestamp reaches a target, as Kafka's ListOffsets
 * does: records are walked (decompressed when needed) for their timestamp and offset deltas only. Only
 * ListOffsets by timestamp comes here, so the batch is read into the heap once per call.
 * Stateless; thread-safe.
 */
final class RecordTimestampSearch {
    /** Decompressed bytes allowed per compressed byte before the batch is treated as a bomb. */
    private static final int MAX_DECOMPRESSION_RATIO = 256;

    private static final int WINDOW_BYTES = 64 * 1024;

    private RecordTimestampSearch() {}

    /**
     * @return the first record at or after {@code startingOffset} with timestamp at least {@code target}, null
     *         when no record of the batch qualifies; when the records cannot be walked (or all carry the batch's
     *         LogAppendTime), the batch's first offset at or after {@code startingOffset} and its max timestamp
     */
    static OffsetAndTimestamp find(FileChannel channel, long position, int size, long target, long startingOffset)
            throws IOException {
        ByteBuffer batch = ByteBuffer.allocate(size);
        while (batch.hasRemaining()) {
            if (channel.read(batch, position + batch.position()) < 0) {
                throw new IOException("segment ended inside a batch at position " + position);
            }
        }
        RecordBatchView view = new RecordBatchView().wrap(batch, 0);
        long base = view.baseOffset();
        int epoch = view.partitionLeaderEpoch();
        OffsetAndTimestamp whole = new OffsetAndTimestamp(Math.max(base, startingOffset), view.maxTimestamp(), epoch);
        if (view.isLogAppendTime() || view.isControl()) {
            return whole;
        }
        PayloadDecompressor decompressor = decompressor(view.compressionId());
        RecordCursor cursor = new RecordCursor();
        try {
            if (decompressor == null) {
                cursor.over(batch, RECORDS_OFFSET, size);
            } else {
                decompressor.begin(batch, RECORDS_OFFSET, size);
                cursor.streaming(
                        ByteBuffer.allocateDirect(WINDOW_BYTES), decompressor, (long) size * MAX_DECOMPRESSION_RATIO);
            }
            long baseTimestamp = view.baseTimestamp();
            int count = view.recordCount();
            for (int i = 0; i < count; i++) {
                cursor.next();
                long timestamp = baseTimestamp + cursor.timestampDelta();
                long offset = base + cursor.offsetDelta();
                if (timestamp >= target && offset >= startingOffset) {
                    return new OffsetAndTimestamp(offset, timestamp, epoch);
                }
            }
            return null;
        } catch (BatchFormatException e) {
            return whole;
        } finally {
            if (decompressor != null) {
                decompressor.close();
            }
        }
    }

    private static PayloadDecompressor decompressor(int codec) {
        return switch (codec) {
            case COMPRESSION_NONE -> null;
            case COMPRESSION_GZIP -> new GzipPayloadDecompressor();
            case COMPRESSION_SNAPPY -> new SnappyPayloadDecompressor();
            case COMPRESSION_LZ4 -> new Lz4PayloadDecompressor();
            case COMPRESSION_ZSTD -> new ZstdPayloadDecompressor();
            default -> null;
        };
    }
}
