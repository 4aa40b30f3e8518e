package io.sluice.log.index;

import static io.sluice.log.index.TimeIndexDescriptor.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sparse timestamp → offset index of one segment: heap arrays while the segment is active, written behind to the
 * {@code .timeindex} file on {@link #persist()}; a read-only mapping of the file once {@link #mapReadOnly()} is
 * called for an inactive segment.
 * Thread-safety: one appending thread (the partition's append lock) and any number of lock-free readers, who see
 * one {@link Entries} through a volatile field; {@link #persist()}, {@link #mapReadOnly()} and
 * {@link #truncateToOffset(long)} synchronize on this index.
 */
public final class TimeIndex extends SegmentIndexFile {
    /** The entries, in the heap or in a mapped file; readers take one reference and use only it. */
    private interface Entries {
        long timestamp(int i);

        int relative(int i);
    }

    private record Heap(long[] timestamps, int[] relatives) implements Entries {
        @Override
        public long timestamp(int i) {
            return timestamps[i];
        }

        @Override
        public int relative(int i) {
            return relatives[i];
        }
    }

    private record Mapped(ByteBuffer buffer) implements Entries {
        @Override
        public long timestamp(int i) {
            return buffer.getLong(i * ENTRY_LENGTH + TIMESTAMP_OFFSET);
        }

        @Override
        public int relative(int i) {
            return buffer.getInt(i * ENTRY_LENGTH + RELATIVE_OFFSET_OFFSET);
        }
    }

    private volatile Entries entries;

    private TimeIndex(Path file, long baseOffset, int maxIndexSizeBytes, Entries entries, int count) {
        super(file, baseOffset, maxIndexSizeBytes, ENTRY_LENGTH, count);
        this.entries = entries;
    }

    public static TimeIndex empty(Path file, long baseOffset, int maxIndexSizeBytes) throws IOException {
        Files.deleteIfExists(file);
        return new TimeIndex(file, baseOffset, maxIndexSizeBytes, new Heap(new long[16], new int[16]), 0);
    }

    /**
     * Maps and sanity-checks a time index file.
     *
     * @param nextOffset offset after the segment's last batch; every entry's offset must be below it
     * @throws CorruptIndexException when missing, oversized, ragged, or timestamps are not strictly increasing /
     *                               offsets not non-decreasing and inside the segment
     */
    public static TimeIndex load(Path file, long baseOffset, int maxIndexSizeBytes, long nextOffset)
            throws IOException {
        int n = entriesInFile(file, maxIndexSizeBytes, ENTRY_LENGTH);
        Entries mapped = n == 0
                ? new Heap(new long[16], new int[16])
                : new Mapped(IndexFiles.mapReadOnly(file, (long) n * ENTRY_LENGTH));
        long lastTimestamp = Long.MIN_VALUE;
        int lastRelative = 0;
        for (int i = 0; i < n; i++) {
            long timestamp = mapped.timestamp(i);
            int relative = mapped.relative(i);
            if (timestamp <= lastTimestamp || timestamp < 0) {
                throw new CorruptIndexException(
                        file, "entry " + i + " timestamp " + timestamp + " does not follow " + lastTimestamp);
            }
            if (relative < lastRelative || baseOffset + relative >= nextOffset) {
                throw new CorruptIndexException(
                        file,
                        "entry " + i + " relative offset " + relative + " is not in [" + lastRelative + ", "
                                + (nextOffset - baseOffset) + ")");
            }
            lastTimestamp = timestamp;
            lastRelative = relative;
        }
        return new TimeIndex(file, baseOffset, maxIndexSizeBytes, mapped, n);
    }

    @Override
    public boolean isMapped() {
        return entries instanceof Mapped;
    }

    /** Largest timestamp indexed, or -1 when empty. */
    public long lastTimestamp() {
        int n = count;
        return n == 0 ? -1 : entries.timestamp(n - 1);
    }

    /** Offset of the last entry, or -1 when empty. */
    public long lastEntryOffset() {
        int n = count;
        return n == 0 ? -1 : baseOffset + entries.relative(n - 1);
    }

    /** Adds an entry when the timestamp advances past the last one and there is room. Appending thread only. */
    public void maybeAppend(long timestamp, long offset) {
        int n = count;
        long relative = offset - baseOffset;
        Entries e = entries;
        if (n >= maxEntries
                || relative < 0
                || relative > Integer.MAX_VALUE
                || timestamp < 0
                || (n > 0 && (timestamp <= e.timestamp(n - 1) || relative < e.relative(n - 1)))) {
            return;
        }
        Heap heap = heap(n + 1);
        heap.timestamps()[n] = timestamp;
        heap.relatives()[n] = (int) relative;
        count = n + 1;
    }

    private Heap heap(int capacity) {
        Entries e = entries;
        if (e instanceof Heap heap && heap.timestamps().length >= capacity) {
            return heap;
        }
        int n = count;
        int size = Math.min(maxEntries, Math.max(16, Math.max(capacity, n * 2)));
        Heap heap = new Heap(new long[size], new int[size]);
        for (int i = 0; i < n; i++) {
            heap.timestamps()[i] = e.timestamp(i);
            heap.relatives()[i] = e.relative(i);
        }
        entries = heap;
        return heap;
    }

    /**
     * Offset recorded by the entry with the largest timestamp at most {@code timestamp}; every batch before that
     * offset has a smaller maxTimestamp. Returns the base offset when no entry qualifies.
     */
    public long lookup(long timestamp) {
        int n = count;
        Entries e = entries;
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (e.timestamp(mid) <= timestamp) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? baseOffset : baseOffset + e.relative(found);
    }

    @Override
    protected int relativeOffset(int i) {
        return entries.relative(i);
    }

    @Override
    protected void moveToHeap(int capacity) {
        heap(capacity);
    }

    @Override
    protected void writeEntry(ByteBuffer out, int i) {
        Entries e = entries;
        out.putLong(e.timestamp(i)).putInt(e.relative(i));
    }

    @Override
    protected void useMapping(ByteBuffer mapping) {
        entries = new Mapped(mapping);
    }
}
