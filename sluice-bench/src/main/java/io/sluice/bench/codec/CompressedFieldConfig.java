package io.sluice.bench.codec;

/**
 * The tunables of {@link CompressedFieldWriter} and {@link CompressedFieldReader}, with their defaults and reasons.
 * Immutable; safe to share.
 *
 * @param maxCompressedBytes   compressed bytes of one field (default 64 MiB)
 * @param maxUncompressedBytes uncompressed size of one field, written or declared (default 256 MiB: a
 *                             100,000-partition map is ~10 MB)
 * @param chunkBytes           chunk through which the nested writer reaches the compressor, and inflated bytes reach
 *                             the nested reader (default 16 KiB: large enough to amortize a JNI call, small enough to
 *                             stay in L2)
 * @param scratchInitialBytes  first size of the compressed-output scratch (default 4 KiB)
 * @param scratchRetainBytes   the scratch is kept across fields up to this size and trimmed back above it (default
 *                             1 MiB: a common field stays allocation-free, a rare 50 MB one does not pin 50 MB)
 */
public record CompressedFieldConfig(
        int maxCompressedBytes,
        int maxUncompressedBytes,
        int chunkBytes,
        int scratchInitialBytes,
        int scratchRetainBytes) {

    public static final CompressedFieldConfig DEFAULT =
            new CompressedFieldConfig(64 << 20, 256 << 20, 16 << 10, 4 << 10, 1 << 20);

    public CompressedFieldConfig {
        if (maxCompressedBytes <= 0 || maxUncompressedBytes <= 0 || scratchInitialBytes <= 0) {
            throw new IllegalArgumentException("compressed-field caps and scratch size must be > 0");
        }
        if (chunkBytes < 64) {
            throw new IllegalArgumentException("chunkBytes must be >= 64, was " + chunkBytes);
        }
        if (scratchRetainBytes < scratchInitialBytes) {
            throw new IllegalArgumentException("scratchRetainBytes " + scratchRetainBytes
                    + " must be >= scratchInitialBytes " + scratchInitialBytes);
        }
    }

    public CompressedFieldConfig withMaxUncompressedBytes(int value) {
        return new CompressedFieldConfig(
                maxCompressedBytes, value, chunkBytes, scratchInitialBytes, scratchRetainBytes);
    }

    public CompressedFieldConfig withScratch(int initialBytes, int retainBytes) {
        return new CompressedFieldConfig(
                maxCompressedBytes, maxUncompressedBytes, chunkBytes, initialBytes, retainBytes);
    }
}
