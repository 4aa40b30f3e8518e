package io.sluice.codec;

/**
 * Every tunable of sluice-codec, with its default and the reason for it. Immutable; safe to share.
 *
 * @param maxDepth                  nesting depth of messages; deeper input is rejected (default 32: our schemas nest at
 *                                  most 4 deep, the cap stops stack-exhaustion input)
 * @param maxArrayLength            elements of one array, or bytes of one byte array (default 64 MiB: a segment chunk
 *                                  is far below)
 * @param maxStringBytes            UTF-8 bytes of one string (default 64 KiB: strings are host names and reasons)
 * @param maxCollectionSize         entries of one list or map (default 4 Mi: 100,000 partitions with headroom)
 * @param maxCompressedFieldBytes   compressed bytes of one compressed field (default 64 MiB)
 * @param maxUncompressedFieldBytes declared uncompressed size of one compressed field or state stream (default 256 MiB:
 *                                  a 100,000-partition map is ~10 MB)
 * @param compressChunkBytes        chunk through which nested writes reach the compressor, and inflated bytes reach
 *                                  the nested reader (default 16 KiB: large enough to amortize a JNI call, small
 *                                  enough to stay in L2)
 * @param scratchInitialBytes       first size of the per-writer compressed-output scratch (default 4 KiB)
 * @param scratchRetainBytes        the scratch is kept across fields up to this size and trimmed back above it
 *                                  (default 1 MiB: the common partition report stays allocation-free, a rare 50 MB
 *                                  map does not pin 50 MB)
 */
public record CodecConfig(
        int maxDepth,
        int maxArrayLength,
        int maxStringBytes,
        int maxCollectionSize,
        int maxCompressedFieldBytes,
        int maxUncompressedFieldBytes,
        int compressChunkBytes,
        int scratchInitialBytes,
        int scratchRetainBytes) {

    public static final CodecConfig DEFAULT =
            new CodecConfig(32, 64 << 20, 64 << 10, 4 << 20, 64 << 20, 256 << 20, 16 << 10, 4 << 10, 1 << 20);

    public CodecConfig {
        requirePositive("maxDepth", maxDepth);
        requirePositive("maxArrayLength", maxArrayLength);
        requirePositive("maxStringBytes", maxStringBytes);
        requirePositive("maxCollectionSize", maxCollectionSize);
        requirePositive("maxCompressedFieldBytes", maxCompressedFieldBytes);
        requirePositive("maxUncompressedFieldBytes", maxUncompressedFieldBytes);
        if (compressChunkBytes < 64) {
            throw new IllegalArgumentException("compressChunkBytes must be >= 64, was " + compressChunkBytes);
        }
        requirePositive("scratchInitialBytes", scratchInitialBytes);
        if (scratchRetainBytes < scratchInitialBytes) {
            throw new IllegalArgumentException("scratchRetainBytes " + scratchRetainBytes
                    + " must be >= scratchInitialBytes " + scratchInitialBytes);
        }
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, was " + value);
        }
    }

    public CodecConfig withMaxArrayLength(int value) {
        return new CodecConfig(
                maxDepth,
                value,
                maxStringBytes,
                maxCollectionSize,
                maxCompressedFieldBytes,
                maxUncompressedFieldBytes,
                compressChunkBytes,
                scratchInitialBytes,
                scratchRetainBytes);
    }

    public CodecConfig withMaxCollectionSize(int value) {
        return new CodecConfig(
                maxDepth,
                maxArrayLength,
                maxStringBytes,
                value,
                maxCompressedFieldBytes,
                maxUncompressedFieldBytes,
                compressChunkBytes,
                scratchInitialBytes,
                scratchRetainBytes);
    }

    public CodecConfig withMaxUncompressedFieldBytes(int value) {
        return new CodecConfig(
                maxDepth,
                maxArrayLength,
                maxStringBytes,
                maxCollectionSize,
                maxCompressedFieldBytes,
                value,
                compressChunkBytes,
                scratchInitialBytes,
                scratchRetainBytes);
    }

    public CodecConfig withScratch(int initialBytes, int retainBytes) {
        return new CodecConfig(
                maxDepth,
                maxArrayLength,
                maxStringBytes,
                maxCollectionSize,
                maxCompressedFieldBytes,
                maxUncompressedFieldBytes,
                compressChunkBytes,
                initialBytes,
                retainBytes);
    }

    public CodecConfig withCompressChunkBytes(int value) {
        return new CodecConfig(
                maxDepth,
                maxArrayLength,
                maxStringBytes,
                maxCollectionSize,
                maxCompressedFieldBytes,
                maxUncompressedFieldBytes,
                value,
                scratchInitialBytes,
                scratchRetainBytes);
    }
}
