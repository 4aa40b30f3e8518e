package io.sluice.log;

import io.sluice.log.epoch.EpochEndOffset;
import io.sluice.log.epoch.EpochEntry;
import io.sluice.log.epoch.LeaderEpochCache;
import io.sluice.log.producer.ActiveProducer;
import io.sluice.log.producer.ProducerStateManager;
import io.sluice.log.segment.BatchHeaderTables;
import io.sluice.log.segment.CleanFaults;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.ship.InstallFaults;
import io.sluice.log.ship.ShippableLog;
import io.sluice.log.ship.StagedLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition: an ordered chain of segments in one directory. This class opens the log and fronts the
 * classes that each handle one concern of it over the shared {@link PartitionLogState}: {@link LogAppender},
 * {@link SegmentRoller}, {@link LogReader}, {@link LogFlusher}, {@link LogRetention}, {@link LogTruncation},
 * {@link LogShipping}, {@link CleanedSegmentSwap}, {@link LogCloser} and {@link EpochAndProducerAccess}.
 * Thread-safe: appends, rolls, retention and truncation are serialized by one lock per partition; reads are
 * lock-free against an immutable snapshot of the segment array and the segments' volatile sizes; flushes fsync
 * outside the append lock, one flusher at a time.
 */
public final class PartitionLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final PartitionLogState state;
    private final LogAppender appender;
    private final LogReader reader;
    private final LogFlusher flusher;
    private final LogRetention retention;
    private final LogTruncation truncation;
    private final LogShipping shipping;
    private final LogCloser closer;
    private final EpochAndProducerAccess epochsAndProducers;

    private PartitionLog(PartitionLogState state) {
        this.state = state;
        SegmentRoller roller = new SegmentRoller(state);
        this.flusher = new LogFlusher(state);
        this.appender = new LogAppender(state, roller, flusher);
        this.reader = new LogReader(state);
        this.retention = new LogRetention(state);
        this.truncation = new LogTruncation(state);
        this.shipping = new LogShipping(state, roller);
        this.closer = new LogCloser(state);
        this.epochsAndProducers = new EpochAndProducerAccess(state);
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
        return open(partitionDir, config, report, recoveryPoint, logStartOffset, clock, BatchHeaderTables.none());
    }

    /**
     * {@link #open(Path, LogConfig, RecoveryReport, long, long, LongSupplier)} whose new segments keep their batch
     * headers within {@code batchHeaders}' budget, for move sources.
     */
    public static PartitionLog open(
            Path partitionDir,
            LogConfig config,
            RecoveryReport report,
            long recoveryPoint,
            long logStartOffset,
            LongSupplier clock,
            BatchHeaderTables batchHeaders)
            throws IOException {
        LogLoader loader = new LogLoader(partitionDir, config, report, batchHeaders);
        LogLoader.Loaded loaded = loader.load(recoveryPoint, logStartOffset, clock.getAsLong());
        ProducerStateManager producerState =
                new ProducerStateManager(partitionDir.getFileName().toString());
        loader.loadProducerState(producerState, loaded.segments(), loaded.logStartOffset(), loaded.logEndOffset());
        LeaderEpochCache epochs = loader.loadEpochs(loaded.segments(), loaded.logStartOffset(), loaded.logEndOffset());
        PartitionLog log = new PartitionLog(
                new PartitionLogState(partitionDir, config, clock, loaded, producerState, epochs, batchHeaders));
        LOG.info(
                "opened {}: log start offset {}, log end offset {}, {} segments, {} producers",
                log.state.name,
                log.state.logStartOffset,
                log.state.logEndOffset,
                log.state.segments.length,
                producerState.producerCount());
        return log;
    }

    // ------------------------------------------------------------------ append (LogAppender)

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
        return appender.appendAsLeader(batches, leaderEpoch, nowMs);
    }

    /**
     * Appends batches whose offsets were assigned by the leader (replication): the first must start at or after
     * the log end offset and offsets must increase. Producer state is updated without validation.
     */
    public AppendResult appendAsFollower(ByteBuffer batches) throws IOException {
        return appender.appendAsFollower(batches);
    }

    // ------------------------------------------------------------------ read (LogReader)

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
        return reader.read(fetchOffset, maxBytes, maxOffsetExclusive, minOneBatch);
    }

    /**
     * ListOffsets by timestamp, as Kafka answers it: the first record at or after the log start whose timestamp is
     * at least {@code timestampMs}, with its timestamp and its batch's leader epoch; null when none is that recent.
     */
    public OffsetAndTimestamp offsetForTimestamp(long timestampMs) {
        return reader.offsetForTimestamp(timestampMs);
    }

    /**
     * ListOffsets MAX_TIMESTAMP, as Kafka 3.9 answers it: the first record carrying the largest timestamp in the
     * log, with its batch's leader epoch; null when the log holds no timestamped batch.
     */
    public OffsetAndTimestamp offsetOfMaxTimestamp() {
        return reader.offsetOfMaxTimestamp();
    }

    // ------------------------------------------------------------------ flush (LogFlusher)

    /** Fsyncs everything appended so far and advances the recovery point to the log end. */
    public void flush() throws IOException {
        flusher.flush();
    }

    /** Fsyncs rolled segments (not the active one), advancing the recovery point to the active segment's base. */
    public void flushRolledSegments() throws IOException {
        flusher.flushRolledSegments();
    }

    // ------------------------------------------------------------------ retention and deletion (LogRetention)

    /**
     * Deletes whole segments from the oldest: those below the log start offset, older than log.retention.ms
     * (by their newest batch timestamp) or beyond log.retention.bytes; never the active segment. Advances the log
     * start offset, expires idle producers and closes files whose delete delay has passed.
     *
     * @return the number of segments deleted
     */
    public int enforceRetention(long nowMs) throws IOException {
        return retention.enforceRetention(nowMs);
    }

    /** Closes and deletes the files of removed segments whose log.segment.delete.delay.ms has passed. */
    public void deleteExpiredFiles(long nowMs) throws IOException {
        retention.deleteExpiredFiles(nowMs);
    }

    /**
     * DeleteRecords: advances the log start offset to {@code offset} and deletes segments entirely below it.
     *
     * @throws OffsetOutOfRangeException when {@code offset} is beyond the log end offset
     */
    public void deleteRecordsBefore(long offset) throws IOException {
        retention.deleteRecordsBefore(offset);
    }

    // ------------------------------------------------------------------ truncation (LogTruncation)

    /**
     * Removes every batch whose last offset is at least {@code offset} (follower truncation; a batch containing
     * {@code offset} goes whole) and reloads producer state. Truncating below the log start offset empties the log
     * and restarts it at {@code offset}.
     */
    public void truncateTo(long offset) throws IOException {
        truncation.truncateTo(offset);
    }

    /**
     * Sets what is called, outside the log's lock, with the new active segment's base offset after each truncation
     * (the log cleaner lowers its checkpoint there, as Kafka's LogManager does). One listener per log.
     */
    public void onTruncation(LongConsumer listener) {
        truncation.onTruncation(listener);
    }

    /** Deletes every segment and restarts the log empty at {@code offset} (log start = log end = offset). */
    public void truncateFullyAndStartAt(long offset) throws IOException {
        truncation.truncateFullyAndStartAt(offset);
    }

    // ------------------------------------------------------------------ log cleaner (io.sluice.log.clean)

    /** The current segment chain, oldest first, for the cleaner to read; never modify it. */
    public LogSegment[] segmentChain() {
        return state.segments;
    }

    /** For each idempotent producer, the last offset of its last batch: the cleaner keeps that batch. */
    public Map<Long, Long> lastBatchOffsetsOfProducers() {
        return epochsAndProducers.lastBatchOffsetsOfProducers();
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
        return CleanedSegmentSwap.replace(state, replaced, sizes, cleaned, faults);
    }

    // ------------------------------------------------------------------ partition moves (LogShipping)

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
        return shipping.pinForShipping(maxBoundaryOffset, rollActiveAtBytes);
    }

    /**
     * Makes this empty log the verified files of {@code staged} (a new replica of a moved partition): they are renamed
     * in, the shipped leader epochs and producer state are loaded, and the log ends at the staged boundary with an
     * empty active segment there, where follower fetch continues. All or nothing: on failure the log is empty again
     * and the files renamed in are back in the staging directory, and so they are after a crash during the install,
     * once the directory is opened again. Files not forced before ({@link StagedLog#durable()} false) lie above the
     * recovery point, like appended records not yet flushed: {@link #flushRolledSegments()} forces them, and an open
     * after a crash recovers them batch by batch.
     *
     * @throws IllegalStateException when the log is not empty
     */
    public void installStaged(StagedLog staged) throws IOException {
        installStaged(staged, InstallFaults.NONE);
    }

    /** {@link #installStaged(StagedLog)}, each file renamed in seen by {@code faults} (crash tests). */
    public void installStaged(StagedLog staged, InstallFaults faults) throws IOException {
        shipping.installStaged(staged, faults);
    }

    // ------------------------------------------------------------------ lifecycle (LogLoader at open, LogCloser)

    /**
     * Flushes, writes a producer snapshot and a clean-shutdown marker, and closes every file (including segments
     * waiting for their delete delay, which are deleted now). Idempotent.
     */
    @Override
    public void close() throws IOException {
        closer.close();
    }

    /** Closes without flushing and deletes the partition directory with everything in it. */
    public void deleteFiles() throws IOException {
        closer.deleteFiles();
    }

    // ------------------------------------------------------------------ accessors

    public long logStartOffset() {
        return state.logStartOffset;
    }

    public long logEndOffset() {
        return state.logEndOffset;
    }
    /** Offset below which everything is known to be fsynced. */
    public long recoveryPoint() {
        return state.recoveryPoint.get();
    }

    public long lastFlushMs() {
        return flusher.lastFlushMs();
    }

    public LogConfig config() {
        return state.config;
    }

    public Path dir() {
        return state.dir;
    }

    public String name() {
        return state.name;
    }

    public boolean isClosed() {
        return state.closed;
    }

    /**
     * The lowest offset a partition move has pinned (segments holding it or later offsets stay as they are), or
     * {@link Long#MAX_VALUE} when nothing is pinned.
     */
    public long lowestPinnedOffset() {
        return state.pins.lowestPinnedOffset();
    }

    public int segmentCount() {
        return state.segments.length;
    }

    /** Base offsets of the live segments, oldest first. */
    public long[] segmentBaseOffsets() {
        LogSegment[] chain = state.segments;
        long[] offsets = new long[chain.length];
        for (int i = 0; i < chain.length; i++) {
            offsets[i] = chain[i].baseOffset();
        }
        return offsets;
    }

    /** Total bytes of the live segment files. */
    public long sizeInBytes() {
        long total = 0;
        for (LogSegment segment : state.segments) {
            total += segment.size();
        }
        return total;
    }

    /** Applies a changed topic configuration (AlterConfigs) to later appends, rolls and retention checks. */
    public void updateConfig(LogConfig newConfig) {
        state.config = newConfig;
    }

    // ------------------------------------------------------------ epochs and producers (EpochAndProducerAccess)

    /**
     * OffsetsForLeaderEpoch: the largest epoch at most {@code epoch} and the offset where it ended (the log end
     * for the latest epoch); {@link EpochEndOffset#UNDEFINED} when unknown.
     */
    public EpochEndOffset endOffsetForEpoch(int epoch) {
        return epochsAndProducers.endOffsetForEpoch(epoch);
    }

    /**
     * Records that leader epoch {@code epoch} starts at the current log end, as a new leader does when it takes over
     * (before it appends anything), so OffsetForLeaderEpoch and diverging-epoch answers see the epoch at once. An
     * epoch not above the latest is ignored.
     */
    public void assignLeaderEpoch(int epoch) throws IOException {
        epochsAndProducers.assignLeaderEpoch(epoch);
    }

    /** The leader epoch of the latest batch, or -1 for an empty log. */
    public int latestEpoch() {
        return epochsAndProducers.latestEpoch();
    }

    /** The leader epoch history, oldest first. */
    public List<EpochEntry> leaderEpochs() {
        return epochsAndProducers.leaderEpochs();
    }

    /** The idempotent producers currently tracked (DescribeProducers), copied under the lock. */
    public List<ActiveProducer> activeProducers() {
        return epochsAndProducers.activeProducers();
    }

    /** Number of idempotent producers currently tracked. */
    public int producerCount() {
        return epochsAndProducers.producerCount();
    }

    @Override
    public String toString() {
        return state.toString();
    }
}
