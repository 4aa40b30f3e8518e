package io.sluice.record.batch;

import io.sluice.codec.memory.RawMemory;
import java.nio.ByteBuffer;

/**
 * Reads runs of consecutive records of one {@link RecordLayout}, checking each record's words
 * (see {@link RecordLayout}) with {@link RawWords} loads after a single bounds check for the whole
 * run: every record of the run lies in {@code [start, start + n * total)}, checked against the
 * buffer's capacity here, and every word lies inside its record ({@link RecordLayout#learn}). The
 * first word of each record read is kept for its attributes and deltas.
 *
 * <p>Not thread-safe; one per {@link RecordCursor}.
 */
final class LayoutRun {

    /** Most records one run reads: their first words fit a small reused array. */
    static final int MAX_RECORDS = 64;

    private final long[] firstWords = new long[MAX_RECORDS];
    private RecordLayout layout;
    /** What the records of the last run share, gathered once it is read (see {@link RecordCursor#nextRun}). */
    private int attributesOr;

    private boolean offsetDeltasFollowOn;
    private long leastTimestampDelta;
    private long greatestTimestampDelta;
    private int greatestTimestampAt;

    /**
     * Reads up to {@code maxRecords} (at most {@link #MAX_RECORDS}) records of {@code known} from
     * {@code start} in {@code buffer}, stopping before the first that is not of that layout;
     * returns how many. Returns 0 without reading when the run would leave the buffer or
     * {@link RawWords} is unavailable.
     */
    int read(RecordLayout known, ByteBuffer buffer, int start, int maxRecords) {
        int n = Math.min(maxRecords, MAX_RECORDS);
        if (!RawWords.AVAILABLE || n <= 0 || start < 0 || (long) start + (long) n * known.total > buffer.capacity()) {
            return 0;
        }
        layout = known;
        byte[] array = RawMemory.array(buffer);
        long address = RawMemory.address(buffer);
        return array == null ? readDirect(known, address, start, n) : readHeap(known, array, address, start, n);
    }

    /** OR of the attributes of every record of the last run. */
    int attributesOr() {
        return attributesOr;
    }

    /** True when each record's offsetDelta in the last run is the one before it plus one. */
    boolean offsetDeltasFollowOn() {
        return offsetDeltasFollowOn;
    }

    long leastTimestampDelta() {
        return leastTimestampDelta;
    }

    long greatestTimestampDelta() {
        return greatestTimestampDelta;
    }

    /** Index in the last run of the first record with {@link #greatestTimestampDelta}. */
    int greatestTimestampAt() {
        return greatestTimestampAt;
    }

    byte attributes(int k) {
        return layout.attributes(firstWords[k]);
    }

    long timestampDelta(int k) {
        return layout.timestampDelta(firstWords[k]);
    }

    int offsetDelta(int k) {
        return layout.offsetDelta(firstWords[k]);
    }

    // Two copies of one loop, off-heap and on-heap: an unchecked load whose base may or may not be
    // null makes C2 reload every field after it (see RawWords).

    private int readDirect(RecordLayout known, long address, int start, int n) {
        long firstMask = known.firstMask;
        long firstExpected = known.firstExpected;
        int[] at = known.checkAt;
        long[] mask = known.checkMaskLittleEndian;
        long[] expected = known.checkExpectedLittleEndian;
        int words = known.checkEnd;
        int total = known.total;
        long[] firsts = firstWords;
        int read = 0;
        for (int p = start; read < n; read++, p += total) {
            long first = RawWords.direct(address, p);
            long differs = (first & firstMask) ^ firstExpected;
            for (int k = 0; k < words; k++) {
                differs |= (RawWords.direct(address, p + at[k]) & mask[k]) ^ expected[k];
            }
            if (differs != 0) {
                break;
            }
            firsts[read] = first;
        }
        summarize(known, read);
        return read;
    }

    private int readHeap(RecordLayout known, byte[] array, long address, int start, int n) {
        long firstMask = known.firstMask;
        long firstExpected = known.firstExpected;
        int[] at = known.checkAt;
        long[] mask = known.checkMaskLittleEndian;
        long[] expected = known.checkExpectedLittleEndian;
        int words = known.checkEnd;
        int total = known.total;
        long[] firsts = firstWords;
        int read = 0;
        for (int p = start; read < n; read++, p += total) {
            long first = RawWords.heap(array, address, p);
            long differs = (first & firstMask) ^ firstExpected;
            for (int k = 0; k < words; k++) {
                differs |= (RawWords.heap(array, address, p + at[k]) & mask[k]) ^ expected[k];
            }
            if (differs != 0) {
                break;
            }
            firsts[read] = first;
        }
        summarize(known, read);
        return read;
    }

    /** Gathers what the {@code read} records of the run share from their first words. */
    private void summarize(RecordLayout known, int read) {
        long[] firsts = firstWords;
        int attributes = 0;
        int steps = 0;
        int firstOffsetDelta = read == 0 ? 0 : known.offsetDelta(firsts[0]);
        long least = Long.MAX_VALUE;
        long greatest = Long.MIN_VALUE;
        int greatestAt = 0;
        for (int r = 0; r < read; r++) {
            long first = firsts[r];
            attributes |= known.attributes(first);
            steps |= (known.offsetDelta(first) - r) ^ firstOffsetDelta;
            long timestampDelta = known.timestampDelta(first);
            least = Math.min(least, timestampDelta);
            if (timestampDelta > greatest) {
                greatest = timestampDelta;
                greatestAt = r;
            }
        }
        attributesOr = attributes;
        offsetDeltasFollowOn = steps == 0;
        leastTimestampDelta = least;
        greatestTimestampDelta = greatest;
        greatestTimestampAt = greatestAt;
    }
}
