package io.sluice.log.segment;

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * The memory budget of every {@link BatchHeaderTable} of one log manager's segments. Over budget, the oldest tables
 * are dropped first: the newest segments are the ones a producer's writes left in small page-cache folios, which is
 * where the tables spare a sender most; segments read back from disk come in through readahead, in large folios.
 * A budget of zero keeps no table.
 *
 * <p>Thread-safe: one lock, taken when a table is created, grows (its capacity doubles) or is released, never per
 * batch.
 */
public final class BatchHeaderTables {
    private final long budgetBytes;
    /** Live tables, oldest first; removal of any is O(1), as a broker closing thousands of segments needs. */
    private final LinkedHashSet<BatchHeaderTable> oldestFirst = new LinkedHashSet<>();

    private long bytes;
    private long dropped;

    /** @param budgetBytes heap the tables may hold together; 0 keeps none */
    public BatchHeaderTables(long budgetBytes) {
        if (budgetBytes < 0) {
            throw new IllegalArgumentException("batch header table budget " + budgetBytes + " is negative");
        }
        this.budgetBytes = budgetBytes;
    }

    /** No tables: every sender reads the headers back. */
    public static BatchHeaderTables none() {
        return new BatchHeaderTables(0);
    }

    /** A new table for a new segment, or null when the budget is zero. */
    synchronized BatchHeaderTable create() {
        if (budgetBytes == 0) {
            return null;
        }
        BatchHeaderTable table = new BatchHeaderTable(this);
        oldestFirst.add(table);
        bytes += table.bytes();
        dropOverBudget();
        return table;
    }

    synchronized void grew(BatchHeaderTable table, long grownBytes) {
        if (table.dropped()) {
            return;
        }
        bytes += grownBytes;
        dropOverBudget();
    }

    /** Lets go of a table whose segment was truncated, closed or deleted. */
    synchronized void release(BatchHeaderTable table) {
        if (!table.dropped() && oldestFirst.remove(table)) {
            bytes -= table.bytes();
        }
        table.drop();
    }

    private void dropOverBudget() {
        Iterator<BatchHeaderTable> oldestOn = oldestFirst.iterator();
        while (bytes > budgetBytes && oldestOn.hasNext()) {
            BatchHeaderTable oldest = oldestOn.next();
            oldestOn.remove();
            bytes -= oldest.bytes();
            oldest.drop();
            dropped++;
        }
    }

    /** Heap the live tables hold. */
    public synchronized long bytes() {
        return bytes;
    }

    /** Tables dropped to stay within the budget so far. */
    public synchronized long droppedForBudget() {
        return dropped;
    }
}
