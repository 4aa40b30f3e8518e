package io.sluice.record.compress;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * snappy payloads as Kafka reads them. The xerial stream framing of snappy-java's
 * SnappyOutputStream, which Kafka's Java producer writes (big-endian fields):
 * <pre>
 *   0   magic               8 bytes  0x82 'S' 'N' 'A' 'P' 'P' 'Y' 0
 *   8   version             int32    (not checked)
 *   12  compatible version  int32    at least 1
 *   16  chunks:             int32 compressed length, then one raw snappy block of that length
 * </pre>
 * or, without the magic, the whole payload is one raw snappy block (librdkafka writes those). A raw
 * snappy block (snappy's format_description.txt): the uncompressed length as a varint of at most
 * 5 bytes (7 bits a byte, least significant first; the fifth byte below 16), then elements, each
 * opened by a tag byte whose low 2 bits give its type. A literal (type 0) holds its length minus
 * one in the tag's upper 6 bits, or, for the values 60..63, in the 1..4 little-endian bytes after
 * the tag; its bytes follow. The other types copy earlier output.
 *
 * <p>Stateless; thread-safe.
 */
final class SnappyFrameLayout {

    static final byte[] XERIAL_MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
    static final int XERIAL_MAGIC_OFFSET = 0;
    static final int XERIAL_VERSION_OFFSET = XERIAL_MAGIC_OFFSET + XERIAL_MAGIC.length;
    static final int XERIAL_COMPATIBLE_VERSION_OFFSET = XERIAL_VERSION_OFFSET + Integer.BYTES;
    static final int XERIAL_HEADER_LENGTH = XERIAL_COMPATIBLE_VERSION_OFFSET + Integer.BYTES;
    static final int XERIAL_MIN_COMPATIBLE_VERSION = 1;
    static final int CHUNK_LENGTH_LENGTH = Integer.BYTES;
    static final int VARINT_PAYLOAD_BITS = 7;
    static final int VARINT_CONTINUATION = 0x80;
    /** The shift of a 32-bit varint's fifth byte, which must hold the top 4 bits only. */
    static final int VARINT_LAST_SHIFT = 28;

    static final int VARINT_LAST_BYTE_LIMIT = 1 << (Integer.SIZE - VARINT_LAST_SHIFT);
    static final int TAG_TYPE_MASK = 0x03;
    static final int TAG_TYPE_LITERAL = 0;
    static final int TAG_LITERAL_LENGTH_SHIFT = 2;
    /** Tag values 60..63 of a literal's length field: its length minus one is in 1..4 bytes after the tag. */
    static final int LITERAL_LENGTH_IN_TAG_LIMIT = 60;

    /**
     * The most bytes one compressed byte of a snappy block can decode to: a copy with a 2-byte
     * offset takes 3 bytes and yields at most 64 (literals yield at most one byte per byte).
     */
    static final int MAX_COPY_OUTPUT = 64;

    static final int MIN_COPY_INPUT_FOR_MAX_OUTPUT = 3;

    /** True when a block of {@code compressedBytes} bytes cannot decode to {@code declaredLength} bytes. */
    static boolean declaresMoreThanDecodable(int declaredLength, int compressedBytes) {
        return (long) declaredLength * MIN_COPY_INPUT_FOR_MAX_OUTPUT > (long) compressedBytes * MAX_COPY_OUTPUT;
    }

    private SnappyFrameLayout() {}

    /** True when {@code payload[from, to)} opens with the xerial stream header. */
    static boolean hasXerialHeader(ByteBuffer payload, int from, int to) {
        if (to - from < XERIAL_HEADER_LENGTH) {
            return false;
        }
        for (int i = 0; i < XERIAL_MAGIC.length; i++) {
            if (payload.get(from + XERIAL_MAGIC_OFFSET + i) != XERIAL_MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The ranges holding the uncompressed bytes of the raw snappy blocks in {@code payload[from, to)}
     * (xerial chunks when {@code framed}, else one block, none when empty) when every element of
     * every block is a literal lying inside its block, each block's literals add up to exactly its
     * declared length and end exactly at its end, and every chunk length fits: then snappy's
     * decoder accepts each block and yields exactly its literals. Written into {@code ranges} as
     * from/to pairs; returns the number of ranges, or {@link PayloadDecompressor#NOT_STORED} for
     * anything else, for more ranges than the array holds, or for more than {@code maxBytes}
     * bytes in all. Reads tags and lengths only, each once.
     */
    static int storedRanges(ByteBuffer payload, int from, int to, boolean framed, long maxBytes, int[] ranges) {
        int count = 0;
        long total = 0;
        int p = from;
        while (p < to) {
            int blockEnd = to;
            if (framed) {
                if (to - p < CHUNK_LENGTH_LENGTH) {
                    return PayloadDecompressor.NOT_STORED;
                }
                int chunkLength = bigEndianInt32(payload, p);
                p += CHUNK_LENGTH_LENGTH;
                if (chunkLength < 0 || chunkLength > to - p) {
                    return PayloadDecompressor.NOT_STORED;
                }
                blockEnd = p + chunkLength;
            }
            long declared = 0;
            for (int shift = 0; ; shift += VARINT_PAYLOAD_BITS) {
                if (p >= blockEnd) {
                    return PayloadDecompressor.NOT_STORED;
                }
                int b = payload.get(p++) & 0xff;
                if (shift == VARINT_LAST_SHIFT && b >= VARINT_LAST_BYTE_LIMIT) {
                    return PayloadDecompressor.NOT_STORED;
                }
                declared |= (long) (b & ~VARINT_CONTINUATION) << shift;
                if (b < VARINT_CONTINUATION) {
                    break;
                }
            }
            if (declared > maxBytes - total) {
                return PayloadDecompressor.NOT_STORED;
            }
            long literals = 0;
            while (p < blockEnd) {
                int tag = payload.get(p++) & 0xff;
                if ((tag & TAG_TYPE_MASK) != TAG_TYPE_LITERAL) {
                    return PayloadDecompressor.NOT_STORED;
                }
                long length = (long) tag >>> TAG_LITERAL_LENGTH_SHIFT;
                if (length >= LITERAL_LENGTH_IN_TAG_LIMIT) {
                    int lengthBytes = (int) length - (LITERAL_LENGTH_IN_TAG_LIMIT - 1);
                    if (blockEnd - p < lengthBytes) {
                        return PayloadDecompressor.NOT_STORED;
                    }
                    length = littleEndian(payload, p, lengthBytes);
                    p += lengthBytes;
                }
                length++;
                if (length > blockEnd - p) {
                    return PayloadDecompressor.NOT_STORED;
                }
                count = StoredRanges.append(ranges, count, p, p + (int) length);
                if (count == PayloadDecompressor.NOT_STORED) {
                    return PayloadDecompressor.NOT_STORED;
                }
                p += (int) length;
                literals += length;
            }
            if (literals != declared) {
                return PayloadDecompressor.NOT_STORED;
            }
            total += declared;
        }
        return count;
    }

    /** The big-endian int at {@code at}, whatever the buffer's byte order. */
    static int bigEndianInt32(ByteBuffer source, int at) {
        int value = source.getInt(at);
        return source.order() == ByteOrder.BIG_ENDIAN ? value : Integer.reverseBytes(value);
    }

    /** The {@code bytes}-byte (at most 4) little-endian unsigned value at {@code at}. */
    private static long littleEndian(ByteBuffer source, int at, int bytes) {
        long value = 0;
        for (int i = bytes - 1; i >= 0; i--) {
            value = (value << 8) | (source.get(at + i) & 0xff);
        }
        return value;
    }
}
