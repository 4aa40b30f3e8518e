package io.sluice.broker.move;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finishes each staged segment on its own thread as soon as the file is complete ({@link StagedFile#finish}: its
 * index files, and when the move makes its files durable before the install, the force to disk), while the transfer
 * goes on with the next one, so the disk writes a move's files back as they arrive instead of all at once before the
 * install. Best effort: the install finishes a file again when this failed, so a failure here costs only time, and
 * is logged. {@link #awaitAll()} before the files are closed and installed. Once the transfer is cancelled no finish
 * starts any more (one would write index files into staging that is being removed), and no wait for one goes on.
 *
 * <p>Not thread-safe; called by the transfer thread only (the finishes run on one daemon thread of its own).
 */
final class StagedFileFlusher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StagedFileFlusher.class);

    private final TransferWorker thread;
    private final CancelSignal cancel;
    private final ChunkFaultHook faults;

    StagedFileFlusher(String name, CancelSignal cancel, ChunkFaultHook faults) {
        this.thread = new TransferWorker("sluice-move-flush-" + name, "a finish of " + name + " staging", cancel);
        this.cancel = cancel;
        this.faults = faults;
    }

    /** Starts finishing {@code file}, which takes no more writes; {@code force}: flush it to disk too. */
    void finish(StagedFile file, boolean force) {
        var unused = thread.run(
                () -> { // logs its own failure
                    if (cancel.isCancelled()) {
                        return;
                    }
                    try {
                        faults.beforeFinish(file.path());
                        file.finish(force);
                    } catch (IOException | RuntimeException e) {
                        LOG.debug("early finish of {} failed; the install finishes it", file.path(), e);
                    }
                });
    }

    /**
     * Waits for every finish started (each succeeded or was logged).
     *
     * @throws InterruptedIOException when the transfer was cancelled, or the thread interrupted, first
     */
    void awaitAll() throws InterruptedIOException {
        if (!cancel.awaitUnlessCancelled(thread.drained(), 0)) {
            throw new InterruptedIOException(
                    cancel.isCancelled()
                            ? "cancelled waiting for a staged file's finish"
                            : "interrupted waiting for a staged file's finish");
        }
    }

    /** Completes once every finish started so far is done (see {@link TransferWorker#drained()}). */
    CompletableFuture<Void> drained() {
        return thread.drained();
    }

    /**
     * Stops the thread and waits for the finishes already started (a finish writes the segment's index files into
     * staging, which a failed transfer deletes next), at most 30 s, and not at all once the transfer was cancelled.
     */
    @Override
    public void close() {
        thread.close();
    }
}
