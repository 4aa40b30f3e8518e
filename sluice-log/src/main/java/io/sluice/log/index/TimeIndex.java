package io.sluice.log.index;

import static io.sluice.log.index.TimeIndexDescriptor.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sparse timestamp → offset index of one segment: a heap buffer in the file's layout while the segment is active,
 * written behind to the {@code .timeindex} file on {@link #persist()}; a read-only mapping of the file once
 * {@link #mapReadOnly()} is called for an inactive segment.
 * Thread-safety: one appending thread (the partition's append lock) and any number of lock-free readers, who see
 * one immutable-by-prefix entries buffer through a volatile field; {@link #persist()}, {@link #mapReadOnly()} and
 * {@link #truncateToOffset(long)} synchronize on this index.
 */
public final class TimeIndex extends SegmentIndexFile {
    private TimeIndex(Path file, long baseOffset, int maxIndexSizeBytes, ByteBuffer entries, int count) {
        super(file, baseOffset, maxIndexSizeBytes, ENTRY_LENGTH, entries, count);
    }

    public static TimeIndex empty(Path file, long baseOffset, int maxIndexSizeBytes) throws IOException {
        Files.deleteIfExists(file);
        return new TimeIndex(file, baseOffset, maxIndexSizeBytes, newHeapEntries(ENTRY_LENGTH), 0);
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
        ByteBuffer mapped = entriesOfFile(file, n, ENTRY_LENGTH);
        long lastTimestamp = Long.MIN_VALUE;
        int lastRelative = 0;
        for (int i = 0; i < n; i++) {
            long timestamp = timestamp(mapped, i);
            int relative = relative(mapped, i);
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

    private static long timestamp(ByteBuffer entries, int i) {
        return entries.getLong(i * ENTRY_LENGTH + TIMESTAMP_OFFSET);
    }

    private static int relative(ByteBuffer entries, int i) {
        return entries.getInt(i * ENTRY_LENGTH + RELATIVE_OFFSET_OFFSET);
    }

    /** Largest timestamp indexed, or -1 when empty. */
    public long lastTimestamp() {
        int n = count;
        return n == 0 ? -1 : timestamp(entries, n - 1);
    }

    /** Offset of the last entry, or -1 when empty. */
    public long lastEntryOffset() {
        int n = count;
        return n == 0 ? -1 : baseOffset + relative(entries, n - 1);
    }

    /** Adds an entry when the timestamp advances past the last one and there is room. Appending thread only. */
    public void maybeAppend(long timestamp, long offset) {
        int n = count;
        long relative = offset - baseOffset;
        ByteBuffer e = entries;
        if (n >= maxEntries
                || relative < 0
                || relative > Integer.MAX_VALUE
                || timestamp < 0
                || (n > 0 && (timestamp <= timestamp(e, n - 1) || relative < relative(e, n - 1)))) {
            return;
        }
        heapEntries(n + 1)
                .putLong(n * ENTRY_LENGTH + TIMESTAMP_OFFSET, timestamp)
                .putInt(n * ENTRY_LENGTH + RELATIVE_OFFSET_OFFSET, (int) relative);
        count = n + 1;
    }

    /**
     * Offset recorded by the entry with the largest timestamp at most {@code timestamp}; every batch before that
     * offset has a smaller maxTimestamp. Returns the base offset when no entry qualifies.
     */
    public long lookup(long timestamp) {
        int n = count;
        ByteBuffer e = entries;
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (timestamp(e, mid) <= timestamp) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? baseOffset : baseOffset + relative(e, found);
    }

    @Override
    protected int relativeOffset(int i) {
        return relative(entries, i);
    }
}
