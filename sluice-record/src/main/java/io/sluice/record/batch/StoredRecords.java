package io.sluice.record.batch;

import static io.sluice.record.batch.RecordBatchDescriptor.MAX_VARINT_LENGTH;

import java.nio.ByteBuffer;

/**
 * Reads the records of a compressed batch whose decompressed bytes lie verbatim in its payload
 * (incompressible data: the codec stored it instead of compressing it) where they lie, range by
 * range, instead of decompressing them into a window: a record inside one range is read in
 * place; a record that spans ranges is first gathered into a scratch buffer (at most one record
 * per range boundary is copied).
 *
 * <p>Not thread-safe; one per validator.
 */
public final class StoredRecords {

    private final RecordCursor cursor = new RecordCursor();
    private ByteBuffer source;
    private int[] ranges;
    private int rangeCount;
    private int range;
    private int position;
    private int rangeEnd;
    /** The cursor reads {@code source[.., rangeEnd)} of the current range; its position is the next record's. */
    private boolean inPlace;

    private ByteBuffer scratch;

    /**
     * Starts reading the records stored in {@code source} at the {@code rangeCount} ranges
     * {@code ranges[2i], ranges[2i + 1]} (from, to), in order; records spanning ranges are
     * gathered into {@code scratch} (its contents are discarded; records larger than it are
     * not read here).
     */
    public StoredRecords over(ByteBuffer source, int[] ranges, int rangeCount, ByteBuffer scratch) {
        this.source = source;
        this.ranges = ranges;
        this.rangeCount = rangeCount;
        this.scratch = scratch.clear(); // absolute puts and gets are bounded by the limit a codec may have left
        this.range = 0;
        this.position = rangeCount > 0 ? ranges[0] : 0;
        this.rangeEnd = rangeCount > 0 ? ranges[1] : 0;
        this.inPlace = false;
        return this;
    }

    /**
     * Reads the next record and returns the cursor holding its fields, or null when the bytes left
     * do not hold a whole record, or it spans ranges and is larger than the scratch buffer. A null
     * or an exception leaves the verdict to the codec's decoder: the caller then decompresses the
     * payload and reads it again.
     */
    public RecordCursor next() throws BatchFormatException {
        if (inPlace) {
            position = cursor.window().position();
        }
        while (position == rangeEnd && nextRange()) {
            // empty ranges hold no record bytes
        }
        int size = recordSize(source, position, rangeEnd);
        if (size >= 0 && size <= rangeEnd - position) {
            if (!inPlace) {
                cursor.over(source, position, rangeEnd);
                inPlace = true;
            }
            cursor.next();
            return cursor;
        }
        inPlace = false;
        return gatherSpanningRecord() ? cursor : null;
    }

    /**
     * Reads a run of records of one layout in place (see {@link RecordCursor#nextRun}) when the
     * last record was read in place, returning how many (0 otherwise, or when the next record is
     * not of that layout); their fields are then in {@link #cursor()}.
     */
    public int nextRun(int maxRecords) {
        return inPlace ? cursor.nextRun(maxRecords) : 0;
    }

    /** The cursor holding the fields of the records read last. */
    public RecordCursor cursor() {
        return cursor;
    }

    /** True when any byte follows the records read. */
    public boolean hasRemaining() {
        if (inPlace) {
            position = cursor.window().position();
        }
        if (position < rangeEnd) {
            return true;
        }
        for (int r = range + 1; r < rangeCount; r++) {
            if (ranges[2 * r] < ranges[2 * r + 1]) {
                return true;
            }
        }
        return false;
    }

    private boolean nextRange() {
        if (range + 1 >= rangeCount) {
            return false;
        }
        range++;
        position = ranges[2 * range];
        rangeEnd = ranges[2 * range + 1];
        inPlace = false;
        return true;
    }

    /**
     * Copies the record starting at {@link #position} into the scratch buffer, following it into
     * the next ranges, and points the cursor at the copy; false when the ranges end first, its
     * length prefix is malformed or it does not fit the scratch buffer.
     */
    private boolean gatherSpanningRecord() throws BatchFormatException {
        int gathered = 0;
        int total = INCOMPLETE; // the record's size once its length prefix has been gathered
        while (total < 0 || gathered < total) {
            if (position == rangeEnd && !nextRange()) {
                return false;
            }
            int wanted = total < 0 ? 1 : total - gathered;
            int copied = Math.min(wanted, rangeEnd - position);
            scratch.put(gathered, source, position, copied);
            gathered += copied;
            position += copied;
            if (total < 0) {
                total = recordSize(scratch, 0, gathered);
                if (total == MALFORMED || total > scratch.capacity()) {
                    return false;
                }
            }
        }
        cursor.over(scratch, 0, total);
        cursor.next();
        return true;
    }

    /** Marks a length prefix that is too long, negative, or counts past the largest buffer index. */
    private static final int MALFORMED = Integer.MIN_VALUE;
    /** The length prefix runs past the bytes available. */
    private static final int INCOMPLETE = -1;

    /**
     * The size, prefix included, of the record whose length prefix starts at {@code b[p]} with
     * bytes available up to {@code limit}: {@link #INCOMPLETE} while the prefix itself runs past
     * {@code limit}, {@link #MALFORMED} when it is too long or negative. The record's body may
     * run past {@code limit}.
     */
    private static int recordSize(ByteBuffer b, int p, int limit) {
        int raw = 0;
        for (int i = 0; i < MAX_VARINT_LENGTH; i++) {
            if (p + i >= limit) {
                return INCOMPLETE;
            }
            byte x = b.get(p + i);
            raw |= (x & 0x7f) << (7 * i);
            if (x >= 0) {
                int length = (raw >>> 1) ^ -(raw & 1);
                int size = i + 1 + length;
                return length < 0 || size < 0 ? MALFORMED : size;
            }
        }
        return MALFORMED;
    }
}
