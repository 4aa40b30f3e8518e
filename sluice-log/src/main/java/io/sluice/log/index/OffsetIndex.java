package io.sluice.log.index;

import static io.sluice.log.index.OffsetIndexDescriptor.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sparse offset → file position index of one segment. While its segment is active the entries live in a heap
 * array (one long per entry: relative offset high, position low), written behind to the {@code .index} file on
 * {@link #persist()}; once the segment is inactive, {@link #mapReadOnly()} swaps the array for a read-only memory
 * mapping of the file, so old segments cost page cache, not heap. A short or missing file is harmless: lookups
 * just scan further.
 * Thread-safety: one appending thread (the partition's append lock) and any number of lock-free readers, who see
 * one immutable-by-prefix {@link Entries} through a volatile field; {@link #persist()}, {@link #mapReadOnly()} and
 * {@link #truncateToOffset(long)} synchronize on this index.
 */
public final class OffsetIndex extends SegmentIndexFile {
    /** The entries, in the heap or in a mapped file; readers take one reference and use only it. */
    private interface Entries {
        int relative(int i);

        int position(int i);
    }

    private record Heap(long[] array) implements Entries {
        @Override
        public int relative(int i) {
            return (int) (array[i] >>> 32);
        }

        @Override
        public int position(int i) {
            return (int) array[i];
        }
    }

    private record Mapped(ByteBuffer buffer) implements Entries {
        @Override
        public int relative(int i) {
            return buffer.getInt(i * ENTRY_LENGTH + RELATIVE_OFFSET_OFFSET);
        }

        @Override
        public int position(int i) {
            return buffer.getInt(i * ENTRY_LENGTH + POSITION_OFFSET);
        }
    }

    private volatile Entries entries;

    private OffsetIndex(Path file, long baseOffset, int maxIndexSizeBytes, Entries entries, int count) {
        super(file, baseOffset, maxIndexSizeBytes, ENTRY_LENGTH, count);
        this.entries = entries;
    }

    /** A new empty index; an existing file at {@code file} is replaced on the next {@link #persist()}. */
    public static OffsetIndex empty(Path file, long baseOffset, int maxIndexSizeBytes) throws IOException {
        Files.deleteIfExists(file);
        return new OffsetIndex(file, baseOffset, maxIndexSizeBytes, new Heap(new long[16]), 0);
    }

    /**
     * Maps and sanity-checks an index file against its segment.
     *
     * @param segmentSize size of the segment's .log file; every position must be below it
     * @throws CorruptIndexException when the file is missing, oversized, not a whole number of entries,
     *                               or its offsets or positions are not strictly increasing and in range
     */
    public static OffsetIndex load(Path file, long baseOffset, int maxIndexSizeBytes, long segmentSize)
            throws IOException {
        int n = entriesInFile(file, maxIndexSizeBytes, ENTRY_LENGTH);
        Entries mapped =
                n == 0 ? new Heap(new long[16]) : new Mapped(IndexFiles.mapReadOnly(file, (long) n * ENTRY_LENGTH));
        int lastRelative = -1;
        int lastPosition = -1;
        for (int i = 0; i < n; i++) {
            int relative = mapped.relative(i);
            int position = mapped.position(i);
            if (relative <= lastRelative) {
                throw new CorruptIndexException(
                        file, "entry " + i + " relative offset " + relative + " does not follow " + lastRelative);
            }
            if (position <= lastPosition || position >= segmentSize) {
                throw new CorruptIndexException(
                        file,
                        "entry " + i + " position " + position + " is not increasing from " + lastPosition
                                + " within segment size " + segmentSize);
            }
            lastRelative = relative;
            lastPosition = position;
        }
        return new OffsetIndex(file, baseOffset, maxIndexSizeBytes, mapped, n);
    }

    @Override
    public boolean isMapped() {
        return entries instanceof Mapped;
    }

    /** Largest indexed offset, or the base offset when empty. */
    public long lastOffset() {
        int n = count;
        return n == 0 ? baseOffset : baseOffset + entries.relative(n - 1);
    }

    /** Position recorded for the last entry, or 0 when empty. */
    public int lastPosition() {
        int n = count;
        return n == 0 ? 0 : entries.position(n - 1);
    }

    /**
     * Adds an entry; ignored when the index is full or the offset does not advance (a rebuild past the cap).
     * Appending thread only.
     */
    public void append(long lastOffset, int position) {
        int n = count;
        long relative = lastOffset - baseOffset;
        Entries e = entries;
        if (n >= maxEntries
                || relative > Integer.MAX_VALUE
                || relative < 0
                || (n > 0 && (relative <= e.relative(n - 1) || position <= e.position(n - 1)))) {
            return;
        }
        long[] array = heapArray(n + 1);
        array[n] = ((long) relative << 32) | (position & 0xFFFFFFFFL);
        count = n + 1;
    }

    /** The heap array holding at least {@code capacity} entries, copying out of a mapping or growing as needed. */
    private long[] heapArray(int capacity) {
        Entries e = entries;
        if (e instanceof Heap heap && heap.array().length >= capacity) {
            return heap.array();
        }
        int n = count;
        long[] array = new long[Math.min(maxEntries, Math.max(16, Math.max(capacity, n * 2)))];
        for (int i = 0; i < n; i++) {
            array[i] = ((long) e.relative(i) << 32) | (e.position(i) & 0xFFFFFFFFL);
        }
        entries = new Heap(array);
        return array;
    }

    /**
     * Position of the batch recorded by the largest entry whose offset is at most {@code targetOffset}, or 0.
     * Scanning forward from it reaches the batch containing {@code targetOffset}.
     */
    public int lookup(long targetOffset) {
        int n = count;
        Entries e = entries;
        long relativeTarget = targetOffset - baseOffset;
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (e.relative(mid) <= relativeTarget) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? 0 : e.position(found);
    }

    /**
     * Largest indexed batch position at most {@code position}, or 0: a batch boundary from which a forward scan
     * reaches {@code position} within about one index interval.
     */
    public int floorPosition(long position) {
        int n = count;
        Entries e = entries;
        int lo = 0;
        int hi = n - 1;
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int candidate = e.position(mid);
            if (candidate <= position) {
                found = candidate;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    @Override
    protected int relativeOffset(int i) {
        return entries.relative(i);
    }

    @Override
    protected void moveToHeap(int capacity) {
        heapArray(capacity);
    }

    @Override
    protected void writeEntry(ByteBuffer out, int i) {
        Entries e = entries;
        out.putInt(e.relative(i)).putInt(e.position(i));
    }

    @Override
    protected void useMapping(ByteBuffer mapping) {
        entries = new Mapped(mapping);
    }
}
