package io.sluice.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import static io.sluice.log.index.OffsetIndexDescriptor.*;

/**
 * Sparse offset → file position index of one segment, held in a primitive array (one long per entry:
 * relative offset in the high half, position in the low half) and written behind to its {@code .index} file on
 * {@link #persist()}. A short or missing file is harmless: lookups just scan further.
 * Thread-safety: one appending thread (the partition's append lock) and any number of lock-free readers;
 * {@link #persist()} and {@link #truncateToOffset(long)} synchronize on this index.
 */
public final class OffsetIndex {
    private final Path file;
    private final long baseOffset;
    private final int maxEntries;
    private volatile long[] entries;
    private volatile int count;
    private int persistedCount;

    private OffsetIndex(Path file, long baseOffset, int maxIndexSizeBytes, long[] entries, int count) {
        this.file = file;
        this.baseOffset = baseOffset;
        this.maxEntries = Math.max(1, maxIndexSizeBytes / ENTRY_LENGTH);
        this.entries = entries;
        this.count = count;
        this.persistedCount = count;
    }

    /** A new empty index; an existing file at {@code file} is replaced on the next {@link #persist()}. */
    public static OffsetIndex empty(Path file, long baseOffset, int maxIndexSizeBytes) throws IOException {
        Files.deleteIfExists(file);
        return new OffsetIndex(file, baseOffset, maxIndexSizeBytes, new long[16], 0);
    }

    /**
     * Loads and sanity-checks an index file against its segment.
     *
     * @param segmentSize size of the segment's .log file; every position must be below it
     * @throws CorruptIndexException when the file is missing, oversized, not a whole number of entries,
     *                               or its offsets or positions are not strictly increasing and in range
     */
    public static OffsetIndex load(Path file, long baseOffset, int maxIndexSizeBytes, long segmentSize)
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
        long[] entries = new long[Math.max(16, n)];
        int lastRelative = -1;
        int lastPosition = -1;
        for (int i = 0; i < n; i++) {
            int relative = bytes.getInt(i * ENTRY_LENGTH + RELATIVE_OFFSET_OFFSET);
            int position = bytes.getInt(i * ENTRY_LENGTH + POSITION_OFFSET);
            if (relative <= lastRelative || relative < 0) {
                throw new CorruptIndexException(file, "entry " + i + " relative offset " + relative
                        + " does not follow " + lastRelative);
            }
            if (position <= lastPosition || position < 0 || position >= segmentSize) {
                throw new CorruptIndexException(file, "entry " + i + " position " + position
                        + " is not increasing from " + lastPosition + " within segment size " + segmentSize);
            }
            entries[i] = pack(relative, position);
            lastRelative = relative;
            lastPosition = position;
        }
        return new OffsetIndex(file, baseOffset, maxIndexSizeBytes, entries, n);
    }

    private static long pack(int relativeOffset, int position) {
        return ((long) relativeOffset << 32) | (position & 0xFFFFFFFFL);
    }

    private static int relativeOf(long entry) {
        return (int) (entry >>> 32);
    }

    private static int positionOf(long entry) {
        return (int) entry;
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

    /** Largest indexed offset, or the base offset when empty. */
    public long lastOffset() {
        int n = count;
        return n == 0 ? baseOffset : baseOffset + relativeOf(entries[n - 1]);
    }

    /** Position recorded for the last entry, or 0 when empty. */
    public int lastPosition() {
        int n = count;
        return n == 0 ? 0 : positionOf(entries[n - 1]);
    }

    /**
     * Adds an entry; ignored when the index is full or the offset does not advance (a rebuild past the cap).
     * Appending thread only.
     */
    public void append(long lastOffset, int position) {
        int n = count;
        long relative = lastOffset - baseOffset;
        if (n >= maxEntries || relative > Integer.MAX_VALUE || relative < 0
                || (n > 0 && (relative <= relativeOf(entries[n - 1]) || position <= positionOf(entries[n - 1])))) {
            return;
        }
        long[] array = entries;
        if (n == array.length) {
            array = Arrays.copyOf(array, Math.min(maxEntries, array.length * 2));
            entries = array;
        }
        array[n] = pack((int) relative, position);
        count = n + 1;
    }

    /**
     * Position of the batch recorded by the largest entry whose offset is at most {@code targetOffset}, or 0.
     * Scanning forward from it reaches the batch containing {@code targetOffset}.
     */
    public int lookup(long targetOffset) {
        int n = count;
        long[] array = entries;
        long relativeTarget = targetOffset - baseOffset;
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (relativeOf(array[mid]) <= relativeTarget) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? 0 : positionOf(array[found]);
    }

    /** Drops entries for offsets at or above {@code offset}. Under the partition's append lock. */
    public synchronized void truncateToOffset(long offset) throws IOException {
        long relative = offset - baseOffset;
        int n = count;
        while (n > 0 && relativeOf(entries[n - 1]) >= relative) {
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
        long[] array = entries;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            int from = Math.min(persistedCount, (int) (channel.size() / ENTRY_LENGTH));
            ByteBuffer buffer = ByteBuffer.allocate((n - from) * ENTRY_LENGTH);
            for (int i = from; i < n; i++) {
                buffer.putInt(relativeOf(array[i])).putInt(positionOf(array[i]));
            }
            buffer.flip();
            IndexFiles.writeFully(channel, buffer, (long) from * ENTRY_LENGTH);
            channel.truncate((long) n * ENTRY_LENGTH);
            channel.force(true);
        }
        persistedCount = n;
    }
}
