package io.sluice.codec.message;

/**
 * The message encoding, shared by writer and reader. Stateless.
 *
 * <pre>
 * message      = typeId+1 : uvarint, version : uvarint, fields...        (typeId+1 == 0 encodes a null message)
 * boolean/byte = 1 byte                 short = 2 bytes big-endian
 * int, long    = zigzag varint          float = 4 bytes, double = 8 bytes, IEEE 754 big-endian
 * uuid         = 16 bytes big-endian (most significant long first)
 * byte[]       = length+1 : uvarint, bytes            (0 encodes null)
 * int[]/long[] = length+1 : uvarint, zigzag varints   (0 encodes null)
 * string       = byte[] of UTF-8                       endpoint = host byte[], port : uvarint
 * list         = size+1 : uvarint, elements            map = size+1 : uvarint, key, value, key, value...
 * compressed   = compression id : uvarint (0 encodes null), uncompressed length : uvarint,
 *                compressed byte[] holding one message encoded as above (a zlib stream or zstd frame)
 * </pre>
 */
final class WireFormat {
    static final int MAX_VARINT32_BYTES = 5;
    static final int MAX_VARINT64_BYTES = 10;
    static final int UUID_BYTES = 16;
    static final int SHORT_BYTES = 2;
    static final int FLOAT_BYTES = 4;
    static final int DOUBLE_BYTES = 8;
    /** Largest single primitive encoding; sizes the pending-bytes buffer. */
    static final int MAX_PRIMITIVE_BYTES = UUID_BYTES;

    private WireFormat() {}

    static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    /** Bytes of the unsigned varint of {@code v}, 1 to 10, without a loop or branch. */
    static int varintLength(long v) {
        return (VARINT_LENGTH_BASE - Long.numberOfLeadingZeros(v) * VARINT_LENGTH_STEP) >>> VARINT_LENGTH_SHIFT;
    }

    /** {@code ceil(significantBits / 7)} as {@code (640 - 9 * leadingZeros) >>> 6}, exact for 0..64 leading zeros. */
    private static final int VARINT_LENGTH_BASE = 640;

    private static final int VARINT_LENGTH_STEP = 9;
    private static final int VARINT_LENGTH_SHIFT = 6;
    /** The continuation bit of each of the first 7 bytes of a varint word; shifted right to keep the first n-1. */
    private static final long CONTINUATION_BITS = 0x0080_8080_8080_8080L;

    /**
     * The unsigned varint of {@code v}, whose length {@code len} is at most 8, packed into a long with the first wire
     * byte lowest and the continuation bits set. The seven-bit groups are spread into bytes in three halving steps
     * (28-bit halves, 14-bit quarters, 7-bit eighths) instead of a loop with a branch per byte.
     */
    static long varintWord(long v, int len) {
        long x = (v & 0xFFF_FFFFL) | (v & 0xFF_FFFF_F000_0000L) << 4;
        x = (x & 0x3FFF_0000_3FFFL) | (x & 0xFFF_C000_0FFF_C000L) << 2;
        x = (x & 0x7F_007F_007F_007FL) | (x & 0x3F80_3F80_3F80_3F80L) << 1;
        return x | CONTINUATION_BITS >>> ((Long.BYTES - len) * Byte.SIZE);
    }

    /** Encodes {@code v} as an unsigned varint into {@code dst} from 0; returns the length. */
    static int encodeVarint(long v, byte[] dst) {
        int n = 0;
        while ((v & ~0x7FL) != 0) {
            dst[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        dst[n++] = (byte) v;
        return n;
    }

    static void encodeLong(long v, byte[] dst, int off) {
        for (int i = 7; i >= 0; i--) {
            dst[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long decodeLong(byte[] src, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (src[off + i] & 0xFF);
        }
        return v;
    }
}
