package io.sluice.record.compress;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The zstd frame format (RFC 8878, section 3.1) as far as bounding a payload's decompressed size
 * without decoding it needs: frame and block headers read from the wire, and the largest window
 * libzstd's streaming decoder accepts by default. Multi-byte fields are little-endian.
 *
 * <p>Stateless; thread-safe.
 */
final class ZstdFrameLayout {

    /** Returned by {@link #decompressedBound} for anything but a sequence of plain, whole frames. */
    static final long NOT_BOUNDED = -1;

    static final int FRAME_MAGIC = 0xFD2FB528;
    static final int MAGIC_SIZE = 4;
    static final int FRAME_HEADER_DESCRIPTOR_SIZE = 1;
    static final int WINDOW_DESCRIPTOR_SIZE = 1;
    static final int FRAME_CONTENT_SIZE_FLAG_SHIFT = 6;
    static final int SINGLE_SEGMENT_BIT = 0x20;
    static final int RESERVED_BIT = 0x08;
    static final int CONTENT_CHECKSUM_BIT = 0x04;
    static final int DICTIONARY_ID_FLAG_MASK = 0x03;
    /** Dictionary_ID field size by Dictionary_ID_flag. */
    private static final int[] DICTIONARY_ID_SIZES = {0, 1, 2, 4};
    /** Frame_Content_Size field size by its flag; flag 0 means 1 byte when Single_Segment_flag is set. */
    private static final int[] FRAME_CONTENT_SIZES = {0, 2, 4, 8};

    static final int SINGLE_SEGMENT_CONTENT_SIZE_BYTES = 1;
    /** A 2-byte Frame_Content_Size field stores the size minus this. */
    static final int TWO_BYTE_CONTENT_SIZE_OFFSET = 256;

    static final int WINDOW_LOG_BASE = 10;
    static final int WINDOW_EXPONENT_SHIFT = 3;
    static final int WINDOW_MANTISSA_MASK = 0x07;
    static final int WINDOW_MANTISSA_DIVISOR = 8;
    static final int BLOCK_HEADER_SIZE = 3;
    static final int BLOCK_HEADER_MASK = 0xFFFFFF;
    static final int LAST_BLOCK_BIT = 0x01;
    static final int BLOCK_TYPE_SHIFT = 1;
    static final int BLOCK_TYPE_MASK = 0x03;
    static final int BLOCK_SIZE_SHIFT = 3;
    static final int BLOCK_TYPE_RAW = 0;
    static final int BLOCK_TYPE_RLE = 1;
    static final int BLOCK_TYPE_COMPRESSED = 2;
    static final int BLOCK_SIZE_MAX = 128 * 1024;
    static final int CONTENT_CHECKSUM_SIZE = 4;
    /**
     * libzstd's streaming decoder refuses windows above 2^27 bytes (ZSTD_WINDOWLOG_LIMIT_DEFAULT)
     * while its one-shot decoder has no such limit: frames above it must go to the streaming decoder
     * so that its verdict stays the one given.
     */
    static final long STREAMING_WINDOW_SIZE_MAX = 1L << 27;

    private ZstdFrameLayout() {}

