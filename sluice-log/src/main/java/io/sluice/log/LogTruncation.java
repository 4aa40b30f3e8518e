package io.sluice.log;

import io.sluice.log.producer.ProducerSnapshotFiles;
import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentChainSearch;
import io.sluice.log.ship.SegmentPins;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts a partition log back from its end (follower truncation, producer state reloaded) or empties it to restart at
 * an offset, and tells the truncation listener where the active segment then starts.
 * Thread-safe: truncations run under the partition's lock (the scanner is used only under it); the listener is
 * called after the outermost truncation released it.
 */
final class LogTruncation {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final PartitionLogState state;
    private final BatchScanner writerScanner = new BatchScanner();
    private volatile LongConsumer truncationListener = offset -> {};

    LogTruncation(PartitionLogState state) {
        this.state = state;
    }

    /** See {@link PartitionLog#truncateTo}. */
    void truncateTo(long offset) throws IOException {
        boolean truncated = false;
        state.lock.lock();
        try {
            state.ensureOpen();
            if (offset >= state.logEndOffset) {
                return;
            }
            truncated = true;
            if (offset < state.logStartOffset) {
                truncateFullyAndStartAt(offset);
                return;
            }
            long nowMs = state.clock.getAsLong();
            LogSegment[] chain = state.segments;
            int keep = SegmentChainSearch.floorSegment(chain, offset);
            for (int i = chain.length - 1; i > keep; i--) {
                state.scheduleDeletion(chain[i], nowMs);
            }
            LogSegment last = chain[keep];
            try (SegmentPins.Truncating cutting = state.pins.truncating()) { // no shipper reads the file meanwhile
                last.truncateTo(offset, writerScanner);
                state.segments = Arrays.copyOf(chain, keep + 1);
                state.logEndOffset = last.nextOffset();
                state.pins.truncatedTo(state.logEndOffset);
            }
            if (state.logEndOffset < state.logStartOffset) {
                // the batch holding the log start went whole: nothing readable is left
                truncateFullyAndStartAt(state.logStartOffset);
                return;
            }
            state.recoveryPoint.accumulateAndGet(state.logEndOffset, Math::min);
            state.epochCache.truncateFromEnd(state.logEndOffset);
            ProducerSnapshotFiles.deleteAbove(state.dir, state.logEndOffset);
            RecoveryReport ignored = new RecoveryReport();
            new LogLoader(state.dir, state.config, ignored)
                    .loadProducerState(
                            state.producerState, List.of(state.segments), state.logStartOffset, state.logEndOffset);
            LOG.info("truncated {} to log end offset {}", state.name, state.logEndOffset);
        } finally {
            state.lock.unlock();
            if (truncated) {
                notifyTruncated();
            }
        }
    }

    /** See {@link PartitionLog#onTruncation}. */
    void onTruncation(LongConsumer listener) {
        this.truncationListener = Objects.requireNonNull(listener, "listener");
    }

    /** Tells the listener once the outermost truncation released the lock. */
    private void notifyTruncated() {
        if (!state.lock.isHeldByCurrentThread()) {
            LogSegment[] chain = state.segments;
            truncationListener.accept(chain[chain.length - 1].baseOffset());
        }
    }

    /** See {@link PartitionLog#truncateFullyAndStartAt}. */
    void truncateFullyAndStartAt(long offset) throws IOException {
        state.lock.lock();
        try {
            state.ensureOpen();
            long nowMs = state.clock.getAsLong();
            for (LogSegment segment : state.segments) {
                state.scheduleDeletion(segment, nowMs);
            }
            state.segments = new LogSegment[] {state.createSegment(offset, nowMs)};
            state.pins.truncatedTo(Long.MIN_VALUE);
            state.directoryNeedsFsync = true;
            state.logStartOffset = offset;
            state.logEndOffset = offset;
            state.recoveryPoint.set(offset);
            state.producerState.clear();
            state.epochCache.clear();
            ProducerSnapshotFiles.deleteAll(state.dir);
        } finally {
            state.lock.unlock();
            notifyTruncated();
        }
    }
}
