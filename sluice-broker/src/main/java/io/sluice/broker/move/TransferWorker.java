package io.sluice.broker.move;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread that runs a transfer's background work in submission order (its staged writes, or its early
 * forces), started on the first task; {@link #close()} lets the tasks already submitted finish, waiting for them at
 * most {@link #CLOSE_WAIT_MS}, as the staging they write into is deleted next when a transfer fails or is cancelled.
 *
 * <p>Not thread-safe; called by the transfer thread only.
 */
final class TransferWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransferWorker.class);

    /** Bound on waiting for a running task at close: one write or one fsync of a segment. */
    static final long CLOSE_WAIT_MS = 30_000;

    private final String threadName;
    private final String work;
    private ExecutorService thread;

    /**
     * @param threadName the thread's name
     * @param work       what its tasks are, for the warning when one outlives {@link #close()}
     */
    TransferWorker(String threadName, String work) {
        this.threadName = threadName;
        this.work = work;
    }

    /** The thread, started on the first call. */
    ExecutorService executor() {
        if (thread == null) {
            thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
        }
        return thread;
    }

    /** Whether no task can run any more: the thread never started, or it ended after {@link #close()}. */
    boolean isStopped() {
        return thread == null || thread.isTerminated();
    }

    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        thread.shutdown();
        try {
            if (!thread.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("{} still runs after {} ms", work, CLOSE_WAIT_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
