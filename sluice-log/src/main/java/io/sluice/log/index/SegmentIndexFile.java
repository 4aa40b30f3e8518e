package io.sluice.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * What the offset and time indexes share: a sparse, append-only file of fixed-length entries kept in the heap while
 * the segment is active and written behind on {@link #persist()}, swapped for a read-only mapping by
 * {@link #mapReadOnly()}, and cut back by {@link #truncateToOffset(long)}. Subclasses own the entry layout and the
 * lookups. Thread-safety: one appending thread and lock-free readers (subclasses publish their entries through a
 * volatile field, then {@link #count}); persist, map and truncate synchronize on the index.
 */
public abstract class SegmentIndexFile {
    private volatile Path file;
    private final int entryLength;
    protected final long baseOffset;
    protected final int maxEntries;
    /** Entries readers may see; written by the appending thread after the entry itself. */
    protected volatile int count;

    private int persistedCount;

    protected SegmentIndexFile(Path file, long baseOffset, int maxIndexSizeBytes, int entryLength, int count) {
        this.file = file;
        this.entryLength = entryLength;
        this.baseOffset = baseOffset;
        this.maxEntries = Math.max(1, maxIndexSizeBytes / entryLength);
        this.count = count;
        this.persistedCount = count;
    }

    /**
     * The number of entries in an existing index file, after checking it is there, whole and within the size cap.
     *
     * @throws CorruptIndexException naming the file and what is wrong with its size
     */
    static int entriesInFile(Path file, int maxIndexSizeBytes, int entryLength) throws IOException {
        if (!Files.exists(file)) {
            throw new CorruptIndexException(file, "missing");
        }
        long size = Files.size(file);
        if (size % entryLength != 0) {
            throw new CorruptIndexException(
                    file, "size " + size + " is not a multiple of the entry length " + entryLength);
        }
        if (size > Math.max(maxIndexSizeBytes, entryLength)) {
            throw new CorruptIndexException(
                    file, "size " + size + " exceeds log.index.size.max.bytes " + maxIndexSizeBytes);
        }
        return (int) (size / entryLength);
    }

    public final boolean isFull() {
        return count >= maxEntries;
    }

    public final int entryCount() {
        return count;
    }

    /** Bytes the entries take in the file. */
    public final long sizeInBytes() {
        return (long) count * entryLength;
    }

    public final Path file() {
        return file;
    }

    /** True while the entries are a read-only mapping of the file rather than heap arrays. */
    public abstract boolean isMapped();

    /** Relative offset of entry {@code i} of the current entries. */
    protected abstract int relativeOffset(int i);

    /** Makes the current entries heap arrays holding at least {@code capacity} entries, keeping the first count. */
    protected abstract void moveToHeap(int capacity);

    /** Appends entry {@code i} in the file's layout. */
    protected abstract void writeEntry(ByteBuffer out, int i);

    /** Replaces the current entries with {@code mapping} of the persisted file. */
    protected abstract void useMapping(ByteBuffer mapping);

    /** Drops entries whose offset is at or above {@code offset}. Under the partition's append lock. */
    public final synchronized void truncateToOffset(long offset) throws IOException {
        long relative = offset - baseOffset;
        int n = count;
        while (n > 0 && relativeOffset(n - 1) >= relative) {
            n--;
        }
        if (n == count) {
            return;
        }
        boolean wasMapped = isMapped();
        moveToHeap(n);
        count = n;
        if (wasMapped) {
            // readers may still hold the old mapping: unlink the file instead of truncating under it
            Files.deleteIfExists(file);
            persistedCount = 0;
        } else if (persistedCount > n) {
            persistedCount = n;
            if (Files.exists(file)) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate((long) n * entryLength);
                }
            }
        }
    }

    /**
     * Writes the entries, then renames the file to {@code target} (the cleaner's {@code .cleaned}/{@code .swap} suffixes,
     * a deletion's {@code .deleted}); a mapping of it stays valid. Later persists write the new name.
     */
    public final synchronized void renameTo(Path target) throws IOException {
        if (Files.exists(file)) {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
        file = target;
    }

    /** Writes entries added since the last call and fsyncs the file. */
    public final synchronized void persist() throws IOException {
        int n = count;
        if (n == persistedCount && Files.exists(file)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            int from = Math.min(persistedCount, (int) (channel.size() / entryLength));
            ByteBuffer buffer = ByteBuffer.allocate((n - from) * entryLength);
            for (int i = from; i < n; i++) {
                writeEntry(buffer, i);
            }
            buffer.flip();
            IndexFiles.writeFully(channel, buffer, (long) from * entryLength);
            channel.truncate((long) n * entryLength);
            channel.force(true);
        }
        persistedCount = n;
    }

    /** Persists, then replaces the heap arrays with a read-only mapping of the file (inactive segments). */
    public final synchronized void mapReadOnly() throws IOException {
        if (isMapped() || count == 0) {
            return;
        }
        persist();
        useMapping(IndexFiles.mapReadOnly(file, (long) count * entryLength));
    }
}
