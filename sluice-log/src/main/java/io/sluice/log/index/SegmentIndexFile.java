package io.sluice.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * What the offset and time indexes share: a sparse, append-only file of fixed-length entries, held in the file's own
 * layout in one buffer: a heap buffer while the segment is active, written behind on {@link #persist()} as one
 * slice (no per-entry copying), swapped for a read-only mapping of the file by {@link #mapReadOnly()}, and cut back
 * by {@link #truncateToOffset(long)}. Subclasses own the entry layout and the lookups.
 * Thread-safety: one appending thread and lock-free readers (a grown or mapped buffer is published whole through
 * {@link #entries}, an entry's bytes before {@link #count}); persist, map and truncate synchronize on the index.
 */
public abstract class SegmentIndexFile {
    /** Entries a new heap buffer has room for; it doubles as entries are added. */
    private static final int MIN_HEAP_ENTRIES = 16;

    private volatile Path file;
    private final int entryLength;
    protected final long baseOffset;
    protected final int maxEntries;
    /**
     * The entries in the file's layout (entry {@code i} at {@code i * entryLength}): a heap buffer, or a read-only
     * mapping of the file. Replaced whole, never cut; readers take one reference and use only it.
     */
    protected volatile ByteBuffer entries;
    /** Entries readers may see; written by the appending thread after the entry itself. */
    protected volatile int count;

    private int persistedCount;

    /**
     * @param entries {@code count} entries in the file's layout, as {@link #entries}; a heap buffer with room for more
     *                or a read-only mapping of {@code file}
     */
    protected SegmentIndexFile(
            Path file, long baseOffset, int maxIndexSizeBytes, int entryLength, ByteBuffer entries, int count) {
        this.file = file;
        this.entryLength = entryLength;
        this.baseOffset = baseOffset;
        this.maxEntries = Math.max(1, maxIndexSizeBytes / entryLength);
        this.entries = entries;
        this.count = count;
        this.persistedCount = count;
    }

    /** An empty heap buffer with room for a first few entries of {@code entryLength} bytes. */
    static ByteBuffer newHeapEntries(int entryLength) {
        return ByteBuffer.allocate(MIN_HEAP_ENTRIES * entryLength);
    }

    /**
     * The entries of an existing index file of {@code n} entries: a read-only mapping of it, or an empty heap buffer
     * when it has none.
     */
    static ByteBuffer entriesOfFile(Path file, int n, int entryLength) throws IOException {
        return n == 0 ? newHeapEntries(entryLength) : IndexFiles.mapReadOnly(file, (long) n * entryLength);
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

    /** True while the entries are a read-only mapping of the file rather than a heap buffer. */
    public final boolean isMapped() {
        return entries instanceof MappedByteBuffer;
    }

    /** Relative offset of entry {@code i} of the current entries. */
    protected abstract int relativeOffset(int i);

    /**
     * The heap buffer with room for at least {@code capacity} entries (at most {@link #maxEntries}), holding the first
     * {@link #count}: the current one, or a larger one (or one copied out of a mapping) published in its place. The
     * appending thread, or under this index's lock with the appending thread held off.
     */
    protected final ByteBuffer heapEntries(int capacity) {
        ByteBuffer current = entries;
        if (!(current instanceof MappedByteBuffer) && current.capacity() >= capacity * entryLength) {
            return current;
        }
        int n = count;
        int size = Math.min(maxEntries, Math.max(MIN_HEAP_ENTRIES, Math.max(capacity, n * 2)));
        ByteBuffer grown = ByteBuffer.allocate(size * entryLength).put(0, current, 0, n * entryLength);
        entries = grown;
        return grown;
    }

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
        heapEntries(n);
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

    /** Writes entries added since the last call, straight from {@link #entries}, and fsyncs the file. */
    public final synchronized void persist() throws IOException {
        int n = count;
        ByteBuffer current = entries; // read after count: it holds at least n entries
        if (n == persistedCount && Files.exists(file)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            int from = Math.min(persistedCount, (int) (channel.size() / entryLength));
            ByteBuffer added = current.slice(from * entryLength, (n - from) * entryLength);
            IndexFiles.writeFully(channel, added, (long) from * entryLength);
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
        entries = IndexFiles.mapReadOnly(file, (long) count * entryLength);
    }
}
