package io.sluice.record.validate;

/**
 * Tunables of record validation (the sluice-record module's configuration class).
 *
 * <p>Immutable; thread-safe.
 *
 * @param decompressionWindowBytes initial size of the one reused buffer a validator decompresses
 *                                 into; 128 KiB is zstd's recommended output size
 *                                 (ZSTD_DStreamOutSize), so one JNI call fills it
 * @param maxDecompressionRatio    decompressed bytes allowed per byte of {@code max.message.bytes};
 *                                 128 lets a 1 MiB batch of very compressible text through while a
 *                                 decompression bomb stops early
 * @param maxDecompressedBytes     hard ceiling on decompressed bytes per batch, whatever the topic's
 *                                 {@code max.message.bytes}; 256 MiB bounds CPU per request
 * @param maxRetainedWindowBytes   a window grown past this (a huge snappy or lz4 block) is dropped
 *                                 after the batch; 4 MiB keeps lz4's largest block size reusable. Also
 *                                 the largest zstd payload decoded in one call straight into the window
 *                                 (larger ones stream), so that growth is always retained
 */
public record ValidatorConfig(
        int decompressionWindowBytes,
        int maxDecompressionRatio,
        long maxDecompressedBytes,
        int maxRetainedWindowBytes) {

    public static final int DEFAULT_DECOMPRESSION_WINDOW_BYTES = 128 * 1024;
    public static final int DEFAULT_MAX_DECOMPRESSION_RATIO = 128;
    public static final long DEFAULT_MAX_DECOMPRESSED_BYTES = 256L * 1024 * 1024;
    public static final int DEFAULT_MAX_RETAINED_WINDOW_BYTES = 4 * 1024 * 1024 + 1024;
    /** Smallest window: the longest fixed part of a record header must fit with room to spare. */
    public static final int MIN_DECOMPRESSION_WINDOW_BYTES = 1024;

    public ValidatorConfig {
        if (decompressionWindowBytes < MIN_DECOMPRESSION_WINDOW_BYTES) {
            throw new IllegalArgumentException("decompressionWindowBytes must be >= " + MIN_DECOMPRESSION_WINDOW_BYTES
                    + ", was " + decompressionWindowBytes);
        }
        if (maxDecompressionRatio < 1) {
            throw new IllegalArgumentException("maxDecompressionRatio must be >= 1, was " + maxDecompressionRatio);
        }
        if (maxDecompressedBytes < 1) {
            throw new IllegalArgumentException("maxDecompressedBytes must be >= 1, was " + maxDecompressedBytes);
        }
        if (maxRetainedWindowBytes < decompressionWindowBytes) {
            throw new IllegalArgumentException("maxRetainedWindowBytes must be >= decompressionWindowBytes ("
                    + decompressionWindowBytes + "), was " + maxRetainedWindowBytes);
        }
    }

    /** Keeps {@link #DEFAULT_MAX_RETAINED_WINDOW_BYTES} (or the window size, if larger). */
    public ValidatorConfig(int decompressionWindowBytes, int maxDecompressionRatio, long maxDecompressedBytes) {
        this(
                decompressionWindowBytes,
                maxDecompressionRatio,
                maxDecompressedBytes,
                Math.max(decompressionWindowBytes, DEFAULT_MAX_RETAINED_WINDOW_BYTES));
    }

    public static ValidatorConfig defaults() {
        return new ValidatorConfig(
                DEFAULT_DECOMPRESSION_WINDOW_BYTES, DEFAULT_MAX_DECOMPRESSION_RATIO, DEFAULT_MAX_DECOMPRESSED_BYTES);
    }

    /** Decompressed bytes one batch may expand to under a topic's {@code max.message.bytes}. */
    public long decompressedCeiling(int maxMessageBytes) {
        return Math.min(maxDecompressedBytes, (long) maxMessageBytes * maxDecompressionRatio);
    }
}
