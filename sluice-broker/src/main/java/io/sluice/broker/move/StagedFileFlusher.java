package io.sluice.broker.move;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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

    /** Bound on waiting for a running force at close: an fsync of one segment. */
    private static final long CLOSE_WAIT_MS = 30_000;

    private final String name;
    private ExecutorService thread;
    private final List<CompletableFuture<Void>> forces = new ArrayList<>();

    StagedFileFlusher(String name) {
        this.name = name;
    }

    /** Starts forcing {@code file}, which takes no more writes. */
    void force(StagedFile file) {
        if (thread == null) {
            thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "sluice-move-flush-" + name);
                t.setDaemon(true);
                return t;
            });
        }
        forces.add(CompletableFuture.runAsync(
                () -> {
                    try {
                        file.force();
                    } catch (IOException e) {
                        LOG.debug("early force of {} failed; the install forces it", file.path(), e);
                    }
                },
                thread));
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
     * staging, which a failed or cancelled transfer deletes next), at most {@link #CLOSE_WAIT_MS}.
     */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        thread.shutdown();
        try {
            if (!thread.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("a force of {} staging still runs after {} ms", name, CLOSE_WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
