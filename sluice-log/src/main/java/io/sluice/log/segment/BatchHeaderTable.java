package io.sluice.log.segment;

import io.sluice.record.batch.RecordBatchDescriptor;
import java.util.Arrays;

/**
 * What a sender needs to vouch for a segment's bytes without reading its batch headers back: for every batch appended
 * to the segment in this process, its file position, the CRC-32C of its first
 * {@link RecordBatchDescriptor#ATTRIBUTES_OFFSET} bytes and the CRC-32C it stores for the rest; and where the last
 * batch ends. Reading the headers back costs a page fault and a page mapping per header where a producer's
 * batch-by-batch writes left the segment in small page-cache folios; the header is in memory when it is appended.
 * Twelve bytes per batch, within {@link BatchHeaderTables}' memory budget, which may drop the table at any time.
 *
 * <p>Written by the segment's appending thread only; read by any thread: a reader sees the entries below the
 * {@link #count()} it read, whose write comes after theirs.
 */
public final class BatchHeaderTable {
    private static final int INTS_PER_BATCH = 3;
    private static final int FIRST_CAPACITY = 64;

    private final BatchHeaderTables owner;
    private int[] entries = new int[INTS_PER_BATCH * FIRST_CAPACITY];
    private volatile int end;
    private volatile int count;
    private volatile boolean dropped;

    BatchHeaderTable(BatchHeaderTables owner) {
        this.owner = owner;
    }

    /** Bytes of heap the table holds. */
    long bytes() {
        return 4L * entries.length;
    }

    /** Whether the budget or the segment let go of it: nothing is added any more. */
    public boolean dropped() {
        return dropped;
    }

    void drop() {
        dropped = true;
    }

    /** Gives the table's memory back to the budget: the segment was closed or deleted. */
    void release() {
        owner.release(this);
    }

    /**
     * The segment was cut: the table no longer describes it ({@link #end()} becomes -1, so a sender holding it walks
     * the headers instead) and its memory goes back to the budget.
     */
    void truncated() {
        end = -1;
        owner.release(this);
    }

    /**
     * Adds the batch at {@code position} that ends at {@code batchEnd}. Returns false, adding nothing, when the batch
     * does not start where the last one ended (an append that failed after some of its batches were added, then
     * written again): the caller lets the table go. Appending thread only.
     */
    boolean add(int position, int headerCrc, int storedCrc, int batchEnd) {
        int n = count;
        if (position != (n == 0 ? 0 : end)) {
            return false;
        }
        if (INTS_PER_BATCH * (n + 1) > entries.length) {
            int[] bigger = Arrays.copyOf(entries, entries.length * 2);
            long grown = 4L * (bigger.length - entries.length);
            entries = bigger;
            owner.grew(this, grown);
        }
        int at = INTS_PER_BATCH * n;
        entries[at] = position;
        entries[at + 1] = headerCrc;
        entries[at + 2] = storedCrc;
        end = batchEnd;
        count = n + 1;
        return true;
    }

    /** Batches in the table; read it before the entries. */
    public int count() {
        return count;
    }

    /** Where the last batch ends (the segment's size when the last batch was added); -1 once the segment was cut. */
    public int end() {
        return end;
    }

    /** File position of batch {@code i} (below the {@link #count()} read). */
    public int position(int i) {
        return entries[INTS_PER_BATCH * i];
    }

    /** Where batch {@code i} ends: the next batch's position, or {@link #end()} for the last. */
    public int endOf(int i, int count) {
        return i + 1 < count ? position(i + 1) : end;
    }

    /** CRC-32C of batch {@code i}'s first {@link RecordBatchDescriptor#ATTRIBUTES_OFFSET} bytes. */
    public int headerCrc(int i) {
        return entries[INTS_PER_BATCH * i + 1];
    }

    /** The CRC-32C batch {@code i} stores for its bytes from its attributes on. */
    public int storedCrc(int i) {
        return entries[INTS_PER_BATCH * i + 2];
    }

    /** The first of the {@code count} batches at or after {@code position}; {@code count} when none. */
    public int firstAtOrAfter(int position, int count) {
        int low = 0;
        int high = count;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (position(mid) < position) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
