package io.sluice.log;

import io.sluice.log.segment.LogSegment;
import java.io.IOException;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes a partition log's oldest segments and advances its log start offset: retention (time and size, with idle
 * producers expired) and DeleteRecords; closes removed segments' files once their delete delay has passed.
 * Thread-safe: every change runs under the partition's lock.
 */
final class LogRetention {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final PartitionLogState state;

    LogRetention(PartitionLogState state) {
        this.state = state;
    }

    /** See {@link PartitionLog#enforceRetention}. */
    int enforceRetention(long nowMs) throws IOException {
        state.lock.lock();
        try {
            if (state.closed) {
                return 0;
            }
            LogConfig c = state.config;
            int deletable =
                    RetentionRules.deletableByRetention(state.segments, c, state.pins, state.logStartOffset, nowMs);
            if (deletable > 0) {
                deleteOldestSegments(deletable, nowMs);
            }
            state.producerState.removeExpired(nowMs, c.producerIdExpirationMs());
            deleteExpiredFiles(nowMs);
            return deletable;
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#deleteExpiredFiles}. */
    void deleteExpiredFiles(long nowMs) throws IOException {
        state.lock.lock();
        try {
            state.deletions.deleteDue(nowMs);
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#deleteRecordsBefore}. */
    void deleteRecordsBefore(long offset) throws IOException {
        state.lock.lock();
        try {
            state.ensureOpen();
            if (offset > state.logEndOffset) {
                throw new OffsetOutOfRangeException(state.name, offset, state.logStartOffset, state.logEndOffset);
            }
            advanceLogStartOffset(offset);
            int count = RetentionRules.deletableBelowLogStart(state.segments, state.logStartOffset, state.pins);
            if (count > 0) {
                deleteOldestSegments(count, state.clock.getAsLong());
            }
        } finally {
            state.lock.unlock();
        }
    }

    private void deleteOldestSegments(int count, long nowMs) throws IOException {
        LogSegment[] chain = state.segments;
        state.segments = Arrays.copyOfRange(chain, count, chain.length);
        long newStart = Math.max(state.logStartOffset, state.segments[0].baseOffset());
        for (int i = 0; i < count; i++) {
            state.scheduleDeletion(chain[i], nowMs);
            LOG.info(
                    "deleted segment {} by retention; log start offset of {} is now {}",
                    chain[i],
                    state.name,
                    newStart);
        }
        advanceLogStartOffset(newStart);
    }

    private void advanceLogStartOffset(long newStart) throws IOException {
        if (newStart > state.logStartOffset) {
            state.logStartOffset = newStart;
            state.producerState.onLogStartOffsetIncremented(newStart);
            state.recoveryPoint.accumulateAndGet(newStart, Math::max);
            state.epochCache.truncateFromStart(newStart);
        }
    }
}
