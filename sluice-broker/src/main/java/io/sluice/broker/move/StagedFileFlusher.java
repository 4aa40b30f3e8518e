package io.sluice.broker.move;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forces each staged segment to disk on its own thread as soon as the file is complete, while the transfer goes on
 * with the next one, so the disk writes a move's files back as they arrive instead of all at once before the
 * install. Best effort: the install forces every segment again (then cheaply), so a failed force here costs only
 * time, and is logged. {@link #awaitAll()} before the files are closed and installed.
 *
 * <p>Not thread-safe; called by the transfer thread only (the forces run on one daemon thread of its own).
 */
final class StagedFileFlusher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StagedFileFlusher.class);

    private final TransferWorker thread;
    private final List<CompletableFuture<Void>> forces = new ArrayList<>();

    StagedFileFlusher(String name) {
        this.thread = new TransferWorker("sluice-move-flush-" + name, "a force of " + name + " staging");
    }

    /** Starts forcing {@code file}, which takes no more writes. */
    void force(StagedFile file) {
        forces.add(CompletableFuture.runAsync(
                () -> {
                    try {
                        file.force();
                    } catch (IOException e) {
                        LOG.debug("early force of {} failed; the install forces it", file.path(), e);
                    }
                },
                thread.executor()));
    }

    /** Waits for every force started (each succeeded or was logged). */
    void awaitAll() throws InterruptedException {
        try {
            for (CompletableFuture<Void> f : forces) {
                f.get();
            }
        } catch (ExecutionException e) {
            LOG.debug("early force failed; the install forces the file", e);
        } finally {
            forces.clear();
        }
    }

    /**
     * Stops the thread and waits for the forces already started (a force writes the segment's index files into
     * staging, which a failed or cancelled transfer deletes next), at most 30 s.
     */
    @Override
    public void close() {
        thread.close();
    }
}
