package io.sluice.log;

import io.sluice.log.producer.ProducerSnapshotFiles;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.ship.InstallFaults;
import io.sluice.log.ship.ShippableLog;
import io.sluice.log.ship.StagedLog;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition log's side of a partition move: on the source, pins the closed segments to ship (rolling a full enough
 * active segment first); on the target, installs the shipped files into an empty log.
 * Thread-safe: both run under the partition's lock.
 */
final class LogShipping {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final PartitionLogState state;
    private final SegmentRoller roller;

    LogShipping(PartitionLogState state, SegmentRoller roller) {
        this.state = state;
        this.roller = roller;
    }

    /** See {@link PartitionLog#pinForShipping(long, int)}. */
    ShippableLog pinForShipping(long maxBoundaryOffset, int rollActiveAtBytes) throws IOException {
        state.lock.lock();
        try {
            state.ensureOpen();
            LogSegment active = state.segments[state.segments.length - 1];
            if (active.size() >= rollActiveAtBytes && active.size() > 0 && state.logEndOffset <= maxBoundaryOffset) {
                roller.rollAt(state.logEndOffset, state.clock.getAsLong());
            }
            return ShippableLog.pin(
                    state.dir,
                    state.segments,
                    state.logStartOffset,
                    maxBoundaryOffset,
                    state.epochCache.entries(),
                    ProducerSnapshotFiles.offsets(state.dir),
                    state.pins);
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#installStaged(StagedLog, InstallFaults)}. */
    void installStaged(StagedLog staged, InstallFaults faults) throws IOException {
        state.lock.lock();
        try {
            state.ensureOpen();
            LogSegment[] segments = state.segments;
            if (state.logEndOffset != state.logStartOffset || segments.length != 1 || segments[0].size() != 0) {
                throw new IllegalStateException("cannot install shipped segments into " + state + ": it is not empty");
            }
            long nowMs = state.clock.getAsLong();
            StagedLogInstaller installer = new StagedLogInstaller(state.dir, state.config, state.batchHeaders, faults);
            StagedLogInstaller.Installed installed;
            try {
                installed = installer.install(staged, segments[0], nowMs, state.producerState, state.epochCache);
            } catch (IOException | RuntimeException e) {
                if (installer.removedEmptyActive()) {
                    state.segments = new LogSegment[] {state.createSegment(state.logStartOffset, nowMs)};
                    state.producerState.clear();
                    state.epochCache.clear();
                }
                throw e;
            }
            state.segments = installed.segments();
            state.logStartOffset = installed.logStartOffset();
            state.logEndOffset = installed.logEndOffset();
            if (staged.durable()) {
                state.recoveryPoint.set(state.logEndOffset);
            } else {
                // the flush task forces the installed segments and then advances the recovery point past them
                state.recoveryPoint.set(state.logStartOffset);
                state.directoryNeedsFsync = true;
            }
            LOG.info(
                    "installed {} shipped segments into {}: log start offset {}, log end offset {}{}",
                    staged.baseOffsets().length,
                    state.name,
                    state.logStartOffset,
                    state.logEndOffset,
                    staged.durable() ? "" : " (forced to disk by the flush task)");
        } finally {
            state.lock.unlock();
        }
    }
}
