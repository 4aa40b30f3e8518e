package io.sluice.record.batch;

import static io.sluice.record.batch.BoundedVarints.MALFORMED;
import static io.sluice.record.batch.BoundedVarints.longRawVarint;
import static io.sluice.record.batch.BoundedVarints.rawVarint;
import static io.sluice.record.batch.BoundedVarints.zigzag;
import static io.sluice.record.batch.RecordBatchDescriptor.MAX_VARINT_LENGTH;
import static io.sluice.record.batch.RecordBatchDescriptor.MIN_RECORD_BODY;

import java.nio.ByteBuffer;

/**
 * Reads the records of a batch one by one from a {@link ByteWindow}, keeping only the fields a
 * broker checks: key, value and header bytes are skipped, never copied. Layout in
 * {@link RecordBatchDescriptor}.
 *
 * <p>Three paths read a record, each giving the same fields and verdict (property-tested): a
 * record of a learned {@link RecordLayout} lying wholly in the window is checked with a few masked
 * 8-byte words; other records in the window walk the field chain ({@link #nextInWindow}); the rest
 * (records straddling refills, and any error, which it names with {@link CarefulChecks}) take the
 * careful byte-by-byte path. The paths inside the window decode varints with
 * {@link BoundedVarints}; the field chain checks headers with {@link HeaderShape}.
 * Why the words (measured, see docs/benchmarks.md): a checked {@link ByteBuffer#get(int)} costs
 * some 6 to 8 instructions, so a same-layout record read byte by byte (about 20 loads) took some
 * 400 instructions; the walk is bound by instruction throughput, not by memory.
 *
 * <p>Not thread-safe; one per validator, reused for every batch.
 */
public final class RecordCursor {

    /** {@link #lastWalkedLength} before any record was walked: no record has a negative length. */
    private static final int NO_LENGTH = -1;

    private final ByteWindow window = new ByteWindow();
    private final LayoutRun run = new LayoutRun();
    private final BoundedVarints varints = new BoundedVarints();
    /** Header shape of the last record walked header by header. */
    private final HeaderShape headerShape = new HeaderShape();

    private int bodyLength;
    private byte attributes;
    private long timestampDelta;
    private int offsetDelta;
    private int keyLength;
    private int valueLength;
    private int headerCount;
    /** Length of the last record the field chain walked: a second one of that length teaches a layout. */
    private int lastWalkedLength = NO_LENGTH;
    /**
     * The layout learned last and the one before it: batches often hold two (deltas of one byte
     * for the first 64 records, of two after), and a batch then needs no learning.
     */
    private RecordLayout layout = new RecordLayout();

    private RecordLayout previousLayout = new RecordLayout();
    /**
     * False after the field chain read a record without learning a layout from it: records of
     * varying sizes then skip the layout attempts, which would fail, until a layout is learned.
     */
    private boolean tryLayouts = true;

    private long carefulReads;

    /** Starts reading uncompressed records in place from {@code buffer[from, to)}. */
    public RecordCursor over(ByteBuffer buffer, int from, int to) {
        window.over(buffer, from, to);
        layout.keepFor(buffer.order());
        previousLayout.keepFor(buffer.order());
        return this;
    }

    /** Starts reading records from a decompressing stream through a reused buffer. */
    public RecordCursor streaming(ByteBuffer reusable, ByteWindow.Refill source, long maxDecompressedBytes) {
        window.streaming(reusable, source, maxDecompressedBytes);
        layout.keepFor(reusable.order());
        previousLayout.keepFor(reusable.order());
        return this;
    }

    public ByteWindow window() {
        return window;
    }

    /** Reads the next record; its fields are then available through the accessors. */
    public void next() throws BatchFormatException {
        // A streaming window is topped up first, so that the first record of a compressed batch,
        // and a record starting within a few bytes of the window's end, take the layout and field
        // chain paths too (else compressed batches of one record would learn their layout anew
        // every time: measured, 1-record lz4 and zstd cells).
        if (window.request(MAX_VARINT_LENGTH + MIN_RECORD_BODY)
                && (nextInsideWindow() || pullRecordWhole() && nextInsideWindow())) {
            return;
        }
        tryLayouts = true;
        carefulReads++;
        nextAcrossRefills();
    }

