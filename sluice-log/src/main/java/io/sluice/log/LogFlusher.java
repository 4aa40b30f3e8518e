package io.sluice.log;

import io.sluice.log.checkpoint.AtomicFile;
import io.sluice.log.segment.LogSegment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Makes a partition log durable: fsyncs the segments between the recovery point and a limit, and the directory when
 * a segment file was created, then advances the recovery point.
 * Thread-safe: one flusher at a time (its own lock), taking the partition's lock only to choose what to fsync; the
 * fsyncs run outside it, so appends do not wait for them.
 */
final class LogFlusher {
    private final PartitionLogState state;
    private final ReentrantLock flushLock = new ReentrantLock();
    private volatile long lastFlushMs;

    LogFlusher(PartitionLogState state) {
        this.state = state;
        this.lastFlushMs = state.clock.getAsLong();
    }

    /** See {@link PartitionLog#flush}. */
    void flush() throws IOException {
        flushUpTo(Long.MAX_VALUE);
    }

    /** See {@link PartitionLog#flushRolledSegments}. */
    void flushRolledSegments() throws IOException {
        LogSegment[] chain = state.segments; // read once: a roll may replace the array between two reads
        flushUpTo(chain[chain.length - 1].baseOffset());
    }

    /** When the last flush finished (the log's opening until the first), in ms of the log's clock. */
    long lastFlushMs() {
        return lastFlushMs;
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
        state.lock.lock();
        try {
            if (state.closed) {
                return;
            }
            upTo = Math.min(offsetLimit, state.logEndOffset);
            long from = state.recoveryPoint.get();
            if (upTo <= from && !state.directoryNeedsFsync) {
                return;
            }
            for (LogSegment segment : state.segments) {
                if (segment.nextOffset() > from && segment.baseOffset() < upTo) {
                    toFlush.add(segment);
                }
            }
            fsyncDirectory = state.directoryNeedsFsync;
            state.directoryNeedsFsync = false;
            if (upTo == state.logEndOffset) {
                state.unflushedMessages = 0;
            }
        } finally {
            state.lock.unlock();
        }
        for (LogSegment segment : toFlush) {
            segment.flush();
        }
        if (fsyncDirectory) {
            AtomicFile.fsyncDirectory(state.dir);
        }
        state.recoveryPoint.accumulateAndGet(upTo, Math::max);
        lastFlushMs = state.clock.getAsLong();
    }
}
