package io.sluice.log;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

import io.sluice.log.batch.BatchFraming;
import io.sluice.log.checkpoint.CleanShutdownFile;
import io.sluice.log.checkpoint.OffsetCheckpointFile;
import io.sluice.log.epoch.EpochEndOffset;
import io.sluice.log.epoch.EpochEntry;
import io.sluice.log.epoch.LeaderEpochCache;
import io.sluice.log.producer.ActiveProducer;
import io.sluice.log.producer.BatchMetadata;
import io.sluice.log.producer.ProducerSnapshotFiles;
import io.sluice.log.producer.ProducerStateManager;
import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.CleanFaults;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentChainSearch;
import io.sluice.log.ship.SegmentPins;
import io.sluice.log.ship.ShippableLog;
import io.sluice.log.ship.StagedLog;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition: an ordered chain of segments in one directory.
 * Thread-safe: appends, rolls, retention and truncation are serialized by one lock per partition; reads are
 * lock-free against an immutable snapshot of the segment array and the segments' volatile sizes; flushes fsync
 * outside the append lock, one flusher at a time.
 */
public final class PartitionLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);
    private static final ThreadLocal<BatchScanner> READ_SCANNER = ThreadLocal.withInitial(BatchScanner::new);
    /** Producer snapshots kept; older ones are only needed to truncate far back, then the log is replayed. */
    private static final int SNAPSHOTS_RETAINED = 3;

    private final Path dir;
    private final String name;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final ReentrantLock flushLock = new ReentrantLock();
    private final ProducerStateManager producerState;
    private final LeaderEpochCache epochCache;
    private final RecordBatchView appendView = new RecordBatchView();
    private final BatchScanner writerScanner = new BatchScanner();
    private final AtomicLong recoveryPoint;
    private final SegmentDeletionQueue deletions = new SegmentDeletionQueue();
    private final SegmentPins pins = new SegmentPins();
    private volatile LogConfig config;
    private volatile LogSegment[] segments;
    private volatile long logStartOffset;
    private volatile long logEndOffset;
    private volatile long lastFlushMs;
    private volatile boolean closed;
    private long unflushedMessages;
    private boolean directoryNeedsFsync;
    private volatile LongConsumer truncationListener = offset -> {};

    private PartitionLog(
            Path dir,
            LogConfig config,
            LongSupplier clock,
            LogLoader.Loaded loaded,
            ProducerStateManager producerState,
            LeaderEpochCache epochCache) {
        this.dir = dir;
        this.name = dir.getFileName().toString();
        this.config = config;
        this.clock = clock;
        this.segments = loaded.segments().toArray(new LogSegment[0]);
        this.logStartOffset = loaded.logStartOffset();
        this.logEndOffset = loaded.logEndOffset();
        this.recoveryPoint = new AtomicLong(loaded.logEndOffset());
        this.producerState = producerState;
        this.epochCache = epochCache;
        this.lastFlushMs = clock.getAsLong();
    }

    /**
     * Opens (creating if needed) the log in {@code partitionDir}, recovering every segment not known to be flushed.
     * A clean {@link #close()} leaves a marker that makes the next open trust everything it flushed.
     */
    public static PartitionLog open(Path partitionDir, LogConfig config, RecoveryReport report) throws IOException {
        return open(partitionDir, config, report, 0L, 0L, System::currentTimeMillis);
    }

    /**
     * Opens the log with checkpointed offsets (from the log directory's checkpoint files).
     *
     * @param recoveryPoint  segments entirely below it are trusted (indexes sanity-checked only); later ones are
     *                       CRC-scanned batch by batch
     * @param logStartOffset the checkpointed log start offset (0 when unknown)
     * @param clock          wall clock in ms, for roll age and delayed deletes
     */
    public static PartitionLog open(
            Path partitionDir,
            LogConfig config,
            RecoveryReport report,
            long recoveryPoint,
            long logStartOffset,
            LongSupplier clock)
            throws IOException {
        LogLoader loader = new LogLoader(partitionDir, config, report);
        LogLoader.Loaded loaded = loader.load(recoveryPoint, logStartOffset, clock.getAsLong());
        ProducerStateManager state =
                new ProducerStateManager(partitionDir.getFileName().toString());
        loader.loadProducerState(state, loaded.segments(), loaded.logStartOffset(), loaded.logEndOffset());
        LeaderEpochCache epochs = loader.loadEpochs(loaded.segments(), loaded.logStartOffset(), loaded.logEndOffset());
        PartitionLog log = new PartitionLog(partitionDir, config, clock, loaded, state, epochs);
        LOG.info(
                "opened {}: log start offset {}, log end offset {}, {} segments, {} producers",
                log.name,
                log.logStartOffset,
                log.logEndOffset,
                log.segments.length,
                state.producerCount());
        return log;
    }

    // ------------------------------------------------------------------ append

    /**
     * Appends whole, already validated v2 batches as the leader: assigns offsets and stamps the leader epoch in
     * place, checks idempotent producers, rolls when needed and flushes per policy. The buffer's position and
     * limit are left unchanged; only the baseOffset and partitionLeaderEpoch fields are written.
     *
     * @throws ProducerStateException    INVALID_PRODUCER_EPOCH or OUT_OF_ORDER_SEQUENCE_NUMBER; nothing appended
     * @throws IllegalArgumentException  when the bytes are not whole v2 batches (naming the field and value)
     */
    public AppendResult appendAsLeader(ByteBuffer batches, int leaderEpoch, long nowMs)
            throws ProducerStateException, IOException {
        AppendResult result;
        boolean flushNow;
        lock.lock();
        try {
            ensureOpen();
            int start = batches.position();
            int end = batches.limit();
            long next = logEndOffset;
            long maxTimestamp = NO_TIMESTAMP;
            long offsetOfMaxTimestamp = -1;
            long records = 0;
            ProducerStateManager.Append producerCheck = null;
            RecordBatchView view = appendView;
            for (int p = start; p < end; p += view.sizeInBytes()) {
                view.wrap(batches, p);
                String problem = BatchFraming.check(view, end - p);
                if (problem != null) {
                    throw new IllegalArgumentException(
                            "batch at byte " + (p - start) + " of the append to " + name + ": " + problem);
                }
                long last = next + view.lastOffsetDelta();
                if (BatchFraming.hasProducerId(view)) {
                    if (!view.isControl()) {
                        BatchMetadata duplicate = producerState.findDuplicate(view);
                        if (duplicate != null) {
                            return new AppendResult(
                                    duplicate.firstOffset(),
                                    duplicate.lastOffset(),
                                    NO_TIMESTAMP,
                                    -1,
                                    duplicate.timestamp(),
                                    logStartOffset,
                                    true);
                        }
                    }
                    if (producerCheck == null) {
                        producerCheck = producerState.beginAppend();
                    }
                    producerCheck.validate(view, next, last);
                }
                if (view.maxTimestamp() > maxTimestamp) {
                    maxTimestamp = view.maxTimestamp();
                    offsetOfMaxTimestamp = last;
                }
                records += view.recordCount();
                next = last + 1;
            }
            if (next == logEndOffset) {
                return new AppendResult(-1, -1, NO_TIMESTAMP, -1, -1, logStartOffset, false);
            }
            LogSegment active = maybeRoll(end - start, next - 1, maxTimestamp, nowMs);
            long offset = logEndOffset;
            for (int p = start; p < end; p += view.sizeInBytes()) {
                view.wrap(batches, p);
                view.baseOffset(offset);
                view.partitionLeaderEpoch(leaderEpoch);
                offset += view.lastOffsetDelta() + 1L;
            }
            active.append(batches, view);
            long firstOffset = logEndOffset;
            logEndOffset = next;
            epochCache.assign(leaderEpoch, firstOffset);
            if (producerCheck != null) {
                producerCheck.commit();
            }
            unflushedMessages += records;
            flushNow = unflushedMessages >= config.flushIntervalMessages();
            result = new AppendResult(
                    firstOffset, next - 1, maxTimestamp, offsetOfMaxTimestamp, -1, logStartOffset, false);
        } finally {
            lock.unlock();
        }
        if (flushNow) {
            flush();
        }
        return result;
    }

    /**
     * Appends batches whose offsets were assigned by the leader (replication): the first must start at or after
     * the log end offset and offsets must increase. Producer state is updated without validation.
     */
    public AppendResult appendAsFollower(ByteBuffer batches) throws IOException {
        AppendResult result;
        boolean flushNow;
        lock.lock();
        try {
            ensureOpen();
            int start = batches.position();
            int end = batches.limit();
            long expectedAtLeast = logEndOffset;
            long first = -1;
            long maxTimestamp = NO_TIMESTAMP;
            long offsetOfMax = -1;
            long records = 0;
            RecordBatchView view = appendView;
            for (int p = start; p < end; p += view.sizeInBytes()) {
                view.wrap(batches, p);
                String problem = BatchFraming.check(view, end - p);
                if (problem != null) {
                    throw new IllegalArgumentException(
                            "batch at byte " + (p - start) + " of the append to " + name + ": " + problem);
                }
                if (view.baseOffset() < expectedAtLeast) {
                    throw new IllegalArgumentException("batch baseOffset " + view.baseOffset() + " of the append to "
                            + name + " is below " + expectedAtLeast);
                }
                if (first < 0) {
                    first = view.baseOffset();
                }
                if (view.maxTimestamp() > maxTimestamp) {
                    maxTimestamp = view.maxTimestamp();
                    offsetOfMax = view.lastOffset();
                }
                records += view.recordCount();
                expectedAtLeast = view.lastOffset() + 1;
            }
            if (first < 0) {
                return new AppendResult(-1, -1, NO_TIMESTAMP, -1, -1, logStartOffset, false);
            }
            LogSegment active = maybeRoll(end - start, expectedAtLeast - 1, maxTimestamp, clock.getAsLong());
            if (active.size() == 0 && active.baseOffset() < first && active.baseOffset() == logEndOffset) {
                // an empty active segment must start at its first batch so relative offsets stay valid
                active = replaceEmptyActive(first);
            } else if (first - active.baseOffset() > Integer.MAX_VALUE) {
                // a gap (the leader's cleaner removed records) stays in the segment unless relative offsets overflow
                active = rollAt(first, clock.getAsLong());
            }
            active.append(batches, view);
            for (int p = start; p < end; p += view.sizeInBytes()) {
                producerState.replay(view.wrap(batches, p));
                epochCache.assign(view.partitionLeaderEpoch(), view.baseOffset());
            }
            logEndOffset = expectedAtLeast;
            unflushedMessages += records;
            flushNow = unflushedMessages >= config.flushIntervalMessages();
            result = new AppendResult(first, expectedAtLeast - 1, maxTimestamp, offsetOfMax, -1, logStartOffset, false);
        } finally {
            lock.unlock();
        }
        if (flushNow) {
            flush();
        }
        return result;
    }

    /** @param appendMaxTimestamp the largest batch timestamp of the append, which ages the segment as in Kafka */
    private LogSegment maybeRoll(int appendBytes, long lastOffset, long appendMaxTimestamp, long nowMs)
            throws IOException {
        LogSegment active = segments[segments.length - 1];
        if (active.size() == 0) {
            return active;
        }
        boolean full = (long) active.size() + appendBytes > config.segmentBytes();
        boolean old = active.isOlderThan(config.maxSegmentMs(), appendMaxTimestamp, nowMs);
        boolean offsetOverflow = lastOffset - active.baseOffset() > Integer.MAX_VALUE;
        if (full || old || offsetOverflow || active.isIndexFull()) {
            return rollAt(logEndOffset, nowMs);
        }
        return active;
    }

    private LogSegment rollAt(long baseOffset, long nowMs) throws IOException {
        LogSegment previous = segments[segments.length - 1];
        previous.onBecomeInactive();
        LogSegment created =
                LogSegment.create(dir, baseOffset, config.indexIntervalBytes(), config.maxIndexSizeBytes(), nowMs);
        LogSegment[] next = Arrays.copyOf(segments, segments.length + 1);
        next[next.length - 1] = created;
        segments = next;
        directoryNeedsFsync = true;
        writeProducerSnapshot(baseOffset);
        LOG.debug("rolled {} to a new segment at offset {}", name, baseOffset);
        return created;
    }

    private LogSegment replaceEmptyActive(long baseOffset) throws IOException {
        LogSegment empty = segments[segments.length - 1];
        empty.closeAndDelete();
        LogSegment created = LogSegment.create(
                dir, baseOffset, config.indexIntervalBytes(), config.maxIndexSizeBytes(), clock.getAsLong());
        LogSegment[] next = segments.clone();
        next[next.length - 1] = created;
        segments = next;
        directoryNeedsFsync = true;
        return created;
    }

    private void writeProducerSnapshot(long offset) throws IOException {
        ProducerSnapshotFiles.writeRotating(producerState, dir, offset, SNAPSHOTS_RETAINED);
    }

    // ------------------------------------------------------------------ read

    /** {@link #read(long, int, long, boolean)} with the first batch always returned whole (KIP-74). */
    public LogReadResult read(long fetchOffset, int maxBytes, long maxOffsetExclusive) {
        return read(fetchOffset, maxBytes, maxOffsetExclusive, true);
    }

    /**
     * Whole batches from the one containing {@code fetchOffset}, from a single segment, without copying.
     *
     * @param maxBytes           upper bound on the bytes returned, except that with {@code minOneBatch} the first
     *                           batch is returned whole even when larger (KIP-74)
     * @param maxOffsetExclusive batches starting at or above it are not returned (the high watermark)
     * @throws OffsetOutOfRangeException when {@code fetchOffset} is below the log start or above the log end
     * @throws UncheckedIOException      when the segment file cannot be read
     */
    public LogReadResult read(long fetchOffset, int maxBytes, long maxOffsetExclusive, boolean minOneBatch) {
        long start = logStartOffset;
        long end = logEndOffset;
        LogSegment[] chain = segments;
        if (fetchOffset < start || fetchOffset > end) {
            throw new OffsetOutOfRangeException(name, fetchOffset, start, end);
        }
        long limit = Math.min(maxOffsetExclusive, end);
        if (fetchOffset >= limit) {
            return LogReadResult.empty(start, end);
        }
        if (fetchOffset < chain[0].baseOffset()) {
            // retention or DeleteRecords removed the segment between reading the log start and the segment chain
            throw new OffsetOutOfRangeException(name, fetchOffset, logStartOffset, logEndOffset);
        }
        BatchScanner scanner = READ_SCANNER.get();
        try {
            for (int i = SegmentChainSearch.floorSegment(chain, fetchOffset); i < chain.length; i++) {
                LogSegment.Region region = chain[i].read(fetchOffset, maxBytes, limit, minOneBatch, scanner);
                if (region != null) {
                    if (region.sizeInBytes() == 0) {
                        return LogReadResult.empty(start, end);
                    }
                    return new LogReadResult(
                            chain[i].channel(),
                            region.position(),
                            region.sizeInBytes(),
                            region.firstOffset(),
                            start,
                            end);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + name + " at offset " + fetchOffset, e);
        }
        return LogReadResult.empty(start, end);
    }

    /**
     * ListOffsets by timestamp, as Kafka answers it: the first record at or after the log start whose timestamp is
     * at least {@code timestampMs}, with its timestamp and its batch's leader epoch; null when none is that recent.
     */
    public OffsetAndTimestamp offsetForTimestamp(long timestampMs) {
        return SegmentChainSearch.offsetForTimestamp(name, segments, logStartOffset, timestampMs, READ_SCANNER.get());
    }

    /**
     * ListOffsets MAX_TIMESTAMP, as Kafka 3.9 answers it: the first record carrying the largest timestamp in the
     * log, with its batch's leader epoch; null when the log holds no timestamped batch.
     */
    public OffsetAndTimestamp offsetOfMaxTimestamp() {
        return SegmentChainSearch.offsetOfMaxTimestamp(name, segments, logStartOffset, READ_SCANNER.get());
    }

    // ------------------------------------------------------------------ flush

    /** Fsyncs everything appended so far and advances the recovery point to the log end. */
    public void flush() throws IOException {
        flushUpTo(Long.MAX_VALUE);
    }

    /** Fsyncs rolled segments (not the active one), advancing the recovery point to the active segment's base. */
    public void flushRolledSegments() throws IOException {
        flushUpTo(segments[segments.length - 1].baseOffset());
    }

    private void flushUpTo(long offsetLimit) throws IOException {
        // one flusher at a time: a caller returns only once everything up to its offset, including a new
        // segment's directory entry, is durable; appends do not wait for this lock
        flushLock.lock();
        try {
            flushUpToSerialized(offsetLimit);
        } finally {
            flushLock.unlock();
        }
    }

    private void flushUpToSerialized(long offsetLimit) throws IOException {
        List<LogSegment> toFlush = new ArrayList<>();
        long upTo;
        boolean fsyncDirectory;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            upTo = Math.min(offsetLimit, logEndOffset);
            long from = recoveryPoint.get();
            if (upTo <= from && !directoryNeedsFsync) {
                return;
            }
            for (LogSegment segment : segments) {
                if (segment.nextOffset() > from && segment.baseOffset() < upTo) {
                    toFlush.add(segment);
                }
            }
            fsyncDirectory = directoryNeedsFsync;
            directoryNeedsFsync = false;
            if (upTo == logEndOffset) {
                unflushedMessages = 0;
            }
        } finally {
            lock.unlock();
        }
        for (LogSegment segment : toFlush) {
            segment.flush();
        }
        if (fsyncDirectory) {
            OffsetCheckpointFile.fsyncDirectory(dir);
        }
        recoveryPoint.accumulateAndGet(upTo, Math::max);
        lastFlushMs = clock.getAsLong();
    }

    // ------------------------------------------------------------------ retention, deletion, truncation

    /**
     * Deletes whole segments from the oldest: those below the log start offset, older than log.retention.ms
     * (by their newest batch timestamp) or beyond log.retention.bytes; never the active segment. Advances the log
     * start offset, expires idle producers and closes files whose delete delay has passed.
     *
     * @return the number of segments deleted
     */
    public int enforceRetention(long nowMs) throws IOException {
        lock.lock();
        try {
            if (closed) {
                return 0;
            }
            LogConfig c = config;
            int deletable = RetentionRules.deletableByRetention(segments, c, pins, logStartOffset, nowMs);
            if (deletable > 0) {
                deleteOldestSegments(deletable, nowMs);
            }
            producerState.removeExpired(nowMs, c.producerIdExpirationMs());
            deleteExpiredFiles(nowMs);
            return deletable;
        } finally {
            lock.unlock();
        }
    }

    private void deleteOldestSegments(int count, long nowMs) throws IOException {
        LogSegment[] chain = segments;
        segments = Arrays.copyOfRange(chain, count, chain.length);
        long newStart = Math.max(logStartOffset, segments[0].baseOffset());
        for (int i = 0; i < count; i++) {
            scheduleDeletion(chain[i], nowMs);
            LOG.info("deleted segment {} by retention; log start offset of {} is now {}", chain[i], name, newStart);
        }
        advanceLogStartOffset(newStart);
    }

    private void advanceLogStartOffset(long newStart) throws IOException {
        if (newStart > logStartOffset) {
            logStartOffset = newStart;
            producerState.onLogStartOffsetIncremented(newStart);
            recoveryPoint.accumulateAndGet(newStart, Math::max);
            epochCache.truncateFromStart(newStart);
        }
    }

    private void scheduleDeletion(LogSegment segment, long nowMs) throws IOException {
        segment.renameForDeletion();
        deletions.deleteAt(segment, nowMs + config.fileDeleteDelayMs());
    }

    /** Closes and deletes the files of removed segments whose log.segment.delete.delay.ms has passed. */
    public void deleteExpiredFiles(long nowMs) throws IOException {
        lock.lock();
        try {
            deletions.deleteDue(nowMs);
        } finally {
            lock.unlock();
        }
    }

    /**
     * DeleteRecords: advances the log start offset to {@code offset} and deletes segments entirely below it.
     *
     * @throws OffsetOutOfRangeException when {@code offset} is beyond the log end offset
     */
    public void deleteRecordsBefore(long offset) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            if (offset > logEndOffset) {
                throw new OffsetOutOfRangeException(name, offset, logStartOffset, logEndOffset);
            }
            advanceLogStartOffset(offset);
            int count = RetentionRules.deletableBelowLogStart(segments, logStartOffset, pins);
            if (count > 0) {
                deleteOldestSegments(count, clock.getAsLong());
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes every batch whose last offset is at least {@code offset} (follower truncation; a batch containing
     * {@code offset} goes whole) and reloads producer state. Truncating below the log start offset empties the log
     * and restarts it at {@code offset}.
     */
    public void truncateTo(long offset) throws IOException {
        boolean truncated = false;
        lock.lock();
        try {
            ensureOpen();
            if (offset >= logEndOffset) {
                return;
            }
            truncated = true;
            if (offset < logStartOffset) {
                truncateFullyAndStartAt(offset);
                return;
            }
            long nowMs = clock.getAsLong();
            LogSegment[] chain = segments;
            int keep = SegmentChainSearch.floorSegment(chain, offset);
            for (int i = chain.length - 1; i > keep; i--) {
                scheduleDeletion(chain[i], nowMs);
            }
            LogSegment last = chain[keep];
            last.truncateTo(offset, writerScanner);
            segments = Arrays.copyOf(chain, keep + 1);
            logEndOffset = last.nextOffset();
            if (logEndOffset < logStartOffset) {
                // the batch holding the log start went whole: nothing readable is left
                truncateFullyAndStartAt(logStartOffset);
                return;
            }
            recoveryPoint.accumulateAndGet(logEndOffset, Math::min);
            epochCache.truncateFromEnd(logEndOffset);
            ProducerSnapshotFiles.deleteAbove(dir, logEndOffset);
            RecoveryReport ignored = new RecoveryReport();
            new LogLoader(dir, config, ignored)
                    .loadProducerState(producerState, List.of(segments), logStartOffset, logEndOffset);
            LOG.info("truncated {} to log end offset {}", name, logEndOffset);
        } finally {
            lock.unlock();
            if (truncated) {
                notifyTruncated();
            }
        }
    }

    /**
     * Sets what is called, outside the log's lock, with the new active segment's base offset after each truncation
     * (the log cleaner lowers its checkpoint there, as Kafka's LogManager does). One listener per log.
     */
    public void onTruncation(LongConsumer listener) {
        this.truncationListener = Objects.requireNonNull(listener, "listener");
    }

    /** Tells the listener once the outermost truncation released the lock. */
    private void notifyTruncated() {
        if (!lock.isHeldByCurrentThread()) {
            LogSegment[] chain = segments;
            truncationListener.accept(chain[chain.length - 1].baseOffset());
        }
    }

    /** Deletes every segment and restarts the log empty at {@code offset} (log start = log end = offset). */
    public void truncateFullyAndStartAt(long offset) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            long nowMs = clock.getAsLong();
            for (LogSegment segment : segments) {
                scheduleDeletion(segment, nowMs);
            }
            segments = new LogSegment[] {
                LogSegment.create(dir, offset, config.indexIntervalBytes(), config.maxIndexSizeBytes(), nowMs)
            };
            directoryNeedsFsync = true;
            logStartOffset = offset;
            logEndOffset = offset;
            recoveryPoint.set(offset);
            producerState.clear();
            epochCache.clear();
            ProducerSnapshotFiles.deleteAll(dir);
        } finally {
            lock.unlock();
            notifyTruncated();
        }
    }

    // ------------------------------------------------------------------ log cleaner (io.sluice.log.clean)

    /** The current segment chain, oldest first, for the cleaner to read; never modify it. */
    public LogSegment[] segmentChain() {
        return segments;
    }

    /** For each idempotent producer, the last offset of its last batch: the cleaner keeps that batch. */
    public Map<Long, Long> lastBatchOffsetsOfProducers() {
        lock.lock();
        try {
            return producerState.lastBatchOffsets();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Swaps {@code cleaned} (a fsynced segment with {@code .cleaned} file names) in for the consecutive segments
     * {@code replaced}, Kafka's way: {@code .cleaned} to {@code .swap}, the replaced segments to {@code .deleted}
     * (their files stay open for in-flight reads until the delete delay), {@code .swap} to the final names.
     *
     * @param sizes the sizes of {@code replaced} when the clean read them
     * @return false, changing nothing, when the log changed meanwhile (closed, truncated, retention, a pinned move)
     */
    public boolean replaceSegments(LogSegment[] replaced, int[] sizes, LogSegment cleaned, CleanFaults faults)
            throws IOException {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            LogSegment[] next = CleanedSegmentSwap.swapIn(dir, segments, replaced, sizes, cleaned, pins, faults);
            if (next == null) {
                return false;
            }
            segments = next;
            long deleteAtMs = clock.getAsLong() + config.fileDeleteDelayMs();
            for (LogSegment old : replaced) {
                deletions.deleteAt(old, deleteAtMs);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ partition moves (io.sluice.log.ship)

    /**
     * Lists the closed segments below {@code maxBoundaryOffset} with the leader epochs and producer snapshot that go
     * with them, and pins those segments against retention and DeleteRecords until the returned view is closed.
     */
    public ShippableLog pinForShipping(long maxBoundaryOffset) throws IOException {
        return pinForShipping(maxBoundaryOffset, Integer.MAX_VALUE);
    }

    /**
     * {@link #pinForShipping(long)}, after rolling the active segment when it holds at least {@code rollActiveAtBytes}
     * and every record of it is below {@code maxBoundaryOffset}: its records then travel as a closed file too, instead
     * of by follower fetch after the files.
     */
    public ShippableLog pinForShipping(long maxBoundaryOffset, int rollActiveAtBytes) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            LogSegment active = segments[segments.length - 1];
            if (active.size() >= rollActiveAtBytes && active.size() > 0 && logEndOffset <= maxBoundaryOffset) {
                rollAt(logEndOffset, clock.getAsLong());
            }
            return ShippableLog.pin(
                    dir,
                    segments,
                    logStartOffset,
                    maxBoundaryOffset,
                    epochCache.entries(),
                    ProducerSnapshotFiles.offsets(dir),
                    pins);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes this empty log the verified files of {@code staged} (a new replica of a moved partition): they are renamed
     * in, the shipped leader epochs and producer state are loaded, and the log ends at the staged boundary with an
     * empty active segment there, where follower fetch continues. On failure the log is empty again.
     *
     * @throws IllegalStateException when the log is not empty
     */
    public void installStaged(StagedLog staged) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            if (logEndOffset != logStartOffset || segments.length != 1 || segments[0].size() != 0) {
                throw new IllegalStateException("cannot install shipped segments into " + this + ": it is not empty");
            }
            long nowMs = clock.getAsLong();
            StagedLogInstaller installer = new StagedLogInstaller(dir, config);
            StagedLogInstaller.Installed installed;
            try {
                installed = installer.install(staged, segments[0], nowMs, producerState, epochCache);
            } catch (IOException | RuntimeException e) {
                if (installer.removedEmptyActive()) {
                    segments = new LogSegment[] {
                        LogSegment.create(
                                dir, logStartOffset, config.indexIntervalBytes(), config.maxIndexSizeBytes(), nowMs)
                    };
                    producerState.clear();
                    epochCache.clear();
                }
                throw e;
            }
            segments = installed.segments();
            logStartOffset = installed.logStartOffset();
            logEndOffset = installed.logEndOffset();
            recoveryPoint.set(logEndOffset);
            LOG.info(
                    "installed {} shipped segments into {}: log start offset {}, log end offset {}",
                    staged.baseOffsets().length,
                    name,
                    logStartOffset,
                    logEndOffset);
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Flushes, writes a producer snapshot and a clean-shutdown marker, and closes every file (including segments
     * waiting for their delete delay, which are deleted now). Idempotent.
     */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            for (LogSegment segment : segments) {
                segment.flush();
            }
            OffsetCheckpointFile.fsyncDirectory(dir);
            recoveryPoint.set(logEndOffset);
            writeProducerSnapshot(logEndOffset);
            CleanShutdownFile.write(dir, new CleanShutdownFile.Offsets(logEndOffset, logStartOffset));
            closeFiles();
            LOG.info("closed {} at log end offset {}", name, logEndOffset);
        } finally {
            lock.unlock();
        }
    }

    private void closeFiles() throws IOException {
        closed = true;
        for (LogSegment segment : segments) {
            segment.close();
        }
        deletions.deleteAllNow();
    }

    /** Closes without flushing and deletes the partition directory with everything in it. */
    public void deleteFiles() throws IOException {
        lock.lock();
        try {
            if (!closed) {
                closeFiles();
            }
            DirectoryTrees.deleteRecursively(dir);
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("partition log " + name + " is closed");
        }
    }

    // ------------------------------------------------------------------ accessors

    public long logStartOffset() {
        return logStartOffset;
    }

    public long logEndOffset() {
        return logEndOffset;
    }
    /** Offset below which everything is known to be fsynced. */
    public long recoveryPoint() {
        return recoveryPoint.get();
    }

    public long lastFlushMs() {
        return lastFlushMs;
    }

    public LogConfig config() {
        return config;
    }

    public Path dir() {
        return dir;
    }

    public String name() {
        return name;
    }

    public boolean isClosed() {
        return closed;
    }

    public int segmentCount() {
        return segments.length;
    }

    /** Base offsets of the live segments, oldest first. */
    public long[] segmentBaseOffsets() {
        LogSegment[] chain = segments;
        long[] offsets = new long[chain.length];
        for (int i = 0; i < chain.length; i++) {
            offsets[i] = chain[i].baseOffset();
        }
        return offsets;
    }

    /** Total bytes of the live segment files. */
    public long sizeInBytes() {
        long total = 0;
        for (LogSegment segment : segments) {
            total += segment.size();
        }
        return total;
    }

    /** Applies a changed topic configuration (AlterConfigs) to later appends, rolls and retention checks. */
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    /**
     * OffsetsForLeaderEpoch: the largest epoch at most {@code epoch} and the offset where it ended (the log end
     * for the latest epoch); {@link EpochEndOffset#UNDEFINED} when unknown.
     */
    public EpochEndOffset endOffsetForEpoch(int epoch) {
        lock.lock();
        try {
            return epochCache.endOffsetFor(epoch, logEndOffset);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records that leader epoch {@code epoch} starts at the current log end, as a new leader does when it takes over
     * (before it appends anything), so OffsetForLeaderEpoch and diverging-epoch answers see the epoch at once. An
     * epoch not above the latest is ignored.
     */
    public void assignLeaderEpoch(int epoch) throws IOException {
        lock.lock();
        try {
            ensureOpen();
            epochCache.assign(epoch, logEndOffset);
        } finally {
            lock.unlock();
        }
    }

    /** The leader epoch of the latest batch, or -1 for an empty log. */
    public int latestEpoch() {
        lock.lock();
        try {
            return epochCache.latestEpoch();
        } finally {
            lock.unlock();
        }
    }

    /** The leader epoch history, oldest first. */
    public List<EpochEntry> leaderEpochs() {
        lock.lock();
        try {
            return epochCache.entries();
        } finally {
            lock.unlock();
        }
    }

    /** The idempotent producers currently tracked (DescribeProducers), copied under the lock. */
    public List<ActiveProducer> activeProducers() {
        lock.lock();
        try {
            return producerState.activeProducers();
        } finally {
            lock.unlock();
        }
    }

    /** Number of idempotent producers currently tracked. */
    public int producerCount() {
        lock.lock();
        try {
            return producerState.producerCount();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "PartitionLog[" + name + ", start " + logStartOffset + ", end " + logEndOffset + "]";
    }
}