    /** Records {@link #next()} read with the careful path since construction (tests check which path ran). */
    long carefulReads() {
        return carefulReads;
    }

    private boolean nextInsideWindow() {
        return tryLayouts && (nextInLayout(layout) || nextInPreviousLayout()) || nextInWindow();
    }

    /**
     * For a streaming window whose next record starts inside it but ends after it: moves the
     * record's bytes to the buffer's front and refills behind them, so that it lies wholly inside
     * and takes the fast paths; returns whether it now does. Records longer than half the buffer,
     * and lengths that are not a record's, are left to the careful path. Why (measured, see
     * docs/benchmarks.md): a record straddling a refill read byte by byte across it cost some
     * 100 ns, once per codec block (snappy's 32 KiB, lz4's 64 KiB); moving a record of 1 KB costs a
     * fraction of that.
     */
    private boolean pullRecordWhole() throws BatchFormatException {
        if (!window.isStreaming()) {
            return false;
        }
        ByteBuffer b = window.buffer();
        int p = window.position();
        // next() made at least MAX_VARINT_LENGTH + MIN_RECORD_BODY bytes readable.
        long r = longRawVarint(b, p, p + MAX_VARINT_LENGTH);
        if (r == MALFORMED) {
            return false;
        }
        int length = zigzag(r);
        int prefixBytes = (int) r - p;
        if (length < MIN_RECORD_BODY || length > b.capacity() / 2 || prefixBytes + length <= window.available()) {
            return false;
        }
        return window.request(prefixBytes + length);
    }

    /**
     * Reads a record of the learned {@link RecordLayout} lying wholly inside the window: its
     * length, varint sizes and length bytes are compared a word at a time, all loads independent
     * of each other; returns false, consuming nothing, when the record is not of that layout.
     */
    private boolean nextInLayout(RecordLayout known) {
        ByteBuffer b = window.buffer();
        int start = window.position();
        int total = known.total;
        if (total > window.limit() - start) {
            return false;
        }
        // Every word lies in [start, start + total), inside the window (RecordLayout.learn).
        long first = known.first(b, start);
        if (((first & known.firstMask) ^ known.firstExpected) != 0) {
            return false; // mostly another length: records of varying sizes cost one load here
        }
        long differs = 0;
        int[] at = known.checkAt;
        long[] mask = known.checkMask;
        long[] expected = known.checkExpected;
        for (int k = 0; k < known.checkEnd; k++) {
            differs |= (b.getLong(start + at[k]) & mask[k]) ^ expected[k];
        }
        if (differs != 0) {
            return false;
        }
        bodyLength = known.bodyLength;
        attributes = known.attributes(first);
        timestampDelta = known.timestampDelta(first);
        offsetDelta = known.offsetDelta(first);
        keyLength = known.keyLength;
        valueLength = known.valueLength;
        headerCount = known.headerCount;
        window.position(start + total);
        return true;
    }

    /**
     * Reads up to {@code maxRecords} (at most {@link LayoutRun#MAX_RECORDS}) consecutive records of
     * the layout learned last that lie wholly inside the window, stopping before the first that is
     * not of it; returns how many it read (0 when the next record is not of that layout, none is
     * known, or unchecked loads are unavailable). Each record read is exactly the one
     * {@link #next()} would read, field for field: {@link #runAttributes}, {@link #runTimestampDelta}
     * and {@link #runOffsetDelta} give the fields that differ between them, the other accessors
     * those they all share (and the last record's deltas). Why (measured, see docs/benchmarks.md):
     * a batch of one layout then costs one bounds check per run and a tight loop of independent
     * word loads per record, instead of a call, a window check, checked loads and seven field
     * stores per record.
     */
    public int nextRun(int maxRecords) {
        RecordLayout known = layout;
        int start = window.position();
        // total is Integer.MAX_VALUE when no layout is known: then no record fits
        int fit = tryLayouts ? (window.limit() - start) / known.total : 0;
        int read = run.read(known, window.buffer(), start, Math.min(maxRecords, fit));
        if (read > 0) {
            bodyLength = known.bodyLength;
            attributes = run.attributes(read - 1);
            timestampDelta = run.timestampDelta(read - 1);
            offsetDelta = run.offsetDelta(read - 1);
            keyLength = known.keyLength;
            valueLength = known.valueLength;
            headerCount = known.headerCount;
            window.position(start + read * known.total);
        }
        return read;
    }

