package io.sluice.log.index;

import static io.sluice.log.index.OffsetIndexDescriptor.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sparse offset → file position index of one segment. While its segment is active the entries live in a heap
 * buffer in the file's layout, written behind to the {@code .index} file on {@link #persist()}; once the segment is
 * inactive, {@link #mapReadOnly()} swaps the buffer for a read-only memory mapping of the file, so old segments cost
 * page cache, not heap. A short or missing file is harmless: lookups just scan further.
 * Thread-safety: one appending thread (the partition's append lock) and any number of lock-free readers, who see
 * one immutable-by-prefix entries buffer through a volatile field; {@link #persist()}, {@link #mapReadOnly()} and
 * {@link #truncateToOffset(long)} synchronize on this index.
 */
public final class OffsetIndex extends SegmentIndexFile {
    private OffsetIndex(Path file, long baseOffset, int maxIndexSizeBytes, ByteBuffer entries, int count) {
        super(file, baseOffset, maxIndexSizeBytes, ENTRY_LENGTH, entries, count);
    }

    /** A new empty index; an existing file at {@code file} is replaced on the next {@link #persist()}. */
    public static OffsetIndex empty(Path file, long baseOffset, int maxIndexSizeBytes) throws IOException {
        Files.deleteIfExists(file);
        return new OffsetIndex(file, baseOffset, maxIndexSizeBytes, newHeapEntries(ENTRY_LENGTH), 0);
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
        ByteBuffer mapped = entriesOfFile(file, n, ENTRY_LENGTH);
        int lastRelative = -1;
        int lastPosition = -1;
        for (int i = 0; i < n; i++) {
            int relative = relative(mapped, i);
            int position = position(mapped, i);
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

    private static int relative(ByteBuffer entries, int i) {
        return entries.getInt(i * ENTRY_LENGTH + RELATIVE_OFFSET_OFFSET);
    }

    private static int position(ByteBuffer entries, int i) {
        return entries.getInt(i * ENTRY_LENGTH + POSITION_OFFSET);
    }

    /** Largest indexed offset, or the base offset when empty. */
    public long lastOffset() {
        int n = count;
        return n == 0 ? baseOffset : baseOffset + relative(entries, n - 1);
    }

    /** Position recorded for the last entry, or 0 when empty. */
    public int lastPosition() {
        int n = count;
        return n == 0 ? 0 : position(entries, n - 1);
    }

    /**
     * Adds an entry; ignored when the index is full or the offset does not advance (a rebuild past the cap).
     * Appending thread only.
     */
    public void append(long lastOffset, int position) {
        int n = count;
        long relative = lastOffset - baseOffset;
        ByteBuffer e = entries;
        if (n >= maxEntries
                || relative > Integer.MAX_VALUE
                || relative < 0
                || (n > 0 && (relative <= relative(e, n - 1) || position <= position(e, n - 1)))) {
            return;
        }
        heapEntries(n + 1)
                .putInt(n * ENTRY_LENGTH + RELATIVE_OFFSET_OFFSET, (int) relative)
                .putInt(n * ENTRY_LENGTH + POSITION_OFFSET, position);
        count = n + 1;
    }

    /**
     * Position of the batch recorded by the largest entry whose offset is at most {@code targetOffset}, or 0.
     * Scanning forward from it reaches the batch containing {@code targetOffset}.
     */
    public int lookup(long targetOffset) {
        int n = count;
        ByteBuffer e = entries;
        long relativeTarget = targetOffset - baseOffset;
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (relative(e, mid) <= relativeTarget) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? 0 : position(e, found);
    }

    /**
     * Largest indexed batch position at most {@code position}, or 0: a batch boundary from which a forward scan
     * reaches {@code position} within about one index interval.
     */
    public int floorPosition(long position) {
        int n = count;
        ByteBuffer e = entries;
        int lo = 0;
        int hi = n - 1;
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int candidate = position(e, mid);
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
        return relative(entries, i);
    }
}