    /**
     * An upper bound of the bytes {@code source[from, to)} decompresses to when it is one or more
     * whole zstd frames (no skippable or legacy frames, no trailing bytes, windows the streaming
     * decoder accepts, no block above the block maximum): the sizes of raw and RLE blocks plus the
     * block maximum for each compressed block. {@link #NOT_BOUNDED} otherwise, or when the payload is empty. Reads headers only; says
     * nothing about whether the blocks decode.
     */
    static long decompressedBound(ByteBuffer source, int from, int to) {
        if (from >= to) {
            return NOT_BOUNDED;
        }
        long bound = 0;
        int p = from;
        while (p < to) {
            if (to - p < MAGIC_SIZE + FRAME_HEADER_DESCRIPTOR_SIZE || int32(source, p) != FRAME_MAGIC) {
                return NOT_BOUNDED;
            }
            int descriptor = source.get(p + MAGIC_SIZE) & 0xff;
            p += MAGIC_SIZE + FRAME_HEADER_DESCRIPTOR_SIZE;
            if ((descriptor & RESERVED_BIT) != 0) {
                return NOT_BOUNDED;
            }
            boolean singleSegment = (descriptor & SINGLE_SEGMENT_BIT) != 0;
            int contentSizeFlag = descriptor >>> FRAME_CONTENT_SIZE_FLAG_SHIFT;
            int contentSizeBytes = contentSizeFlag == 0 && singleSegment
                    ? SINGLE_SEGMENT_CONTENT_SIZE_BYTES
                    : FRAME_CONTENT_SIZES[contentSizeFlag];
            int dictionaryIdBytes = DICTIONARY_ID_SIZES[descriptor & DICTIONARY_ID_FLAG_MASK];
            int windowDescriptorBytes = singleSegment ? 0 : WINDOW_DESCRIPTOR_SIZE;
            if (to - p < windowDescriptorBytes + dictionaryIdBytes + contentSizeBytes) {
                return NOT_BOUNDED;
            }
            long windowSize;
            if (singleSegment) {
                int at = p + dictionaryIdBytes;
                windowSize = littleEndian(source, at, contentSizeBytes)
                        + (contentSizeBytes == 2 ? TWO_BYTE_CONTENT_SIZE_OFFSET : 0);
            } else {
                int windowDescriptor = source.get(p) & 0xff;
                long base = 1L << (WINDOW_LOG_BASE + (windowDescriptor >>> WINDOW_EXPONENT_SHIFT));
                windowSize = base + base / WINDOW_MANTISSA_DIVISOR * (windowDescriptor & WINDOW_MANTISSA_MASK);
            }
            if (windowSize < 0 || windowSize > STREAMING_WINDOW_SIZE_MAX) {
                return NOT_BOUNDED;
            }
            p += windowDescriptorBytes + dictionaryIdBytes + contentSizeBytes;
            long blockMax = Math.min(windowSize, BLOCK_SIZE_MAX);
            boolean last = false;
            while (!last) {
                if (to - p < BLOCK_HEADER_SIZE) {
                    return NOT_BOUNDED;
                }
                // One 4-byte read where it fits (the block's first byte, or the checksum, follows).
                int header = to - p > BLOCK_HEADER_SIZE
                        ? int32(source, p) & BLOCK_HEADER_MASK
                        : (int) littleEndian(source, p, BLOCK_HEADER_SIZE);
                p += BLOCK_HEADER_SIZE;
                last = (header & LAST_BLOCK_BIT) != 0;
                int type = (header >>> BLOCK_TYPE_SHIFT) & BLOCK_TYPE_MASK;
                int size = header >>> BLOCK_SIZE_SHIFT;
                if (size > blockMax) {
                    return NOT_BOUNDED; // the format forbids it; libzstd's one-shot decoder lets RLE blocks through
                }
                int stored;
                switch (type) {
                    case BLOCK_TYPE_RAW -> {
                        stored = size;
                        bound += size;
                    }
                    case BLOCK_TYPE_RLE -> {
                        stored = 1;
                        bound += size;
                    }
                    case BLOCK_TYPE_COMPRESSED -> {
                        stored = size;
                        bound += blockMax;
                    }
                    default -> {
                        return NOT_BOUNDED;
                    }
                }
                if (to - p < stored) {
                    return NOT_BOUNDED;
                }
                p += stored;
            }
            if ((descriptor & CONTENT_CHECKSUM_BIT) != 0) {
                if (to - p < CONTENT_CHECKSUM_SIZE) {
                    return NOT_BOUNDED;
                }
                p += CONTENT_CHECKSUM_SIZE;
            }
        }
        return bound;
    }

