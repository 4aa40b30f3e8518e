package io.sluice.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import static io.sluice.log.index.TimeIndexDescriptor.*;

/**
 * Sparse timestamp → offset index of one segment, held in primitive arrays and written behind to its
 * {@code .timeindex} file on {@link #persist()}.
 * Thread-safety: one appending thread (the partition's append lock) and any number of lock-free readers;
 * {@link #persist()} and {@link #truncateToOffset(long)} synchronize on this index.
 */
public final class TimeIndex {
    /** Entries in one array; both arrays are replaced together behind {@link #count}. */
    private record Arrays2(long[] timestamps, int[] relativeOffsets) {
    }

    private final Path file;
    private final long baseOffset;
    private final int maxEntries;
    private volatile Arrays2 arrays;
    private volatile int count;
    private int persistedCount;

    private TimeIndex(Path file, long baseOffset, int maxIndexSizeBytes, Arrays2 arrays, int count) {
        this.file = file;
        this.baseOffset = baseOffset;
        this.maxEntries = Math.max(1, maxIndexSizeBytes / ENTRY_LENGTH);
        this.arrays = arrays;
        this.count = count;
        this.persistedCount = count;
    }

    public static TimeIndex empty(Path file, long baseOffset, int maxIndexSizeBytes) throws IOException {
        Files.deleteIfExists(file);
        return new TimeIndex(file, baseOffset, maxIndexSizeBytes, new Arrays2(new long[16], new int[16]), 0);
    }

    /**
     * Loads and sanity-checks a time index file.
     *
     * @param nextOffset offset after the segment's last batch; every entry's offset must be below it
     * @throws CorruptIndexException when missing, oversized, ragged, or timestamps are not strictly increasing /
     *                               offsets not non-decreasing and inside the segment
     */
    public static TimeIndex load(Path file, long baseOffset, int maxIndexSizeBytes, long nextOffset)
            throws IOException {
        if (!Files.exists(file)) {
            throw new CorruptIndexException(file, "missing");
        }
        long size = Files.size(file);
        if (size % ENTRY_LENGTH != 0) {
            throw new CorruptIndexException(file, "size " + size + " is not a multiple of the entry length " + ENTRY_LENGTH);
        }
        if (size > Math.max(maxIndexSizeBytes, ENTRY_LENGTH)) {
            throw new CorruptIndexException(file, "size " + size + " exceeds log.index.size.max.bytes " + maxIndexSizeBytes);
        }
        ByteBuffer bytes = IndexFiles.readAll(file, size);
        int n = (int) (size / ENTRY_LENGTH);
        long[] timestamps = new long[Math.max(16, n)];
        int[] offsets = new int[Math.max(16, n)];
        long lastTimestamp = Long.MIN_VALUE;
        int lastRelative = 0;
        for (int i = 0; i < n; i++) {
            long timestamp = bytes.getLong(i * ENTRY_LENGTH + TIMESTAMP_OFFSET);
            int relative = bytes.getInt(i * ENTRY_LENGTH + RELATIVE_OFFSET_OFFSET);
            if (timestamp <= lastTimestamp || timestamp < 0) {
                throw new CorruptIndexException(file, "entry " + i + " timestamp " + timestamp
                        + " does not follow " + lastTimestamp);
            }
            if (relative < lastRelative || baseOffset + relative >= nextOffset) {
                throw new CorruptIndexException(file, "entry " + i + " relative offset " + relative
                        + " is not in [" + lastRelative + ", " + (nextOffset - baseOffset) + ")");
            }
            timestamps[i] = timestamp;
            offsets[i] = relative;
            lastTimestamp = timestamp;
            lastRelative = relative;
        }
        return new TimeIndex(file, baseOffset, maxIndexSizeBytes, new Arrays2(timestamps, offsets), n);
    }

    public boolean isFull() {
        return count >= maxEntries;
    }

    public int entryCount() {
        return count;
    }

    public Path file() {
        return file;
    }

    /** Largest timestamp indexed, or -1 when empty. */
    public long lastTimestamp() {
        int n = count;
        return n == 0 ? -1 : arrays.timestamps[n - 1];
    }

    /** Offset of the last entry, or -1 when empty. */
    public long lastEntryOffset() {
        int n = count;
        return n == 0 ? -1 : baseOffset + arrays.relativeOffsets[n - 1];
    }

    /** Adds an entry when the timestamp advances past the last one and there is room. Appending thread only. */
    public void maybeAppend(long timestamp, long offset) {
        int n = count;
        long relative = offset - baseOffset;
        Arrays2 a = arrays;
        if (n >= maxEntries || relative < 0 || relative > Integer.MAX_VALUE || timestamp < 0
                || (n > 0 && (timestamp <= a.timestamps[n - 1] || relative < a.relativeOffsets[n - 1]))) {
            return;
        }
        if (n == a.timestamps.length) {
            int capacity = Math.min(maxEntries, a.timestamps.length * 2);
            a = new Arrays2(Arrays.copyOf(a.timestamps, capacity), Arrays.copyOf(a.relativeOffsets, capacity));
            arrays = a;
        }
        a.timestamps[n] = timestamp;
        a.relativeOffsets[n] = (int) relative;
        count = n + 1;
    }

    /**
     * Offset recorded by the entry with the largest timestamp at most {@code timestamp}; every batch before that
     * offset has a smaller maxTimestamp. Returns the base offset when no entry qualifies.
     */
    public long lookup(long timestamp) {
        int n = count;
        Arrays2 a = arrays;
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a.timestamps[mid] <= timestamp) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? baseOffset : baseOffset + a.relativeOffsets[found];
    }

    /** Drops entries whose offset is at or above {@code offset}. Under the partition's append lock. */
    public synchronized void truncateToOffset(long offset) throws IOException {
        long relative = offset - baseOffset;
        int n = count;
        while (n > 0 && arrays.relativeOffsets[n - 1] >= relative) {
            n--;
        }
        count = n;
        if (persistedCount > n) {
            persistedCount = n;
            if (Files.exists(file)) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate((long) n * ENTRY_LENGTH);
                }
            }
        }
    }

    /** Writes entries added since the last call and fsyncs the file. */
    public synchronized void persist() throws IOException {
        int n = count;
        if (n == persistedCount && Files.exists(file)) {
            return;
        }
        Arrays2 a = arrays;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            int from = Math.min(persistedCount, (int) (channel.size() / ENTRY_LENGTH));
            ByteBuffer buffer = ByteBuffer.allocate((n - from) * ENTRY_LENGTH);
            for (int i = from; i < n; i++) {
                buffer.putLong(a.timestamps[i]).putInt(a.relativeOffsets[i]);
            }
            buffer.flip();
            IndexFiles.writeFully(channel, buffer, (long) from * ENTRY_LENGTH);
            channel.truncate((long) n * ENTRY_LENGTH);
            channel.force(true);
        }
        persistedCount = n;
    }
}
