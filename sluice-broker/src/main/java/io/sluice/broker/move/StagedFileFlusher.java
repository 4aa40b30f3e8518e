package io.sluice.broker.move;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finishes each staged segment on its own thread as soon as the file is complete ({@link StagedFile#finish}: its
 * index files, and when the move makes its files durable before the install, the force to disk), while the transfer
 * goes on with the next one, so the disk writes a move's files back as they arrive instead of all at once before the
 * install. Best effort: the install finishes a file again when this failed, so a failure here costs only time, and
 * is logged. {@link #awaitAll()} before the files are closed and installed.
 *
 * <p>Not thread-safe; called by the transfer thread only (the finishes run on one daemon thread of its own).
 */
final class StagedFileFlusher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StagedFileFlusher.class);

    private final TransferWorker thread;
    private final List<CompletableFuture<Void>> finishes = new ArrayList<>();

    StagedFileFlusher(String name) {
        this.thread = new TransferWorker("sluice-move-flush-" + name, "a finish of " + name + " staging");
    }

    /** Starts finishing {@code file}, which takes no more writes; {@code force}: flush it to disk too. */
    void finish(StagedFile file, boolean force) {
        finishes.add(CompletableFuture.runAsync(
                () -> {
                    try {
                        file.finish(force);
                    } catch (IOException e) {
                        LOG.debug("early finish of {} failed; the install finishes it", file.path(), e);
                    }
                },
                thread.executor()));
    }

    /** Waits for every finish started (each succeeded or was logged). */
    void awaitAll() throws InterruptedException {
        try {
            for (CompletableFuture<Void> f : finishes) {
                f.get();
            }
        } catch (ExecutionException e) {
            LOG.debug("early finish failed; the install finishes the file", e);
        } finally {
            finishes.clear();
        }
    }

    /**
     * Stops the thread and waits for the finishes already started (a finish writes the segment's index files into
     * staging, which a failed or cancelled transfer deletes next), at most 30 s.
     */
    @Override
    public void close() {
        thread.close();
    }
}
