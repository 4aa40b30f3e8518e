package io.sluice.record.batch;

import java.nio.ByteBuffer;

/**
 * Varints and varlongs decoded at absolute positions of a buffer, never reading at or past a bound
 * the caller gives: the decoding of {@link RecordCursor}'s in-window paths, which report a bad
 * varint as {@link #MALFORMED} (or -1) and leave naming it to the careful path. Varints come back
 * packed with the next position in one long, so no object and no second return value is needed.
 *
 * <p>Not thread-safe (the last varlong's bits); one per {@link RecordCursor}. The static decoders
 * are stateless.
 */
final class BoundedVarints {

    /** Marks a varint that is too long or runs past its bound (no valid packed result is -1). */
    static final long MALFORMED = -1L;

    /** The raw bits of the last {@link #varlong} decoded (a long does not fit beside a position in a long). */
    private long varlongRaw;

    /**
     * Decodes the varint at {@code p} (p &lt; end), not reading at or past {@code end}, without
     * zigzag decoding; returns the raw 32 bits in the high half and the next position in the low
     * half, or {@link #MALFORMED} when it runs past {@code end} or past 5 bytes. One- and two-byte
     * varints take no loop.
     */
    static long rawVarint(ByteBuffer b, int p, int end) {
        int x = b.get(p);
        if (x >= 0) {
            return ((long) x << 32) | (p + 1);
        }
        if (p + 1 < end) {
            int y = b.get(p + 1);
            if (y >= 0) {
                return ((long) ((x & 0x7f) | (y << 7)) << 32) | (p + 2);
            }
        }
        return longRawVarint(b, p, end);
    }

    /** {@link #rawVarint} with a loop for every length: for varints known or likely to take more than two bytes. */
    static long longRawVarint(ByteBuffer b, int p, int end) {
        int raw = 0;
        int shift = 0;
        while (p < end && shift <= 28) {
            byte x = b.get(p++);
            raw |= (x & 0x7f) << shift;
            if (x >= 0) {
                return ((long) raw << 32) | p;
            }
            shift += 7;
        }
        return MALFORMED;
    }

    /** The zigzag-decoded value of a {@link #rawVarint} result. */
    static int zigzag(long packed) {
        int raw = (int) (packed >>> 32);
        return (raw >>> 1) ^ -(raw & 1);
    }

    /**
     * Decodes a varlong at {@code p}, not reading at or past {@code end}, into {@link #varlongRaw}
     * (not zigzag-decoded); returns the next position, or -1 when it runs past {@code end} or
     * past 10 bytes.
     */
    int varlong(ByteBuffer b, int p, int end) {
        long raw = 0;
        int shift = 0;
        while (p < end && shift <= 63) {
            byte x = b.get(p++);
            raw |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                varlongRaw = raw;
                return p;
            }
            shift += 7;
        }
        return -1;
    }

    /** The raw bits (not zigzag-decoded) of the varlong the last successful {@link #varlong} read. */
    long varlongRaw() {
        return varlongRaw;
    }
}
