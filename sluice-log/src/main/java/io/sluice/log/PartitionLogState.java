package io.sluice.log;

import io.sluice.log.epoch.LeaderEpochCache;
import io.sluice.log.producer.ProducerSnapshotFiles;
import io.sluice.log.producer.ProducerStateManager;
import io.sluice.log.segment.BatchHeaderTables;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.ship.SegmentPins;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The state of one partition log, shared by the classes that each handle one concern of it for {@link PartitionLog}
 * (append, roll, read, flush, retention, truncation, moves): the segment chain, the log start and end offsets, the
 * recovery point, producer state and leader epochs.
 * Thread-safe as they use it: plain fields are read and written only under {@link #lock}; volatile ones are written
 * under it and may be read without it.
 */
final class PartitionLogState {
    /** Producer snapshots kept; older ones are only needed to truncate far back, then the log is replayed. */
    private static final int SNAPSHOTS_RETAINED = 3;

    final Path dir;
    final String name;
    /** Wall clock in ms, for roll age, delayed deletes and flush times. */
    final LongSupplier clock;
    /** Serializes every change to the log, and reads of producer state and leader epochs. */
    final ReentrantLock lock = new ReentrantLock();

    final ProducerStateManager producerState;
    final LeaderEpochCache epochCache;
    /** Where new segments keep their batch headers. */
    final BatchHeaderTables batchHeaders;

    final AtomicLong recoveryPoint;
    final SegmentDeletionQueue deletions = new SegmentDeletionQueue();
    final SegmentPins pins = new SegmentPins();
    volatile LogConfig config;
    /** Oldest first, the last one active; replaced whole, never modified, so readers can take a snapshot. */
    volatile LogSegment[] segments;

    volatile long logStartOffset;
    volatile long logEndOffset;
    volatile boolean closed;
    long unflushedMessages;
    boolean directoryNeedsFsync;

    PartitionLogState(
            Path dir,
            LogConfig config,
            LongSupplier clock,
            LogLoader.Loaded loaded,
            ProducerStateManager producerState,
            LeaderEpochCache epochCache,
            BatchHeaderTables batchHeaders) {
        this.batchHeaders = batchHeaders;
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
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("partition log " + name + " is closed");
        }
    }

    /** A new empty segment file pair at {@code baseOffset} with the log's index settings; not yet in the chain. */
    LogSegment createSegment(long baseOffset, long nowMs) throws IOException {
        return LogSegment.create(
                dir, baseOffset, config.indexIntervalBytes(), config.maxIndexSizeBytes(), nowMs, batchHeaders);
    }

    /** Renames a segment removed from the chain for deletion; its files go once log.segment.delete.delay.ms passed. */
    void scheduleDeletion(LogSegment segment, long nowMs) throws IOException {
        segment.renameForDeletion();
        deletions.deleteAt(segment, nowMs + config.fileDeleteDelayMs());
    }

    void writeProducerSnapshot(long offset) throws IOException {
        ProducerSnapshotFiles.writeRotating(producerState, dir, offset, SNAPSHOTS_RETAINED);
    }

    /** How {@link PartitionLog#toString()} names the log: its directory name and offsets. */
    @Override
    public String toString() {
        return "PartitionLog[" + name + ", start " + logStartOffset + ", end " + logEndOffset + "]";
    }
}
