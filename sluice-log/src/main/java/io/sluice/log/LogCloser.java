package io.sluice.log;

import io.sluice.log.checkpoint.AtomicFile;
import io.sluice.log.checkpoint.CleanShutdownFile;
import io.sluice.log.segment.LogSegment;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a partition log: a clean close (flushed, with the producer snapshot and clean-shutdown marker the next open
 * trusts) or a close that deletes the directory; both close every file, including segments waiting to be deleted.
 * Thread-safe: both run under the partition's lock.
 */
final class LogCloser {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final PartitionLogState state;

    LogCloser(PartitionLogState state) {
        this.state = state;
    }

    /** See {@link PartitionLog#close}. */
    void close() throws IOException {
        state.lock.lock();
        try {
            if (state.closed) {
                return;
            }
            for (LogSegment segment : state.segments) {
                segment.flush();
            }
            AtomicFile.fsyncDirectory(state.dir);
            state.recoveryPoint.set(state.logEndOffset);
            state.writeProducerSnapshot(state.logEndOffset);
            CleanShutdownFile.write(state.dir, new CleanShutdownFile.Offsets(state.logEndOffset, state.logStartOffset));
            closeFiles();
            LOG.info("closed {} at log end offset {}", state.name, state.logEndOffset);
        } finally {
            state.lock.unlock();
        }
    }

    /** See {@link PartitionLog#deleteFiles}. */
    void deleteFiles() throws IOException {
        state.lock.lock();
        try {
            if (!state.closed) {
                closeFiles();
            }
            DirectoryTrees.deleteRecursively(state.dir);
        } finally {
            state.lock.unlock();
        }
    }

    private void closeFiles() throws IOException {
        state.closed = true;
        for (LogSegment segment : state.segments) {
            segment.close();
        }
        state.deletions.deleteAllNow();
    }
}
