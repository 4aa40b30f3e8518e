package io.sluice.record.batch;

import static io.sluice.record.batch.BoundedVarints.MALFORMED;
import static io.sluice.record.batch.BoundedVarints.rawVarint;
import static io.sluice.record.batch.BoundedVarints.zigzag;

import java.nio.ByteBuffer;

/**
 * The header check of {@link RecordCursor}'s field-chain path, for a record lying wholly inside
 * the buffer: {@link #headersEndAt} walks a record's headers and remembers their shape (where
 * their one-byte length bytes sit and what they hold), and {@link #sameShape} checks a following
 * record against that shape with loads independent of each other instead of the serial walk:
 * producers mostly send the same header keys with same-sized values on every record.
 *
 * <p>Not thread-safe; one per {@link RecordCursor}.
 */
final class HeaderShape {

    /** Header shapes of records with more headers are not remembered (their walk is long anyway). */
    private static final int MAX_SHAPE_HEADERS = 16;

    private static final int NO_SHAPE = -1;

    /** Bits of a varint byte that are clear when it is complete in one byte and zigzag-decodes to >= 0. */
    private static final int ONE_BYTE_NON_NEGATIVE = 0x81;

    /** Offsets from the first header, and values, of the length bytes of the last shape remembered. */
    private final int[] shapeOffsets = new int[2 * MAX_SHAPE_HEADERS];

    private final byte[] shapeBytes = new byte[2 * MAX_SHAPE_HEADERS];
    private int shapeHeaderCount = NO_SHAPE;
    private int shapeLength;

    /**
     * True when the {@code count} headers of the record at {@code h}, with {@code bytesLeft}
     * bytes from {@code h} to the record's end, have the shape of the last record whose headers
     * {@link #headersEndAt} walked: the same header count, the same bytes left, and the length
     * bytes at the same offsets with the same values. Then, by induction over the headers, the
     * serial walk would read exactly those bytes and reach the same verdict.
     */
    boolean sameShape(ByteBuffer b, int h, int count, int bytesLeft) {
        return count == shapeHeaderCount && bytesLeft == shapeLength && sameLengthBytes(b, h);
    }

    private boolean sameLengthBytes(ByteBuffer b, int h) {
        int[] offsets = shapeOffsets;
        byte[] bytes = shapeBytes;
        int differs = 0;
        for (int k = 0; k < 2 * shapeHeaderCount; k++) {
            differs |= b.get(h + offsets[k]) ^ bytes[k];
        }
        return differs == 0;
    }

    /**
     * True when {@code count} headers from {@code p} end exactly at {@code end} with key lengths
     * >= 0, value lengths >= -1 and every byte inside the record. A length byte with its
     * continuation bit and zigzag sign bit ({@link #ONE_BYTE_NON_NEGATIVE}) clear is a complete
     * length of {@code byte >>> 1}. When every length was one byte, remembers where they were
     * for {@link #sameShape}.
     */
    boolean headersEndAt(ByteBuffer b, int p, int end, int count) {
        int h = p;
        boolean recordShape = count <= MAX_SHAPE_HEADERS;
        shapeHeaderCount = NO_SHAPE;
        for (int i = 0; i < count; i++) {
            if (p >= end) {
                return false;
            }
            int keyLen = b.get(p);
            if (recordShape) {
                shapeOffsets[2 * i] = p - h;
                shapeBytes[2 * i] = (byte) keyLen;
            }
            if ((keyLen & ONE_BYTE_NON_NEGATIVE) == 0) {
                keyLen >>>= 1;
                p++;
            } else {
                recordShape &= keyLen >= 0;
                long r = rawVarint(b, p, end);
                if (r == MALFORMED) {
                    return false;
                }
                keyLen = zigzag(r);
                p = (int) r;
            }
            if (keyLen < 0 || keyLen >= end - p) {
                return false;
            }
            p += keyLen;
            int valueLen = b.get(p);
            if (recordShape) {
                shapeOffsets[2 * i + 1] = p - h;
                shapeBytes[2 * i + 1] = (byte) valueLen;
            }
            if ((valueLen & ONE_BYTE_NON_NEGATIVE) == 0) {
                valueLen >>>= 1;
                p++;
            } else {
                recordShape &= valueLen >= 0;
                long r = rawVarint(b, p, end);
                if (r == MALFORMED) {
                    return false;
                }
                valueLen = zigzag(r);
                p = (int) r;
            }
            if (valueLen < -1 || valueLen > end - p) {
                return false;
            }
            p += Math.max(valueLen, 0);
        }
        if (p != end) {
            return false;
        }
        if (recordShape) {
            shapeHeaderCount = count;
            shapeLength = end - h;
        }
        return true;
    }
}
