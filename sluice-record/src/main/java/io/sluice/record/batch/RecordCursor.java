package io.sluice.record.batch;

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
