package io.sluice.record.batch;

import static io.sluice.record.batch.RecordBatchDescriptor.MAX_VARINT_LENGTH;

import java.nio.ByteBuffer;

/**
 * Reads the records of a batch one by one from a {@link ByteWindow}, keeping only the fields a
 * broker checks: key, value and header bytes are skipped, never copied. Layout in
 * {@link RecordBatchDescriptor}.
 *
 * <p>Not thread-safe; one per validator, reused for every batch.
 */
public final class RecordCursor {

    /** attributes + timestampDelta + offsetDelta + keyLength + valueLength + headerCount, 1 byte each. */
    private static final int MIN_RECORD_BODY = 6;

    private final ByteWindow window = new ByteWindow();
    private int bodyLength;
    private byte attributes;
    private long timestampDelta;
    private int offsetDelta;
    private int keyLength;
    private int valueLength;
    private int headerCount;

    /** Starts reading uncompressed records in place from {@code buffer[from, to)}. */
    public RecordCursor over(ByteBuffer buffer, int from, int to) {
        window.over(buffer, from, to);
        return this;
    }

    /** Starts reading records from a decompressing stream through a reused buffer. */
    public RecordCursor streaming(ByteBuffer reusable, ByteWindow.Refill source, long maxDecompressedBytes) {
        window.streaming(reusable, source, maxDecompressedBytes);
        return this;
    }

    public ByteWindow window() {
        return window;
    }

    /** Reads the next record; its fields are then available through the accessors. */
    public void next() throws BatchFormatException {
        if (window.available() < MAX_VARINT_LENGTH + MIN_RECORD_BODY || !nextInWindow()) {
            nextAcrossRefills();
        }
    }

