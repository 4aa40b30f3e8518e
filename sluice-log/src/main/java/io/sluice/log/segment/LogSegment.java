package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

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
import java.util.zip.CRC32C;

/**
 * One segment: a {@code .log} file of whole v2 batches with its sparse offset and time indexes.
 * Thread-safety: mutated only under the owning partition's append lock; {@link #read} and {@link #findBatchPosition}
 * are lock-free and see a consistent prefix bounded by the volatile {@link #size()};
 * {@link #flush()} (run outside the append lock) and {@link #renameForDeletion()} synchronize on the segment.
 *
 * <p>The header walks of recovery and of a trusted load are in {@link SegmentRebuild}, those of the read path in
 * {@link SegmentReads}.
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
    /** The headers appended in this process, for senders; null when none are kept (or the budget dropped them). */
    private volatile BatchHeaderTable batchHeaders;
    /** The header checksums' scratch; appending thread only. */
    private CRC32C headerCrc;

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
     * {@link #create} keeping a {@link BatchHeaderTable} of the batches appended from now on, within {@code tables}'
     * budget.
     */
    public static LogSegment create(
            Path dir,
            long baseOffset,
            int indexIntervalBytes,
            int maxIndexSizeBytes,
            long nowMs,
            BatchHeaderTables tables)
            throws IOException {
        LogSegment segment = create(dir, baseOffset, indexIntervalBytes, maxIndexSizeBytes, nowMs);
        segment.batchHeaders = tables.create();
        return segment;
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
        SegmentRebuild.ValidPrefix valid =
                SegmentRebuild.scanValidPrefix(channel, baseOffset, scanner, verifyCrc, this::indexBatch);
        nextOffset = valid.nextOffset();
        long originalSize = channel.size();
        if (valid.validBytes() < originalSize) {
            channel.truncate(valid.validBytes());
        }
        size = (int) valid.validBytes();
        offsetIndex.persist();
        timeIndex.persist();
        return new ScanOutcome(valid.validBytes(), originalSize, valid.problem());
    }

    /**
     * Loads a segment below the recovery point: indexes are sanity-checked and the batches after the last
     * offset index entry are walked (headers only) to find the end.
     *
     * @return null when everything was consistent, else what was wrong (then the caller runs {@link #recover})
     */
    public String loadTrusted(BatchScanner scanner) throws IOException {
        SegmentRebuild.TrustedLoad load =
                SegmentRebuild.loadTrusted(channel, dir, baseOffset, maxIndexSizeBytes, scanner);
        if (load.problem() != null) {
            return load.problem();
        }
        offsetIndex = load.offsetIndex();
        timeIndex = load.timeIndex();
        nextOffset = load.nextOffset();
        size = load.size();
        maxTimestamp = load.maxTimestamp();
        offsetOfMaxTimestamp = load.offsetOfMaxTimestamp();
        firstBatchTimestamp = load.firstBatchTimestamp();
        bytesSinceLastIndexEntry = load.bytesSinceLastIndexEntry();
        return null;
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
        BatchHeaderTable headers = batchHeaders;
        for (int p = start; p < end; ) {
            view.wrap(batches, p);
            indexBatch(view, filePosition + (p - start));
            last = view.lastOffset();
            if (headers != null) {
                headers = keepHeader(headers, source, p, view, filePosition + (p - start));
            }
            p += view.sizeInBytes();
        }
        nextOffset = last + 1;
        size = filePosition + (end - start);
    }

    /**
     * Adds the batch at {@code p} of {@code bytes} (a view of the appended buffer whose position and limit this moves)
     * to {@code headers}; null when the budget dropped the table.
     */
    private BatchHeaderTable keepHeader(
            BatchHeaderTable headers, ByteBuffer bytes, int p, RecordBatchView view, int filePosition) {
        if (headers.dropped()) {
            batchHeaders = null;
            return null;
        }
        if (headerCrc == null) {
            headerCrc = new CRC32C();
        }
        headerCrc.reset();
        headerCrc.update(bytes.clear().limit(p + ATTRIBUTES_OFFSET).position(p));
        if (!headers.add(
                filePosition, (int) headerCrc.getValue(), view.storedCrc(), filePosition + view.sizeInBytes())) {
            batchHeaders = null;
            headers.truncated();
            return null;
        }
        return headers;
    }

    /** The headers of the batches appended in this process, or null when none are kept. Any thread. */
    public BatchHeaderTable batchHeaders() {
        BatchHeaderTable headers = batchHeaders;
        return headers == null || headers.dropped() ? null : headers;
    }

    private void releaseBatchHeaders() {
        BatchHeaderTable headers = batchHeaders;
        batchHeaders = null;
        if (headers != null) {
            headers.release();
        }
    }

    /**
     * File position of the first batch whose last offset is at least {@code offset}, or -1 when no batch in this
     * segment reaches it.
     */
    public long findBatchPosition(long offset, BatchScanner scanner) throws IOException {
        return SegmentReads.findBatchPosition(this, offset, scanner);
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
        return SegmentReads.read(this, offset, maxBytes, maxOffsetExclusive, minOneBatch, scanner);
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
        BatchHeaderTable headers = batchHeaders;
        batchHeaders = null;
        if (headers != null) {
            headers.truncated();
        }
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
        SegmentRebuild.MaxTimestamp max = SegmentRebuild.maxTimestamp(channel, offsetIndex, timeIndex, size, scanner);
        maxTimestamp = max.timestamp();
        offsetOfMaxTimestamp = max.offset();
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
        releaseBatchHeaders();
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
        releaseBatchHeaders();
        channel.close();
        Files.deleteIfExists(logFile);
        Path index = offsetIndex == null ? SegmentFileNames.indexFile(dir, baseOffset) : offsetIndex.file();
        Path timeIndexPath = timeIndex == null ? SegmentFileNames.timeIndexFile(dir, baseOffset) : timeIndex.file();
        for (Path file : new Path[] {index, timeIndexPath}) {
            Files.deleteIfExists(file);
        }
    }

    public void close() throws IOException {
        releaseBatchHeaders();
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