    /** OR of the attributes of every record of the last {@link #nextRun}. */
    public int runAttributesOr() {
        return run.attributesOr();
    }

    /** True when each offsetDelta of the last {@link #nextRun} is the one of the record before it plus one. */
    public boolean runOffsetDeltasFollowOn() {
        return run.offsetDeltasFollowOn();
    }

    /** Least timestampDelta of the last {@link #nextRun}. */
    public long runLeastTimestampDelta() {
        return run.leastTimestampDelta();
    }

    /** Greatest timestampDelta of the last {@link #nextRun}. */
    public long runGreatestTimestampDelta() {
        return run.greatestTimestampDelta();
    }

    /** Index (from 0) in the last {@link #nextRun} of the first record with the greatest timestampDelta. */
    public int runGreatestTimestampAt() {
        return run.greatestTimestampAt();
    }

    /** Attributes of record {@code k} (from 0) of the last {@link #nextRun}, until the cursor reads again. */
    public byte runAttributes(int k) {
        return run.attributes(k);
    }

    public long runTimestampDelta(int k) {
        return run.timestampDelta(k);
    }

    public int runOffsetDelta(int k) {
        return run.offsetDelta(k);
    }

    /** Reads a record of the layout before the last, which then becomes the last. */
    private boolean nextInPreviousLayout() {
        if (!nextInLayout(previousLayout)) {
            return false;
        }
        swapLayouts();
        return true;
    }

    private void swapLayouts() {
        RecordLayout last = layout;
        layout = previousLayout;
        previousLayout = last;
    }

    /** Bytes (length prefix included) of a record of the layout learned last, or -1 when none is known (tests). */
    int learnedLayoutBytes() {
        return layout.total == Integer.MAX_VALUE ? -1 : layout.total;
    }

    /** Reads the next record with the careful path only (tests compare it with {@link #next()}). */
    void nextCarefully() throws BatchFormatException {
        nextAcrossRefills();
    }

