package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BATCH_LENGTH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_CODEC_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_GZIP;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_LZ4;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_NONE;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_SNAPPY;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_ZSTD;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.TIMESTAMP_TYPE_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.TRANSACTIONAL_FLAG_MASK;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.compress.GzipPayloadCompressor;
import io.sluice.record.compress.Lz4PayloadCompressor;
import io.sluice.record.compress.PayloadCompressor;
import io.sluice.record.compress.PayloadDecompressor;
import io.sluice.record.compress.SnappyPayloadCompressor;
import io.sluice.record.compress.ZstdPayloadCompressor;
import java.nio.ByteBuffer;

/**
 * Rewrites an already validated batch with the topic's codec: the records section is decompressed
 * whole (or taken as is), compressed with the target codec and put behind a copy of the batch
 * header with the codec bits, length and CRC updated. Record bytes are kept verbatim, so offsets,
 * timestamps and sequences are unchanged. Only runs when {@code compression.type} differs from
 * the producer's codec, and is counted by the caller.
 *
 * <p>Not thread-safe; one per validator.
 */
final class BatchRecompressor implements AutoCloseable {

    /** Decompression grows the plain buffer by at least this much per codec call. */
    private static final int DRAIN_CHUNK_BYTES = 64 * 1024;
    /** Attribute bits a rebuilt batch keeps besides its codec (Kafka's builder keeps the same). */
    private static final int KEPT_ATTRIBUTES = TIMESTAMP_TYPE_MASK | TRANSACTIONAL_FLAG_MASK;

    private final ValidatorConfig config;
    private final PayloadCompressor[] compressors = new PayloadCompressor[COMPRESSION_ZSTD + 1];
    private final ByteWindow drain = new ByteWindow();
    private final RecordBatchView rewritten = new RecordBatchView();
    private ByteBuffer plain;
    private ByteBuffer output;

    BatchRecompressor(ValidatorConfig config) {
        this.config = config;
    }

    /**
     * Returns a validator-owned buffer (position 0, limit = batch size) holding {@code batch}
     * with its records in {@code targetCodec}; valid until the next call.
     *
     * @param decompressor the source codec's decompressor, or null for an uncompressed batch
     */
    ByteBuffer recompress(RecordBatchView batch, PayloadDecompressor decompressor, int targetCodec, long ceiling)
            throws BatchFormatException {
        ByteBuffer source = batch.buffer();
        int start = batch.offset();
        int recordsFrom = start + RECORDS_OFFSET;
        int recordsTo = start + batch.sizeInBytes();
        ByteBuffer records;
        int from;
        int to;
        if (decompressor == null) {
            // Copied even from direct memory: compressors move positions, the caller's buffer must not move.
            plain = ensure(plain, recordsTo - recordsFrom);
            plain.put(0, source, recordsFrom, recordsTo - recordsFrom);
            records = plain;
            from = 0;
            to = recordsTo - recordsFrom;
        } else {
            decompressor.begin(source, recordsFrom, recordsTo);
            plain = ensure(plain, DRAIN_CHUNK_BYTES);
            drain.streaming(plain, decompressor, ceiling).drainAll(DRAIN_CHUNK_BYTES);
            plain = drain.buffer();
            records = plain;
            from = 0;
            to = drain.limit();
        }
        int length = to - from;
        int bound = targetCodec == COMPRESSION_NONE
                ? length
                : compressor(targetCodec).maxCompressedLength(length);
        output = ensure(output, RECORDS_OFFSET + bound);
        output.clear();
        output.put(0, source, start, RECORDS_OFFSET);
        int written;
        if (targetCodec == COMPRESSION_NONE) {
            output.put(RECORDS_OFFSET, records, from, length);
            written = length;
        } else {
            written = compressor(targetCodec).compress(records, from, to, output, RECORDS_OFFSET);
        }
        records.clear();
        int size = RECORDS_OFFSET + written;
        output.putInt(BATCH_LENGTH_OFFSET, size - LOG_OVERHEAD);
        int attributes = (batch.attributes() & KEPT_ATTRIBUTES) | (targetCodec & COMPRESSION_CODEC_MASK);
        output.putShort(ATTRIBUTES_OFFSET, (short) attributes);
        output.putInt(CRC_OFFSET, rewritten.wrap(output, 0).computeCrc());
        output.limit(size).position(0);
        ByteBuffer result = output;
        dropIfHuge();
        return result;
    }

    private PayloadCompressor compressor(int codec) {
        PayloadCompressor compressor = compressors[codec];
        if (compressor == null) {
            compressor = switch (codec) {
                case COMPRESSION_GZIP -> new GzipPayloadCompressor();
                case COMPRESSION_SNAPPY -> new SnappyPayloadCompressor();
                case COMPRESSION_LZ4 -> new Lz4PayloadCompressor();
                case COMPRESSION_ZSTD -> new ZstdPayloadCompressor();
                default -> throw new IllegalArgumentException("no compressor for codec id " + codec);
            };
            compressors[codec] = compressor;
        }
        return compressor;
    }

    private static ByteBuffer ensure(ByteBuffer buffer, int capacity) {
        if (buffer != null && buffer.capacity() >= capacity) {
            return buffer;
        }
        int grown = buffer == null
                ? capacity
                : (int) Math.min(Integer.MAX_VALUE - 8, Math.max(capacity, 2L * buffer.capacity()));
        return ByteBuffer.allocateDirect(grown);
    }

    /** Keeps reusable buffers only up to the configured retention size. */
    private void dropIfHuge() {
        if (plain != null && plain.capacity() > config.maxRetainedWindowBytes()) {
            plain = null;
        }
        if (output != null && output.capacity() > config.maxRetainedWindowBytes()) {
            output = null;
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < compressors.length; i++) {
            if (compressors[i] != null) {
                compressors[i].close();
                compressors[i] = null;
            }
        }
        plain = null;
        output = null;
    }
}
