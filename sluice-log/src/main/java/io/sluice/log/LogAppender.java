package io.sluice.log;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

import io.sluice.log.batch.BatchFraming;
import io.sluice.log.producer.BatchMetadata;
import io.sluice.log.producer.ProducerStateManager;
import io.sluice.log.segment.LogSegment;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Appends to a partition log, as leader (offsets assigned and the leader epoch stamped in place, idempotent
 * producers checked) and as follower (offsets as the leader assigned them), rolling first when needed.
 * Thread-safe: appends are serialized by the partition's lock, under which the reused batch view is used; a flush the
 * policy asks for runs after the lock is released.
 */
final class LogAppender {
    private final PartitionLogState state;
    private final SegmentRoller roller;
    private final LogFlusher flusher;
    private final RecordBatchView appendView = new RecordBatchView();

    LogAppender(PartitionLogState state, SegmentRoller roller, LogFlusher flusher) {
        this.state = state;
        this.roller = roller;
        this.flusher = flusher;
    }

    /** See {@link PartitionLog#appendAsLeader}. */
    AppendResult appendAsLeader(ByteBuffer batches, int leaderEpoch, long nowMs)
            throws ProducerStateException, IOException {
        AppendResult result;
        boolean flushNow;
        state.lock.lock();
        try {
            state.ensureOpen();
            int start = batches.position();
            int end = batches.limit();
            long next = state.logEndOffset;
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
                            "batch at byte " + (p - start) + " of the append to " + state.name + ": " + problem);
                }
                long last = next + view.lastOffsetDelta();
                if (BatchFraming.hasProducerId(view)) {
                    if (!view.isControl()) {
                        BatchMetadata duplicate = state.producerState.findDuplicate(view);
                        if (duplicate != null) {
                            return new AppendResult(
                                    duplicate.firstOffset(),
                                    duplicate.lastOffset(),
                                    NO_TIMESTAMP,
                                    -1,
                                    duplicate.timestamp(),
                                    state.logStartOffset,
                                    true);
                        }
                    }
                    if (producerCheck == null) {
                        producerCheck = state.producerState.beginAppend();
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
            if (next == state.logEndOffset) {
                return new AppendResult(-1, -1, NO_TIMESTAMP, -1, -1, state.logStartOffset, false);
            }
            LogSegment active = roller.maybeRoll(end - start, next - 1, maxTimestamp, nowMs);
            long offset = state.logEndOffset;
            for (int p = start; p < end; p += view.sizeInBytes()) {
                view.wrap(batches, p);
                view.baseOffset(offset);
                view.partitionLeaderEpoch(leaderEpoch);
                offset += view.lastOffsetDelta() + 1L;
            }
            active.append(batches, view);
            long firstOffset = state.logEndOffset;
            state.logEndOffset = next;
            state.epochCache.assign(leaderEpoch, firstOffset);
            if (producerCheck != null) {
                producerCheck.commit();
            }
            flushNow = countUnflushed(records);
            result = new AppendResult(
                    firstOffset, next - 1, maxTimestamp, offsetOfMaxTimestamp, -1, state.logStartOffset, false);
        } finally {
            state.lock.unlock();
        }
        return flushedIfDue(flushNow, result);
    }

    /** See {@link PartitionLog#appendAsFollower}. */
    AppendResult appendAsFollower(ByteBuffer batches) throws IOException {
        AppendResult result;
        boolean flushNow;
        state.lock.lock();
        try {
            state.ensureOpen();
            int start = batches.position();
            int end = batches.limit();
            long expectedAtLeast = state.logEndOffset;
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
                            "batch at byte " + (p - start) + " of the append to " + state.name + ": " + problem);
                }
                if (view.baseOffset() < expectedAtLeast) {
                    throw new IllegalArgumentException("batch baseOffset " + view.baseOffset() + " of the append to "
                            + state.name + " is below " + expectedAtLeast);
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
                return new AppendResult(-1, -1, NO_TIMESTAMP, -1, -1, state.logStartOffset, false);
            }
            LogSegment active =
                    roller.maybeRoll(end - start, expectedAtLeast - 1, maxTimestamp, state.clock.getAsLong());
            if (active.size() == 0 && active.baseOffset() < first && active.baseOffset() == state.logEndOffset) {
                // an empty active segment must start at its first batch so relative offsets stay valid
                active = roller.replaceEmptyActive(first);
            } else if (first - active.baseOffset() > Integer.MAX_VALUE) {
                // a gap (the leader's cleaner removed records) stays in the segment unless relative offsets overflow
                active = roller.rollAt(first, state.clock.getAsLong());
            }
            active.append(batches, view);
            for (int p = start; p < end; p += view.sizeInBytes()) {
                state.producerState.replay(view.wrap(batches, p));
                state.epochCache.assign(view.partitionLeaderEpoch(), view.baseOffset());
            }
            state.logEndOffset = expectedAtLeast;
            flushNow = countUnflushed(records);
            result = new AppendResult(
                    first, expectedAtLeast - 1, maxTimestamp, offsetOfMax, -1, state.logStartOffset, false);
        } finally {
            state.lock.unlock();
        }
        return flushedIfDue(flushNow, result);
    }

    /** Counts {@code records} appended since the last flush; true when log.flush.interval.messages is reached. Under the lock. */
    private boolean countUnflushed(long records) {
        state.unflushedMessages += records;
        return state.unflushedMessages >= state.config.flushIntervalMessages();
    }

    /** Flushes the log (outside the lock) when {@code flushNow}, then gives {@code result} back. */
    private AppendResult flushedIfDue(boolean flushNow, AppendResult result) throws IOException {
        if (flushNow) {
            flusher.flush();
        }
        return result;
    }
}
