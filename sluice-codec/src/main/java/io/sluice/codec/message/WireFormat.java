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

    private WireFormat() {
    }

    static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
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