    /**
     * Fast path for a record lying wholly inside the window: parses with local positions and no
     * refill checks. Returns false, consuming nothing, on anything unusual; the careful path then
     * reads the same bytes again and names the problem.
     *
     * <p>Why it is shaped this way (measured, see docs/benchmarks.md): the fields of a record
     * form a serial chain (each length says where the next field starts), so the next record's
     * start is taken from the length prefix alone and the rest of the record is checked off that
     * chain, letting the CPU overlap records; varints of one and two bytes (nearly all of them)
     * are decoded without a loop; header lengths, nearly always one byte, are skipped with a
     * shift.
     */
    private boolean nextInWindow() {
        ByteBuffer b = window.buffer();
        int limit = window.limit();
        int p = window.position();
        // next() left at least MAX_VARINT_LENGTH + MIN_RECORD_BODY bytes in the window.
        int length = b.get(p);
        int y;
        if (length >= 0) {
            p++;
        } else if ((y = b.get(p + 1)) >= 0) {
            length = (length & 0x7f) | (y << 7);
            p += 2;
        } else {
            long r = longRawVarint(b, p, p + MAX_VARINT_LENGTH);
            if (r == MALFORMED) {
                return false;
            }
            length = (int) (r >>> 32);
            p = (int) r;
        }
        length = (length >>> 1) ^ -(length & 1);
        if (length < MIN_RECORD_BODY || length > limit - p) {
            return false;
        }
        int end = p + length;
        int prefixBytes = p - window.position();
        // The record has at least MIN_RECORD_BODY bytes: attributes and up to two bytes each of
        // timestampDelta and offsetDelta lie inside it, so those reads need no bound check. The
        // two decodes are written out: a shared helper returning value and size packed in one int
        // measured 12% slower for the whole walk.
        byte attrs = b.get(p++);
        long tsDelta = b.get(p);
        if (tsDelta >= 0) {
            p++;
        } else if ((y = b.get(p + 1)) >= 0) {
            tsDelta = (tsDelta & 0x7f) | (y << 7);
            p += 2;
        } else {
            p = varints.varlong(b, p, end);
            if (p < 0 || end - p < 2) {
                return false; // offsetDelta's two bytes below are no longer known to be inside
            }
            tsDelta = varints.varlongRaw();
        }
        tsDelta = (tsDelta >>> 1) ^ -(tsDelta & 1);
        int offDelta = b.get(p);
        if (offDelta >= 0) {
            p++;
        } else if ((y = b.get(p + 1)) >= 0) {
            offDelta = (offDelta & 0x7f) | (y << 7);
            p += 2;
        } else {
            long r = longRawVarint(b, p, end);
            if (r == MALFORMED) {
                return false;
            }
            offDelta = (int) (r >>> 32);
            p = (int) r;
        }
        offDelta = (offDelta >>> 1) ^ -(offDelta & 1);
        if (p >= end) {
            return false;
        }
        long r = rawVarint(b, p, end);
        if (r == MALFORMED) {
            return false;
        }
        int keyLen = zigzag(r);
        p = (int) r;
        int keySkip = Math.max(keyLen, 0);
        if (keyLen < -1 || keySkip >= end - p) {
            return false;
        }
        p += keySkip;
        r = rawVarint(b, p, end);
        if (r == MALFORMED) {
            return false;
        }
        int valueLen = zigzag(r);
        p = (int) r;
        int valueSkip = Math.max(valueLen, 0);
        if (valueLen < -1 || valueSkip >= end - p) {
            return false;
        }
        p += valueSkip;
        r = rawVarint(b, p, end);
        if (r == MALFORMED) {
            return false;
        }
        int headers = zigzag(r);
        p = (int) r;
        if (headers < 0
                || headers > end - p
                || !headerShape.sameShape(b, p, headers, end - p) && !headerShape.headersEndAt(b, p, end, headers)) {
            return false;
        }
        tryLayouts = length == lastWalkedLength;
        if (tryLayouts) {
            swapLayouts();
            layout.learn(b, window.position(), prefixBytes + length);
        }
        lastWalkedLength = length;
        bodyLength = length;
        attributes = attrs;
        timestampDelta = tsDelta;
        offsetDelta = offDelta;
        keyLength = keyLen;
        valueLength = valueLen;
        headerCount = headers;
        window.position(end);
        return true;
    }

    private void nextAcrossRefills() throws BatchFormatException {
        int length = window.readVarint();
        CarefulChecks.recordLength(length, MIN_RECORD_BODY);
        long end = window.streamPosition() + length;
        bodyLength = length;
        attributes = window.readByte();
        timestampDelta = window.readVarlong();
        offsetDelta = window.readVarint();
        keyLength = window.readVarint();
        CarefulChecks.skipField(window, "key", keyLength, true, end);
        valueLength = window.readVarint();
        CarefulChecks.skipField(window, "value", valueLength, true, end);
        headerCount = window.readVarint();
        CarefulChecks.headerCount(headerCount, end - window.streamPosition());
        for (int i = 0; i < headerCount; i++) {
            CarefulChecks.skipField(window, "header key", window.readVarint(), false, end);
            CarefulChecks.skipField(window, "header value", window.readVarint(), true, end);
        }
        CarefulChecks.fieldsTakeLength(length, window.streamPosition() - (end - length));
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
}
