package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.CRC_COVERED_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORD_BATCH_OVERHEAD;

import io.sluice.log.batch.BatchFraming;
import io.sluice.record.batch.Crc32cCombine;
import io.sluice.record.batch.RecordBatchView;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Checks the record batches of a segment file as its bytes stream past, in order, in runs of any size and alignment:
 * each batch's framing ({@link BatchFraming}), that its offsets rise and stay within {@code [nextOffsetAtLeast,
 * lastOffset]}, and its CRC-32C, computed on the bytes as they are handed in, so a file being received is checked
 * without being read back. Holds one batch header (61 bytes) and a running CRC; a forged length costs nothing.
 * After the first problem it ignores further bytes until {@link #restart}. The batches that passed are kept (position,
 * size, last offset and largest timestamp: 28 bytes each) until {@link #drainChecked} hands them on, so whoever takes
 * the outcome can index them without reading the file again.
 *
 * <p>It also gives the CRC-32C of any range of the bytes handed in ({@link #startRange}, {@link #rangeCrc}), such as a
 * received chunk's, without a second pass over them: a batch body's bytes are only run through the batch's own CRC,
 * and the range's checksum is derived from that CRC's values where the range and the body meet (CRC(A·B) =
 * CRC(A)·x^(8|B|) + CRC(B)); the header's 61 bytes, and every byte once a problem was found, are checksummed directly.
 *
 * <p>Not thread-safe; one per file being received.
 */
public final class BatchStreamCheck {
    /** Takes the batches that passed, in file order. */
    public interface CheckedBatchSink {
        void checked(long position, int sizeInBytes, long lastOffset, long maxTimestamp);
    }

    private static final int INITIAL_CHECKED_CAPACITY = 64;
    private final ByteBuffer header = ByteBuffer.allocate(RECORD_BATCH_OVERHEAD);
    private final RecordBatchView batch = new RecordBatchView().wrap(header, 0);
    private final CRC32C crc = new CRC32C();
    /** Checksums header pieces, and every byte after a problem, for the range checksum. */
    private final CRC32C direct = new CRC32C();

    private final long fileSize;
    private final long lastOffset;
    /** File position of the first byte not seen yet. */
    private long position;
    /** File position just after the last batch that passed every check. */
    private long checkedUpTo;

    private long nextOffsetAtLeast;
    /** Bytes of the current batch still to come once its header is complete; -1 while the header is incomplete. */
    private long bodyLeft = -1;

    private int storedCrc;
    private String problem;
    private long problemAt = -1;
    private long batches;

    /** Batches that passed since the last {@link #drainChecked} or {@link #restart}: start positions, ... */
    private long[] checkedPositions = new long[INITIAL_CHECKED_CAPACITY];
    /** ... sizes, ... */
    private int[] checkedSizes = new int[INITIAL_CHECKED_CAPACITY];
    /** ... last offsets ... */
    private long[] checkedLastOffsets = new long[INITIAL_CHECKED_CAPACITY];
    /** ... and largest timestamps. */
    private long[] checkedMaxTimestamps = new long[INITIAL_CHECKED_CAPACITY];

    private int checkedCount;

    /** CRC-32C of the range's bytes up to {@link #bodyMark} (or up to {@link #position} outside a body). */
    private int rangeCrc;
    /** Inside a body: the position from which the body's bytes are not yet in {@link #rangeCrc}... */
    private long bodyMark;
    /** ... and the batch CRC's value there. */
    private int bodyCrcAtMark;

    /**
     * @param fileSize   the file's full size: no batch may run past it
     * @param lastOffset the last offset the file may hold
     */
    public BatchStreamCheck(long fileSize, long lastOffset) {
        this.fileSize = fileSize;
        this.lastOffset = lastOffset;
    }

    /**
     * Starts over at {@code batchBoundary}, a position just after a checked batch (or 0), whose next batch must start
     * at offset {@code nextOffsetAtLeast} or later; the bytes from there on must be handed in again.
     */
    public BatchStreamCheck restart(long batchBoundary, long nextOffsetAtLeast) {
        this.position = batchBoundary;
        this.checkedUpTo = batchBoundary;
        this.nextOffsetAtLeast = nextOffsetAtLeast;
        header.clear();
        bodyLeft = -1;
        problem = null;
        problemAt = -1;
        checkedCount = 0;
        return this;
    }

    /** Starts a range at {@link #position()}: {@link #rangeCrc} covers the bytes handed in from here on. */
    public void startRange() {
        rangeCrc = 0;
        markBody();
    }

    /** The CRC-32C of the bytes handed in since {@link #startRange} (0 for none). */
    public int rangeCrc() {
        if (bodyLeft >= 0) {
            foldBody();
            markBody();
        }
        return rangeCrc;
    }

    /** Checks the bytes of {@code run} (from its position to its limit, left unconsumed) as the next ones of the file. */
    public void accept(ByteBuffer run) {
        if (problem != null) {
            addDirect(run, run.position(), run.remaining());
            position += run.remaining();
            return;
        }
        int at = run.position();
        int end = run.limit();
        ByteBuffer view = run.duplicate(); // one view per run, not a slice per batch body
        while (at < end && problem == null) {
            if (bodyLeft < 0) {
                int take = Math.min(header.remaining(), end - at);
                int into = header.position();
                header.put(into, run, at, take);
                header.position(into + take);
                addDirect(header.array(), into, take);
                at += take;
                position += take;
                if (!header.hasRemaining()) {
                    startBody();
                    markBody();
                }
            } else {
                int take = (int) Math.min(bodyLeft, end - at);
                crc.update(view.limit(at + take).position(at));
                at += take;
                position += take;
                bodyLeft -= take;
            }
            if (bodyLeft == 0 && problem == null) {
                endBatch();
            }
        }
        if (at < end) {
            addDirect(run, at, end - at); // after a problem
        }
        position += end - at;
    }

    /** Adds {@code length} bytes of {@code run} from {@code at} to the range checksum by reading them. */
    private void addDirect(ByteBuffer run, int at, int length) {
        direct.reset();
        direct.update(run.slice(at, length));
        rangeCrc = Crc32cCombine.combine(rangeCrc, (int) direct.getValue(), length);
    }

    private void addDirect(byte[] bytes, int at, int length) {
        direct.reset();
        direct.update(bytes, at, length);
        rangeCrc = Crc32cCombine.combine(rangeCrc, (int) direct.getValue(), length);
    }

    /** Adds the body's bytes since {@link #bodyMark} to the range checksum, from the batch CRC's values. */
    private void foldBody() {
        rangeCrc = Crc32cCombine.shift(rangeCrc ^ bodyCrcAtMark, position - bodyMark) ^ (int) crc.getValue();
    }

    private void markBody() {
        bodyMark = position;
        bodyCrcAtMark = (int) crc.getValue();
    }

    private void startBody() {
        long batchStart = position - RECORD_BATCH_OVERHEAD;
        String framing = BatchFraming.check(batch, fileSize - batchStart);
        if (framing != null) {
            fail(batchStart, framing);
            return;
        }
        if (batch.baseOffset() < nextOffsetAtLeast || batch.lastOffset() > lastOffset) {
            fail(
                    batchStart,
                    "offsets " + batch.baseOffset() + ".." + batch.lastOffset() + " outside [" + nextOffsetAtLeast
                            + ", " + lastOffset + "]");
            return;
        }
        storedCrc = batch.storedCrc();
        crc.reset();
        crc.update(header.array(), CRC_COVERED_OFFSET, RECORD_BATCH_OVERHEAD - CRC_COVERED_OFFSET);
        bodyLeft = (long) batch.batchLength() + LOG_OVERHEAD - RECORD_BATCH_OVERHEAD;
    }

    private void endBatch() {
        foldBody();
        markBody();
        long batchStart = checkedUpTo;
        if ((int) crc.getValue() != storedCrc) {
            fail(batchStart, "CRC-32C mismatch in batch at baseOffset " + batch.baseOffset());
            return;
        }
        nextOffsetAtLeast = batch.lastOffset() + 1;
        keepChecked(batchStart, (int) (position - batchStart), batch.lastOffset(), batch.maxTimestamp());
        checkedUpTo = position;
        batches++;
        header.clear();
        bodyLeft = -1;
    }

    private void keepChecked(long batchStart, int size, long lastOffset, long maxTimestamp) {
        int n = checkedCount;
        if (n == checkedPositions.length) {
            int capacity = n * 2;
            checkedPositions = Arrays.copyOf(checkedPositions, capacity);
            checkedSizes = Arrays.copyOf(checkedSizes, capacity);
            checkedLastOffsets = Arrays.copyOf(checkedLastOffsets, capacity);
            checkedMaxTimestamps = Arrays.copyOf(checkedMaxTimestamps, capacity);
        }
        checkedPositions[n] = batchStart;
        checkedSizes[n] = size;
        checkedLastOffsets[n] = lastOffset;
        checkedMaxTimestamps[n] = maxTimestamp;
        checkedCount = n + 1;
    }

    /**
     * Hands every batch that passed since the last call (or {@link #restart}) to {@code sink}, in file order, and
     * forgets them: all of them lie below {@link #checkedUpTo()}.
     */
    public void drainChecked(CheckedBatchSink sink) {
        int n = checkedCount;
        checkedCount = 0;
        for (int i = 0; i < n; i++) {
            sink.checked(checkedPositions[i], checkedSizes[i], checkedLastOffsets[i], checkedMaxTimestamps[i]);
        }
    }

    private void fail(long batchStart, String why) {
        problem = why;
        problemAt = batchStart;
        bodyLeft = -1; // no body is followed any more: the range checksum reads every further byte
    }

    /** File position just after the last batch that passed every check. */
    public long checkedUpTo() {
        return checkedUpTo;
    }

    /** The lowest offset the next batch may start at: one past the last checked batch's last offset. */
    public long nextOffsetAtLeast() {
        return nextOffsetAtLeast;
    }

    /** File position of the next byte expected. */
    public long position() {
        return position;
    }

    /** What was wrong with the batch at {@link #problemAt()}, null while nothing was. */
    public String problem() {
        return problem;
    }

    /** Start of the batch that failed, -1 while none did. */
    public long problemAt() {
        return problemAt;
    }

    /** Batches that passed, since construction. */
    public long batches() {
        return batches;
    }

    /**
     * Whether the whole file has been seen and is nothing but checked batches ending exactly at its last offset;
     * otherwise {@link #endProblem()} says what is missing.
     */
    public boolean completeAndWhole() {
        return problem == null && checkedUpTo == fileSize && nextOffsetAtLeast == lastOffset + 1;
    }

    /** Why a file seen to its end is not {@link #completeAndWhole()}. */
    public String endProblem() {
        if (problem != null) {
            return "batch at position " + problemAt + ": " + problem;
        }
        return (fileSize - checkedUpTo) + " bytes that are not a whole batch, or before its last offset " + lastOffset
                + " (next offset " + nextOffsetAtLeast + ")";
    }
}