    /**
     * The source ranges holding the decompressed bytes of {@code source[from, to)} when it is one
     * or more whole zstd frames made of raw blocks only, which libzstd's streaming decoder accepts
     * and decodes to exactly those ranges: no dictionary, no content checksum (not verified here),
     * a window it accepts, no block above the block maximum, a declared content size equal to the
     * blocks' total, no skippable frame and nothing after the last frame. Written into
     * {@code ranges} as from/to pairs (empty blocks omitted); returns the number of ranges, or
     * {@link PayloadDecompressor#NOT_STORED} for anything else, for more ranges than the array
     * holds, or for more than {@code maxBytes} bytes in all. Reads headers only.
     */
    static int storedRanges(ByteBuffer source, int from, int to, long maxBytes, int[] ranges) {
        if (from >= to) {
            return PayloadDecompressor.NOT_STORED;
        }
        int count = 0;
        long total = 0;
        int p = from;
        while (p < to) {
            if (to - p < MAGIC_SIZE + FRAME_HEADER_DESCRIPTOR_SIZE || int32(source, p) != FRAME_MAGIC) {
                return PayloadDecompressor.NOT_STORED;
            }
            int descriptor = source.get(p + MAGIC_SIZE) & 0xff;
            p += MAGIC_SIZE + FRAME_HEADER_DESCRIPTOR_SIZE;
            if ((descriptor & (RESERVED_BIT | CONTENT_CHECKSUM_BIT | DICTIONARY_ID_FLAG_MASK)) != 0) {
                return PayloadDecompressor.NOT_STORED;
            }
            boolean singleSegment = (descriptor & SINGLE_SEGMENT_BIT) != 0;
            int contentSizeFlag = descriptor >>> FRAME_CONTENT_SIZE_FLAG_SHIFT;
            int contentSizeBytes = contentSizeFlag == 0 && singleSegment
                    ? SINGLE_SEGMENT_CONTENT_SIZE_BYTES
                    : FRAME_CONTENT_SIZES[contentSizeFlag];
            int windowDescriptorBytes = singleSegment ? 0 : WINDOW_DESCRIPTOR_SIZE;
            if (to - p < windowDescriptorBytes + contentSizeBytes) {
                return PayloadDecompressor.NOT_STORED;
            }
            long contentSize = contentSizeBytes == 0
                    ? -1
                    : littleEndian(source, p + windowDescriptorBytes, contentSizeBytes)
                            + (contentSizeBytes == 2 ? TWO_BYTE_CONTENT_SIZE_OFFSET : 0);
            long windowSize;
            if (singleSegment) {
                windowSize = contentSize;
            } else {
                int windowDescriptor = source.get(p) & 0xff;
                long base = 1L << (WINDOW_LOG_BASE + (windowDescriptor >>> WINDOW_EXPONENT_SHIFT));
                windowSize = base + base / WINDOW_MANTISSA_DIVISOR * (windowDescriptor & WINDOW_MANTISSA_MASK);
            }
            if (windowSize < 0 || windowSize > STREAMING_WINDOW_SIZE_MAX) {
                return PayloadDecompressor.NOT_STORED;
            }
            p += windowDescriptorBytes + contentSizeBytes;
            long blockMax = Math.min(windowSize, BLOCK_SIZE_MAX);
            long frameBytes = 0;
            boolean last = false;
            while (!last) {
                if (to - p < BLOCK_HEADER_SIZE) {
                    return PayloadDecompressor.NOT_STORED;
                }
                int header = (int) littleEndian(source, p, BLOCK_HEADER_SIZE);
                p += BLOCK_HEADER_SIZE;
                last = (header & LAST_BLOCK_BIT) != 0;
                int size = header >>> BLOCK_SIZE_SHIFT;
                if (((header >>> BLOCK_TYPE_SHIFT) & BLOCK_TYPE_MASK) != BLOCK_TYPE_RAW
                        || size > blockMax
                        || to - p < size) {
                    return PayloadDecompressor.NOT_STORED;
                }
                count = StoredRanges.append(ranges, count, p, p + size);
                if (count == PayloadDecompressor.NOT_STORED) {
                    return PayloadDecompressor.NOT_STORED;
                }
                frameBytes += size;
                p += size;
            }
            if (contentSize >= 0 && frameBytes != contentSize) {
                return PayloadDecompressor.NOT_STORED;
            }
            total += frameBytes;
            if (total > maxBytes) {
                return PayloadDecompressor.NOT_STORED;
            }
        }
        return count;
    }

    /** The little-endian int at {@code at}, whatever the buffer's byte order: one read instead of four. */
    private static int int32(ByteBuffer source, int at) {
        int value = source.getInt(at);
        return source.order() == ByteOrder.LITTLE_ENDIAN ? value : Integer.reverseBytes(value);
    }

    /** The {@code bytes}-byte (at most 8) little-endian unsigned value at {@code at}. */
    private static long littleEndian(ByteBuffer source, int at, int bytes) {
        long value = 0;
        for (int i = bytes - 1; i >= 0; i--) {
            value = (value << 8) | (source.get(at + i) & 0xff);
        }
        return value;
    }
}
