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
 * @param maxUncompressedFieldBytes declared uncompressed size of one compressed state stream (default 256 MiB: a
 *                                  100,000-partition map is ~10 MB)
 */
public record CodecConfig(
        int maxDepth, int maxArrayLength, int maxStringBytes, int maxCollectionSize, int maxUncompressedFieldBytes) {

    public static final CodecConfig DEFAULT = new CodecConfig(32, 64 << 20, 64 << 10, 4 << 20, 256 << 20);

    public CodecConfig {
        requirePositive("maxDepth", maxDepth);
        requirePositive("maxArrayLength", maxArrayLength);
        requirePositive("maxStringBytes", maxStringBytes);
        requirePositive("maxCollectionSize", maxCollectionSize);
        requirePositive("maxUncompressedFieldBytes", maxUncompressedFieldBytes);
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, was " + value);
        }
    }

    public CodecConfig withMaxArrayLength(int value) {
        return new CodecConfig(maxDepth, value, maxStringBytes, maxCollectionSize, maxUncompressedFieldBytes);
    }

    public CodecConfig withMaxCollectionSize(int value) {
        return new CodecConfig(maxDepth, maxArrayLength, maxStringBytes, value, maxUncompressedFieldBytes);
    }

    public CodecConfig withMaxUncompressedFieldBytes(int value) {
        return new CodecConfig(maxDepth, maxArrayLength, maxStringBytes, maxCollectionSize, value);
    }
}
