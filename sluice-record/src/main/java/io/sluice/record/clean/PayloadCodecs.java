package io.sluice.record.clean;

import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_GZIP;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_LZ4;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_SNAPPY;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_ZSTD;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.compress.GzipPayloadCompressor;
import io.sluice.record.compress.GzipPayloadDecompressor;
import io.sluice.record.compress.Lz4PayloadCompressor;
import io.sluice.record.compress.Lz4PayloadDecompressor;
import io.sluice.record.compress.PayloadCompressor;
import io.sluice.record.compress.PayloadDecompressor;
import io.sluice.record.compress.SnappyPayloadCompressor;
import io.sluice.record.compress.SnappyPayloadDecompressor;
import io.sluice.record.compress.ZstdPayloadCompressor;
import io.sluice.record.compress.ZstdPayloadDecompressor;

/**
 * One compressor and one decompressor per codec, created on first use and kept (with their native state) until
 * {@link #close()}. Not thread-safe; one per cleaner thread.
 */
final class PayloadCodecs implements AutoCloseable {
    private final PayloadCompressor[] compressors = new PayloadCompressor[COMPRESSION_ZSTD + 1];
    private final PayloadDecompressor[] decompressors = new PayloadDecompressor[COMPRESSION_ZSTD + 1];

    /** The decompressor of codec id {@code codec} (1 to 4). */
    PayloadDecompressor decompressor(int codec) throws BatchFormatException {
        if (codec < COMPRESSION_GZIP || codec > COMPRESSION_ZSTD) {
            throw new BatchFormatException(BatchFormatException.Reason.CORRUPT_PAYLOAD, "unknown codec id " + codec);
        }
        PayloadDecompressor d = decompressors[codec];
        if (d == null) {
            d = switch (codec) {
                case COMPRESSION_GZIP -> new GzipPayloadDecompressor();
                case COMPRESSION_SNAPPY -> new SnappyPayloadDecompressor();
                case COMPRESSION_LZ4 -> new Lz4PayloadDecompressor();
                default -> new ZstdPayloadDecompressor();
            };
            decompressors[codec] = d;
        }
        return d;
    }

    /** The compressor of codec id {@code codec} (1 to 4). */
    PayloadCompressor compressor(int codec) {
        PayloadCompressor c = compressors[codec];
        if (c == null) {
            c = switch (codec) {
                case COMPRESSION_GZIP -> new GzipPayloadCompressor();
                case COMPRESSION_SNAPPY -> new SnappyPayloadCompressor();
                case COMPRESSION_LZ4 -> new Lz4PayloadCompressor();
                case COMPRESSION_ZSTD -> new ZstdPayloadCompressor();
                default -> throw new IllegalArgumentException("no compressor for codec id " + codec);
            };
            compressors[codec] = c;
        }
        return c;
    }

    @Override
    public void close() {
        for (int i = 0; i <= COMPRESSION_ZSTD; i++) {
            if (compressors[i] != null) {
                compressors[i].close();
                compressors[i] = null;
            }
            if (decompressors[i] != null) {
                decompressors[i].close();
                decompressors[i] = null;
            }
        }
    }
}
