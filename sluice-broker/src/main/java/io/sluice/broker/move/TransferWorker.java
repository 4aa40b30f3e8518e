package io.sluice.broker.move;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread that runs a transfer's background work in submission order (its staged writes, or its early
 * finishes), started on the first task. {@link #close()} lets the tasks already submitted finish, waiting for them
 * until they are done, the transfer is cancelled, or {@link #CLOSE_WAIT_MS} passed: a cancelled transfer never waits
 * for a disk that does not answer; {@link #drained()} tells when they are all done (the staging they write into is
 * closed and removed only then).
 *
 * <p>Not thread-safe; called by the transfer thread only ({@link #drained()}'s future completes on the worker).
 */
final class TransferWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransferWorker.class);

    /** Bound on waiting for a running task at close: one write or one fsync of a segment. */
    static final long CLOSE_WAIT_MS = 30_000;

    private final String threadName;
    private final String work;
    private final CancelSignal cancel;
    private ExecutorService thread;
    /** The task submitted last (null: none): all the others are done once it is. */
    private CompletableFuture<Void> last;

    /**
     * @param threadName the thread's name
     * @param work       what its tasks are, for the warning when one outlives {@link #close()}
     */
    TransferWorker(String threadName, String work) {
        this(threadName, work, new CancelSignal());
    }

    /** As {@link #TransferWorker(String, String)}; {@link #close()} does not wait once {@code cancel} is signalled. */
    TransferWorker(String threadName, String work, CancelSignal cancel) {
        this.threadName = threadName;
        this.work = work;
        this.cancel = cancel;
    }

    /** Runs {@code task} on the thread (started now if it was not) after the tasks submitted before it. */
    CompletableFuture<Void> run(Runnable task) {
        if (thread == null) {
            thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
        }
        CompletableFuture<Void> submitted = CompletableFuture.runAsync(task, thread);
        last = submitted;
        return submitted;
    }

    /** Completes (on the worker, or now) once every task submitted so far is done, whether it failed or not. */
    CompletableFuture<Void> drained() {
        CompletableFuture<Void> lastTask = last;
        return lastTask == null ? CompletableFuture.completedFuture(null) : lastTask.handle((done, failed) -> null);
    }

    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        thread.shutdown();
        if (!cancel.awaitUnlessCancelled(drained(), CLOSE_WAIT_MS)) {
            LOG.warn(
                    "{} still runs {}",
                    work,
                    cancel.isCancelled() ? "after the cancel" : "after " + CLOSE_WAIT_MS + " ms");
        }
    }
}
