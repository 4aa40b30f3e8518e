package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

import io.sluice.log.index.CorruptIndexException;
import io.sluice.log.index.OffsetIndex;
import io.sluice.log.index.TimeIndex;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * One segment: a {@code .log} file of whole v2 batches with its sparse offset and time indexes.
 * Thread-safety: mutated only under the owning partition's append lock; {@link #read}, {@link #findBatchPosition}
 * and {@link #findByTimestamp} are lock-free and see a consistent prefix bounded by the volatile {@link #size()};
 * {@link #flush()} (run outside the append lock) and {@link #renameForDeletion()} synchronize on the segment.
 */
public final class LogSegment {
    private final Path dir;
    private final long baseOffset;
    private final int indexIntervalBytes;
    private final int maxIndexSizeBytes;
    private final FileChannel channel;
    private volatile Path logFile;
    private volatile int size;
    private volatile long nextOffset;
    private volatile long maxTimestamp = NO_TIMESTAMP;
    private volatile long offsetOfMaxTimestamp = -1;
    private OffsetIndex offsetIndex;
    private TimeIndex timeIndex;
    private long firstBatchTimestamp = NO_TIMESTAMP;
    private final long createdMs;
    private int bytesSinceLastIndexEntry;
    private volatile boolean renamedForDeletion;
    private volatile boolean inactive;

    private LogSegment(
            Path dir,
            long baseOffset,
            int indexIntervalBytes,
            int maxIndexSizeBytes,
            FileChannel channel,
            long createdMs,
            Path logFile) {
        this.dir = dir;
        this.baseOffset = baseOffset;
        this.indexIntervalBytes = indexIntervalBytes;
        this.maxIndexSizeBytes = maxIndexSizeBytes;
        this.channel = channel;
        this.logFile = logFile;
        this.nextOffset = baseOffset;
        this.createdMs = createdMs;
    }

    /** Creates new empty files for a segment starting at {@code baseOffset}; an existing .log is truncated. */
    public static LogSegment create(
            Path dir, long baseOffset, int indexIntervalBytes, int maxIndexSizeBytes, long nowMs) throws IOException {
        return createFiles(dir, baseOffset, indexIntervalBytes, maxIndexSizeBytes, nowMs, "");
    }

    /**
     * Creates the empty segment a clean writes into: every file name carries {@link SegmentFileNames#CLEANED_SUFFIX}
     * (a leftover of an interrupted clean is replaced), until {@link #changeFileSuffixes} swaps it in.
     */
    public static LogSegment createCleaned(
            Path dir, long baseOffset, int indexIntervalBytes, int maxIndexSizeBytes, long nowMs) throws IOException {
        return createFiles(
                dir, baseOffset, indexIntervalBytes, maxIndexSizeBytes, nowMs, SegmentFileNames.CLEANED_SUFFIX);
    }

    /** New empty files whose names end in {@code suffix} (empty for the final names); an existing .log is truncated. */
    private static LogSegment createFiles(
            Path dir, long baseOffset, int indexIntervalBytes, int maxIndexSizeBytes, long nowMs, String suffix)
            throws IOException {
        Path log = SegmentFileNames.withSuffix(SegmentFileNames.logFile(dir, baseOffset), suffix);
        FileChannel channel = FileChannel.open(
                log,
                StandardOpenOption.CREATE,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        LogSegment segment =
                new LogSegment(dir, baseOffset, indexIntervalBytes, maxIndexSizeBytes, channel, nowMs, log);
        segment.offsetIndex = OffsetIndex.empty(
                SegmentFileNames.withSuffix(SegmentFileNames.indexFile(dir, baseOffset), suffix),
                baseOffset,
                maxIndexSizeBytes);
        segment.timeIndex = TimeIndex.empty(
                SegmentFileNames.withSuffix(SegmentFileNames.timeIndexFile(dir, baseOffset), suffix),
                baseOffset,
                maxIndexSizeBytes);
        return segment;
    }

    /**
     * Opens an existing segment file without trusting anything in it yet: follow with {@link #recover} or
     * {@link #loadTrusted}.
     */
    public static LogSegment openExisting(Path dir, long baseOffset, int indexIntervalBytes, int maxIndexSizeBytes)
            throws IOException {
        Path file = SegmentFileNames.logFile(dir, baseOffset);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        long created = Files.getLastModifiedTime(file).toMillis();
        return new LogSegment(dir, baseOffset, indexIntervalBytes, maxIndexSizeBytes, channel, created, file);
    }

    /** Result of scanning a segment file: how much was valid and why the scan stopped early, if it did. */
    public record ScanOutcome(long validBytes, long fileBytes, String problem) {
        public long truncatedBytes() {
            return fileBytes - validBytes;
        }
    }

    /**
     * Scans every batch (checking its CRC-32C when asked), rebuilds both indexes from scratch and truncates the
     * file at the first batch that is torn, insane, out of order or corrupt.
     */
    public ScanOutcome recover(BatchScanner scanner, boolean verifyCrc) throws IOException {
        long fileSize = channel.size();
        if (fileSize > Integer.MAX_VALUE) {
            fileSize = Integer.MAX_VALUE;
        }
        offsetIndex = OffsetIndex.empty(
                offsetIndex == null ? SegmentFileNames.indexFile(dir, baseOffset) : offsetIndex.file(),
                baseOffset,
                maxIndexSizeBytes);
        timeIndex = TimeIndex.empty(
                timeIndex == null ? SegmentFileNames.timeIndexFile(dir, baseOffset) : timeIndex.file(),
                baseOffset,
                maxIndexSizeBytes);
        maxTimestamp = NO_TIMESTAMP;
        offsetOfMaxTimestamp = -1;
        firstBatchTimestamp = NO_TIMESTAMP;
        bytesSinceLastIndexEntry = 0;
        long expectedAtLeast = baseOffset;
        long position = 0;
        String problem = null;
        while (position < fileSize) {
            RecordBatchView batch = scanner.readHeader(channel, position, fileSize);
            if (batch == null) {
                problem = scanner.problem();
                break;
            }
            if (batch.baseOffset() < expectedAtLeast) {
                problem = "baseOffset " + batch.baseOffset() + " is below the expected " + expectedAtLeast;
                break;
            }
            if (batch.lastOffset() - baseOffset > Integer.MAX_VALUE) {
                problem = "lastOffset " + batch.lastOffset() + " is too far above the segment base " + baseOffset;
                break;
            }
            if (verifyCrc && !scanner.isCrcValid(channel, position)) {
                problem = "CRC-32C mismatch in batch at baseOffset " + batch.baseOffset();
                break;
            }
            indexBatch(batch, (int) position);
            expectedAtLeast = batch.lastOffset() + 1;
            nextOffset = expectedAtLeast;
            position += batch.sizeInBytes();
        }
        if (position == 0) {
            nextOffset = baseOffset;
        }
        long originalSize = channel.size();
        if (position < originalSize) {
            channel.truncate(position);
        }
        size = (int) position;
        offsetIndex.persist();
        timeIndex.persist();
        return new ScanOutcome(position, originalSize, problem);
    }

    /**
     * Loads a segment below the recovery point: indexes are sanity-checked and the batches after the last
     * offset index entry are walked (headers only) to find the end.
     *
     * @return null when everything was consistent, else what was wrong (then the caller runs {@link #recover})
     */
    public String loadTrusted(BatchScanner scanner) throws IOException {
        long fileSize = channel.size();
        if (fileSize > Integer.MAX_VALUE) {
            return "file size " + fileSize + " exceeds " + Integer.MAX_VALUE;
        }
        Path indexPath = SegmentFileNames.indexFile(dir, baseOffset);
        Path timeIndexPath = SegmentFileNames.timeIndexFile(dir, baseOffset);
        try {
            offsetIndex = OffsetIndex.load(indexPath, baseOffset, maxIndexSizeBytes, fileSize);
        } catch (CorruptIndexException e) {
            return "offset index " + e.getMessage();
        }
        long position = offsetIndex.lastPosition();
        long expectedAtLeast = baseOffset;
        long tailMaxTimestamp = NO_TIMESTAMP;
        long tailOffsetOfMax = -1;
        boolean first = true;
        while (position < fileSize) {
            RecordBatchView batch = scanner.readHeader(channel, position, fileSize);
            if (batch == null) {
                return "batch at position " + position + ": " + scanner.problem();
            }
            if (first && offsetIndex.entryCount() > 0 && batch.lastOffset() != offsetIndex.lastOffset()) {
                return "offset index entry for offset " + offsetIndex.lastOffset() + " points at a batch ending at "
                        + batch.lastOffset();
            }
            if (batch.baseOffset() < expectedAtLeast) {
                return "baseOffset " + batch.baseOffset() + " is below the expected " + expectedAtLeast;
            }
            first = false;
            if (batch.maxTimestamp() > tailMaxTimestamp) {
                tailMaxTimestamp = batch.maxTimestamp();
                tailOffsetOfMax = batch.lastOffset();
            }
            expectedAtLeast = batch.lastOffset() + 1;
            position += batch.sizeInBytes();
        }
        if (first && offsetIndex.entryCount() > 0) {
            return "offset index points at position " + offsetIndex.lastPosition() + " at the end of the file";
        }
        nextOffset = fileSize == 0 ? baseOffset : expectedAtLeast;
        size = (int) fileSize;
        try {
            timeIndex =
                    TimeIndex.load(timeIndexPath, baseOffset, maxIndexSizeBytes, Math.max(nextOffset, baseOffset + 1));
        } catch (CorruptIndexException e) {
            return "time index " + e.getMessage();
        }
        if (fileSize > 0 && timeIndex.entryCount() == 0 && offsetIndex.entryCount() > 0) {
            return "time index is empty while the offset index has " + offsetIndex.entryCount() + " entries";
        }
        maxTimestamp = timeIndex.lastTimestamp();
        offsetOfMaxTimestamp = timeIndex.lastEntryOffset();
        if (tailMaxTimestamp > maxTimestamp) {
            maxTimestamp = tailMaxTimestamp;
            offsetOfMaxTimestamp = tailOffsetOfMax;
        }
        readFirstBatchTimestamp(scanner);
        bytesSinceLastIndexEntry = (int) (fileSize - offsetIndex.lastPosition());
        return null;
    }

    private void readFirstBatchTimestamp(BatchScanner scanner) throws IOException {
        RecordBatchView first = scanner.readHeader(channel, 0, size);
        firstBatchTimestamp = first == null ? NO_TIMESTAMP : first.maxTimestamp();
    }

    private void indexBatch(RecordBatchView batch, int position) {
        if (batch.maxTimestamp() > maxTimestamp) {
            maxTimestamp = batch.maxTimestamp();
            offsetOfMaxTimestamp = batch.lastOffset();
        }
        if (firstBatchTimestamp == NO_TIMESTAMP && position == 0) {
            firstBatchTimestamp = batch.maxTimestamp();
        }
        if (bytesSinceLastIndexEntry > indexIntervalBytes) {
            offsetIndex.append(batch.lastOffset(), position);
            timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp);
            bytesSinceLastIndexEntry = 0;
        }
        bytesSinceLastIndexEntry += batch.sizeInBytes();
    }

    /**
     * Appends whole batches whose offsets are already assigned. The buffer's position and limit are not changed.
     * Appending thread only.
     */
    public void append(ByteBuffer batches, RecordBatchView view) throws IOException {
        int start = batches.position();
        int end = batches.limit();
        int filePosition = size;
        ByteBuffer source = batches.duplicate();
        long at = filePosition;
        while (source.hasRemaining()) {
            at += channel.write(source, at);
        }
        long last = nextOffset - 1;
        for (int p = start; p < end; ) {
            view.wrap(batches, p);
            indexBatch(view, filePosition + (p - start));
            last = view.lastOffset();
            p += view.sizeInBytes();
        }
        nextOffset = last + 1;
        size = filePosition + (end - start);
    }

    /**
     * File position of the first batch whose last offset is at least {@code offset}, or -1 when no batch in this
     * segment reaches it.
     */
    public long findBatchPosition(long offset, BatchScanner scanner) throws IOException {
        int limit = size;
        long position = offsetIndex.lookup(offset);
        while (position < limit) {
            RecordBatchView batch = scanner.readHeader(channel, position, limit);
            if (batch == null) {
                return -1;
            }
            if (batch.lastOffset() >= offset) {
                return position;
            }
            position += batch.sizeInBytes();
        }
        return -1;
    }

    /** A byte range of whole batches in this segment. */
    public record Region(long position, int sizeInBytes, long firstOffset) {}

    /**
     * Whole batches from the one containing {@code offset}: at most {@code maxBytes} (the first batch whole
     * regardless when {@code minOneBatch}), only batches starting below {@code maxOffsetExclusive}.
     *
     * The end is found through the offset index (positions of batch starts), so a read walks the headers of
     * about one index interval, not of every batch it returns.
     *
     * @return null when no batch in this segment reaches {@code offset}; a zero-size region when limits stop
     *         the first batch
     */
    public Region read(long offset, int maxBytes, long maxOffsetExclusive, boolean minOneBatch, BatchScanner scanner)
            throws IOException {
        int limit = size;
        long start = findBatchPosition(offset, scanner);
        if (start < 0) {
            return null;
        }
        long end = maxOffsetExclusive >= nextOffset ? limit : endPositionBefore(maxOffsetExclusive, limit, scanner);
        if (end <= start) {
            return new Region(start, 0, -1);
        }
        RecordBatchView first = scanner.readHeader(channel, start, end);
        if (first == null) {
            return new Region(start, 0, -1);
        }
        long firstOffset = first.baseOffset();
        int firstSize = first.sizeInBytes();
        if (firstSize > maxBytes) {
            return minOneBatch ? new Region(start, firstSize, firstOffset) : new Region(start, 0, -1);
        }
        long target = Math.min(end, start + (long) maxBytes);
        // jump to the last indexed batch boundary before the target, then walk at most about one index interval
        long position = Math.max(start + firstSize, offsetIndex.floorPosition(target));
        while (position < target) {
            RecordBatchView batch = scanner.readHeader(channel, position, limit);
            if (batch == null || position + batch.sizeInBytes() > target) {
                break;
            }
            position += batch.sizeInBytes();
        }
        return new Region(start, (int) (position - start), firstOffset);
    }

    /** Position after the last batch that starts below {@code offsetExclusive} (the high watermark). */
    private long endPositionBefore(long offsetExclusive, int limit, BatchScanner scanner) throws IOException {
        long position = findBatchPosition(offsetExclusive, scanner);
        if (position < 0) {
            return limit;
        }
        RecordBatchView batch = scanner.readHeader(channel, position, limit);
        if (batch != null && batch.baseOffset() < offsetExclusive) {
            position += batch.sizeInBytes();
        }
        return position;
    }

    /**
     * Removes every batch whose last offset is at least {@code offset} (a batch containing it goes whole).
     *
     * @return bytes removed
     */
    public int truncateTo(long offset, BatchScanner scanner) throws IOException {
        long position = findBatchPosition(offset, scanner);
        if (position < 0) {
            return 0;
        }
        RecordBatchView batch = scanner.readHeader(channel, position, size);
        long newNext = batch == null ? offset : batch.baseOffset();
        int removed = size - (int) position;
        inactive = false;
        offsetIndex.truncateToOffset(newNext);
        timeIndex.truncateToOffset(newNext);
        channel.truncate(position);
        size = (int) position;
        nextOffset = position == 0 ? baseOffset : newNext;
        recomputeMaxTimestamp(scanner);
        bytesSinceLastIndexEntry = (int) (position - offsetIndex.lastPosition());
        return removed;
    }

    private void recomputeMaxTimestamp(BatchScanner scanner) throws IOException {
        long max = timeIndex.lastTimestamp();
        long offsetOfMax = timeIndex.lastEntryOffset();
        long position = offsetIndex.lastPosition();
        int limit = size;
        while (position < limit) {
            RecordBatchView batch = scanner.readHeader(channel, position, limit);
            if (batch == null) {
                break;
            }
            if (batch.maxTimestamp() > max) {
                max = batch.maxTimestamp();
                offsetOfMax = batch.lastOffset();
            }
            position += batch.sizeInBytes();
        }
        maxTimestamp = max;
        offsetOfMaxTimestamp = offsetOfMax;
        if (size == 0) {
            firstBatchTimestamp = NO_TIMESTAMP;
        }
    }

    /** Records the final max timestamp in the time index, as Kafka does when a segment stops being active. */
    public void onBecomeInactive() {
        if (maxTimestamp != NO_TIMESTAMP) {
            timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp);
        }
        inactive = true;
    }

    /** Writes the indexes and swaps their heap arrays for read-only mappings; for segments no longer appended to. */
    public synchronized void mapIndexesReadOnly() throws IOException {
        if (renamedForDeletion || !channel.isOpen()) {
            return;
        }
        offsetIndex.mapReadOnly();
        timeIndex.mapReadOnly();
    }

    /** fdatasync of the log file, then the index files are written behind and fsynced. */
    public synchronized void flush() throws IOException {
        if (renamedForDeletion || !channel.isOpen()) {
            return;
        }
        channel.force(false);
        offsetIndex.persist();
        timeIndex.persist();
        if (inactive) {
            mapIndexesReadOnly();
        }
    }

    /** Renames the files to {@code *.deleted}; the channel stays open so in-flight reads finish. */
    public synchronized void renameForDeletion() throws IOException {
        renamedForDeletion = true;
        Path deletedLog = SegmentFileNames.withSuffix(logFile, SegmentFileNames.DELETED_SUFFIX);
        Files.move(logFile, deletedLog, StandardCopyOption.REPLACE_EXISTING);
        logFile = deletedLog;
        for (io.sluice.log.index.SegmentIndexFile index :
                new io.sluice.log.index.SegmentIndexFile[] {offsetIndex, timeIndex}) {
            index.renameTo(SegmentFileNames.withSuffix(index.file(), SegmentFileNames.DELETED_SUFFIX));
        }
    }

    /**
     * Renames every file of this segment from suffix {@code from} to suffix {@code to} (either may be empty), the
     * {@code .log} last: the cleaner's {@code .cleaned} to {@code .swap} to none. Indexes are written first; the
     * channel and index mappings stay valid.
     */
    public synchronized void changeFileSuffixes(String from, String to) throws IOException {
        for (io.sluice.log.index.SegmentIndexFile index :
                new io.sluice.log.index.SegmentIndexFile[] {offsetIndex, timeIndex}) {
            index.persist();
            index.renameTo(SegmentFileNames.replaceSuffix(index.file(), from, to));
        }
        Path target = SegmentFileNames.replaceSuffix(logFile, from, to);
        Files.move(logFile, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        logFile = target;
    }

    /** Closes the channel and deletes the files under their current names. */
    public void closeAndDelete() throws IOException {
        channel.close();
        Files.deleteIfExists(logFile);
        Path index = offsetIndex == null ? SegmentFileNames.indexFile(dir, baseOffset) : offsetIndex.file();
        Path timeIndexPath = timeIndex == null ? SegmentFileNames.timeIndexFile(dir, baseOffset) : timeIndex.file();
        for (Path file : new Path[] {index, timeIndexPath}) {
            Files.deleteIfExists(file);
        }
    }

    public void close() throws IOException {
        channel.close();
    }

    /**
     * Whether an append whose largest batch timestamp is {@code appendMaxTimestamp} must roll this segment by age, as
     * Kafka decides it: the time between the segment's first batch timestamp and the append's, or, when the segment's
     * first batch has no timestamp, between the segment's creation and now. Records written with old timestamps
     * (mirrored, replayed) therefore age a segment by their own clock, not the wall clock: otherwise every append of
     * records older than {@code ageMs} would roll a new segment.
     */
    public boolean isOlderThan(long ageMs, long appendMaxTimestamp, long nowMs) {
        long waited = firstBatchTimestamp >= 0 ? appendMaxTimestamp - firstBatchTimestamp : nowMs - createdMs;
        return size > 0 && waited > ageMs;
    }

    /** For time retention: the largest batch timestamp, else the file's modification time. */
    public long largestTimestamp() throws IOException {
        if (maxTimestamp != NO_TIMESTAMP) {
            return maxTimestamp;
        }
        return Files.exists(logFile) ? Files.getLastModifiedTime(logFile).toMillis() : createdMs;
    }

    /** Modification time of the .log file (the cleaner carries it over to a cleaned segment, as Kafka does). */
    public long lastModifiedMs() throws IOException {
        return Files.getLastModifiedTime(logFile).toMillis();
    }

    public void lastModifiedMs(long ms) throws IOException {
        Files.setLastModifiedTime(logFile, java.nio.file.attribute.FileTime.fromMillis(ms));
    }

    public boolean isIndexFull() {
        return offsetIndex.isFull() || timeIndex.isFull();
    }

    public long baseOffset() {
        return baseOffset;
    }

    public int size() {
        return size;
    }

    public long nextOffset() {
        return nextOffset;
    }

    public long maxTimestamp() {
        return maxTimestamp;
    }
    /** Max timestamp of the first batch, or -1 for an empty segment (max.compaction.lag.ms measures from it). */
    public long firstBatchTimestamp() {
        return firstBatchTimestamp;
    }
    /** The larger of the two index files' sizes, for grouping segments under the index size cap. */
    public long indexBytes() {
        return Math.max(offsetIndex.sizeInBytes(), timeIndex.sizeInBytes());
    }

    public long offsetOfMaxTimestamp() {
        return offsetOfMaxTimestamp;
    }

    public FileChannel channel() {
        return channel;
    }

    public Path logFile() {
        return logFile;
    }

    public OffsetIndex offsetIndex() {
        return offsetIndex;
    }

    public TimeIndex timeIndex() {
        return timeIndex;
    }

    @Override
    public String toString() {
        return logFile.getParent().getFileName() + "/" + logFile.getFileName();
    }
}
