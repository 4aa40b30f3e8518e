package io.sluice.broker.move;

import io.sluice.broker.config.MoveConfig;
import io.sluice.log.LogConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The staging of one transfer and the threads that write into it: the {@link StagingArea}, the disk's lane of staged
 * writes, the page cache's lane when the partition may spill into it, and the {@link StagedFileFlusher}. Closing it
 * stops the threads, waiting for their tasks unless the transfer was cancelled, and closes the staged files once no
 * task can touch them any more: at once, or, for a cancelled transfer whose disk holds a write or a finish up, when
 * that returns ({@link #idle()}); whoever removes the staging waits for that.
 *
 * <p>Not thread-safe; used by the transfer thread ({@link #idle()}'s future completes on a worker).
 */
final class TransferStaging implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransferStaging.class);

    private final StagingArea area;
    private final StagedWrites disk;
    private final StagedWrites pageCache;
    private final StagedFileFlusher flusher;
    private final CancelSignal cancel;
    private CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);

    private TransferStaging(
            StagingArea area,
            StagedWrites disk,
            StagedWrites pageCache,
            StagedFileFlusher flusher,
            CancelSignal cancel) {
        this.area = area;
        this.disk = disk;
        this.pageCache = pageCache;
        this.flusher = flusher;
        this.cancel = cancel;
    }

    /**
     * Opens (creating) the staging of {@code partitionDir}, whose log has {@code logConfig}; the threads start on
     * their first task.
     *
     * @param name   the partition's name, for the threads
     * @param faults test faults ({@link ChunkFaultHook#NONE} outside tests)
     */
    static TransferStaging open(
            Path partitionDir,
            LogConfig logConfig,
            MoveConfig config,
            MoveCodec codec,
            String name,
            ChunkFaultHook faults,
            CancelSignal cancel)
            throws IOException {
        StagingArea area = StagingArea.open(partitionDir, codec, logConfig, config.directIoEnable());
        StagedWrites disk = new StagedWrites(name, false, faults, cancel);
        StagedWrites pageCache = !area.durable() && config.pageCacheSpillEnable()
                ? new StagedWrites(name + "-page-cache", false, faults, cancel)
                : null;
        return new TransferStaging(area, disk, pageCache, new StagedFileFlusher(name, cancel, faults), cancel);
    }

    StagingArea area() {
        return area;
    }

    /** The disk's lane. */
    StagedWrites disk() {
        return disk;
    }

    /** The page cache's lane, null when the partition does not spill. */
    StagedWrites pageCache() {
        return pageCache;
    }

    StagedFileFlusher flusher() {
        return flusher;
    }

    /** Bytes written through the page cache. */
    long bufferedBytes() {
        return disk.bufferedBytes() + (pageCache == null ? 0 : pageCache.bufferedBytes());
    }

    /** The staged write failure behind {@code failure}, or the first one a lane recorded; null when none failed. */
    StagedWriteException writeFailureBehind(Exception failure) {
        return StagedWrites.failureBehind(failure, disk, pageCache);
    }

    /**
     * Completes once no task of the threads runs any more and the staged files are closed; complete at once unless a
     * task outlived {@link #close()} (a cancelled transfer does not wait for a disk that holds a write up).
     */
    CompletableFuture<Void> idle() {
        return idle;
    }

    @Override
    public void close() throws IOException {
        flusher.close();
        if (pageCache != null) {
            pageCache.close();
        }
        disk.close();
        CompletableFuture<Void> drained = CompletableFuture.allOf(
                flusher.drained(),
                disk.drained(),
                pageCache == null ? CompletableFuture.completedFuture(null) : pageCache.drained());
        if (drained.isDone() || !cancel.isCancelled()) {
            // an interrupted transfer keeps its staging: its files close now, so a write it left behind fails on
            // them instead of landing in a file the next transfer resumes
            idle = drained;
            area.close();
            return;
        }
        idle = drained.handle((done, failed) -> {
            try {
                area.close(); // a finish may hold a file's descriptor in a force: closing it waits for that
            } catch (IOException | RuntimeException e) {
                LOG.warn("closing the staged files of a cancelled transfer failed", e);
            }
            return null;
        });
    }
}