    /**
     * Fast path for a record lying wholly inside the window: parses with local positions and no
     * refill checks. Returns false, consuming nothing, on anything unusual; the careful path then
     * reads the same bytes again and names the problem.
     */
    private boolean nextInWindow() {
        ByteBuffer b = window.buffer();
        int start = window.position();
        int limit = window.limit();
        long r = varint(b, start, start + MAX_VARINT_LENGTH);
        if (r == MALFORMED) {
            return false;
        }
        int length = (int) (r >> 32);
        int p = (int) r;
        int end = p + length;
        if (length < MIN_RECORD_BODY || length > limit - p) {
            return false;
        }
        byte attrs = b.get(p++);
        long tsDelta = 0;
        int shift = 0;
        while (true) {
            if (p >= end || shift > 63) {
                return false;
            }
            byte x = b.get(p++);
            tsDelta |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                break;
            }
            shift += 7;
        }
        if (p >= end) {
            return false;
        }
        int offDelta = b.get(p);
        if (offDelta >= 0) {
            offDelta = (offDelta >>> 1) ^ -(offDelta & 1);
            p++;
        } else {
            r = varint(b, p, end);
            if (r == MALFORMED) {
                return false;
            }
            offDelta = (int) (r >> 32);
            p = (int) r;
        }
        if (p >= end) {
            return false;
        }
        int keyLen = b.get(p);
        if (keyLen >= 0) {
            keyLen = (keyLen >>> 1) ^ -(keyLen & 1);
            p++;
        } else {
            r = varint(b, p, end);
            if (r == MALFORMED) {
                return false;
            }
            keyLen = (int) (r >> 32);
            p = (int) r;
        }
        if (keyLen < -1 || keyLen > end - p) {
            return false;
        }
        p += Math.max(keyLen, 0);
        if (p >= end) {
            return false;
        }
        int valueLen = b.get(p);
        if (valueLen >= 0) {
            valueLen = (valueLen >>> 1) ^ -(valueLen & 1);
            p++;
        } else {
            r = varint(b, p, end);
            if (r == MALFORMED) {
                return false;
            }
            valueLen = (int) (r >> 32);
            p = (int) r;
        }
        if (valueLen < -1 || valueLen > end - p) {
            return false;
        }
        p += Math.max(valueLen, 0);
        if (p >= end) {
            return false;
        }
        int headers = b.get(p);
        if (headers >= 0) {
            headers = (headers >>> 1) ^ -(headers & 1);
            p++;
        } else {
            r = varint(b, p, end);
            if (r == MALFORMED) {
                return false;
            }
            headers = (int) (r >> 32);
            p = (int) r;
        }
        if (headers < 0 || headers > end - p) {
            return false;
        }
        for (int i = 0; i < headers; i++) {
            // Header lengths are nearly always one-byte varints (below 64): decode those inline.
            if (p >= end) {
                return false;
            }
            int headerKeyLen = b.get(p);
            if (headerKeyLen >= 0) {
                headerKeyLen = (headerKeyLen >>> 1) ^ -(headerKeyLen & 1);
                p++;
            } else {
                r = varint(b, p, end);
                if (r == MALFORMED) {
                    return false;
                }
                headerKeyLen = (int) (r >> 32);
                p = (int) r;
            }
            if (headerKeyLen < 0 || headerKeyLen >= end - p) {
                return false;
            }
            p += headerKeyLen;
            int headerValueLen = b.get(p);
            if (headerValueLen >= 0) {
                headerValueLen = (headerValueLen >>> 1) ^ -(headerValueLen & 1);
                p++;
            } else {
                r = varint(b, p, end);
                if (r == MALFORMED) {
                    return false;
                }
                headerValueLen = (int) (r >> 32);
                p = (int) r;
            }
            if (headerValueLen < -1 || headerValueLen > end - p) {
                return false;
            }
            p += Math.max(headerValueLen, 0);
        }
        if (p != end) {
            return false;
        }
        bodyLength = length;
        attributes = attrs;
        timestampDelta = (tsDelta >>> 1) ^ -(tsDelta & 1);
        offsetDelta = offDelta;
        keyLength = keyLen;
        valueLength = valueLen;
        headerCount = headers;
        window.position(p);
        return true;
    }

    /** Marks a varint that is too long or runs past its bound (no valid packed result is negative). */
    private static final long MALFORMED = -1L;

    /**
     * Decodes a zigzag varint at {@code p}, not reading at or past {@code end}; returns the value
     * in the high 32 bits and the next position in the low 32 bits, or {@link #MALFORMED}.
     */
    private static long varint(ByteBuffer b, int p, int end) {
        int raw = 0;
        int shift = 0;
        while (p < end && shift <= 28) {
            byte x = b.get(p++);
            raw |= (x & 0x7f) << shift;
            if (x >= 0) {
                int value = (raw >>> 1) ^ -(raw & 1);
                return ((long) value << 32) | p;
            }
            shift += 7;
        }
        return MALFORMED;
    }

    private void nextAcrossRefills() throws BatchFormatException {
        int length = window.readVarint();
        if (length < MIN_RECORD_BODY) {
            throw malformed("record length " + length + " is below the minimum of " + MIN_RECORD_BODY);
        }
        long end = window.streamPosition() + length;
        bodyLength = length;
        attributes = window.readByte();
        timestampDelta = window.readVarlong();
        offsetDelta = window.readVarint();
        keyLength = window.readVarint();
        skipBytes("key", keyLength, true, end);
        valueLength = window.readVarint();
        skipBytes("value", valueLength, true, end);
        headerCount = window.readVarint();
        if (headerCount < 0 || headerCount > end - window.streamPosition()) {
            throw malformed("header count " + headerCount + " is negative or above the "
                    + (end - window.streamPosition()) + " bytes left in the record");
        }
        for (int i = 0; i < headerCount; i++) {
            skipBytes("header key", window.readVarint(), false, end);
            skipBytes("header value", window.readVarint(), true, end);
        }
        long read = window.streamPosition() - (end - length);
        if (read != length) {
            throw malformed("record length " + length + " does not match the " + read + " bytes its fields take");
        }
    }

    /** True when bytes follow the last record read (trailing bytes are an error after the last). */
    public boolean hasRemaining() throws BatchFormatException {
        return window.hasRemaining();
    }

    /** Record length as written (bytes after the length varint). */
    public int bodyLength() {
        return bodyLength;
    }

    public byte attributes() {
        return attributes;
    }

    public long timestampDelta() {
        return timestampDelta;
    }

    public int offsetDelta() {
        return offsetDelta;
    }

    /** -1 for a null key. */
    public int keyLength() {
        return keyLength;
    }

    /** -1 for a null value. */
    public int valueLength() {
        return valueLength;
    }

    public int headerCount() {
        return headerCount;
    }

    private void skipBytes(String field, int length, boolean nullable, long recordEnd) throws BatchFormatException {
        if (length < (nullable ? -1 : 0)) {
            throw malformed(field + " length " + length + " is below " + (nullable ? "-1" : "0"));
        }
        if (length <= 0) {
            return;
        }
        long left = recordEnd - window.streamPosition();
        if (length > left) {
            throw malformed(field + " length " + length + " exceeds the " + left + " bytes left in the record");
        }
        window.skip(length);
    }

    private static BatchFormatException malformed(String message) {
        return new BatchFormatException(BatchFormatException.Reason.MALFORMED_RECORD, message);
    }
}
