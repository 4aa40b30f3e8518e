package io.sluice.log.clean;

import java.util.concurrent.atomic.LongAdder;

/** Totals of everything the cleaner threads did since start, for logs, tests and benchmarks. Thread-safe. */
public final class CleanerStats {
    private final LongAdder cleans = new LongAdder();
    private final LongAdder segmentsReplaced = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder recordsRemoved = new LongAdder();
    private final LongAdder keysMapped = new LongAdder();

    void cleaned() {
        cleans.increment();
    }

    void swapped(int segments) {
        segmentsReplaced.add(segments);
    }

    void read(long bytes) {
        bytesRead.add(bytes);
    }

    void written(long bytes) {
        bytesWritten.add(bytes);
    }

    void removed(long records) {
        recordsRemoved.add(records);
    }

    void mapped(long keys) {
        keysMapped.add(keys);
    }

    /** Completed cleans of a log. */
    public long cleans() {
        return cleans.sum();
    }

    public long segmentsReplaced() {
        return segmentsReplaced.sum();
    }
    /** Bytes of batches read while rewriting segments (the offset map's reads not included). */
    public long bytesRead() {
        return bytesRead.sum();
    }

    public long bytesWritten() {
        return bytesWritten.sum();
    }

    public long recordsRemoved() {
        return recordsRemoved.sum();
    }

    public long keysMapped() {
        return keysMapped.sum();
    }
}
