package io.sluice.cluster.controller;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's single daemon thread ({@code sluice-controller-<id>}): every controller task runs on it, one at a
 * time; a task that fails (with any Throwable) is logged, a periodic one keeps its schedule, one submitted after
 * shutdown is dropped. Thread-safe.
 */
final class ControllerThread {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterController.class);

    private final int brokerId;
    private final ScheduledExecutorService executor;
    private volatile Thread thread;

    ControllerThread(int brokerId) {
        this.brokerId = brokerId;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-controller-" + brokerId);
            t.setDaemon(true);
            thread = t;
            return t;
        });
    }

    /** The executor election callbacks must run on. */
    Executor executor() {
        return executor;
    }

    /** The thread, for CPU and allocation measurements; null before it first ran. */
    Thread thread() {
        return thread;
    }

    boolean isShutdown() {
        return executor.isShutdown();
    }

    /** Runs {@code task} on the controller thread as soon as it is free. */
    void submit(Runnable task) {
        schedule(task, 0);
    }

    /** Runs {@code task} on the controller thread after {@code delayMillis}; dropped once the controller closed. */
    void schedule(Runnable task, long delayMillis) {
        try {
            var unused = executor.schedule(() -> runLogged(task), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("controller {} closed; dropping a task", brokerId);
        }
    }

    /**
     * Runs {@code task} every {@code everyMillis} after a first delay of as much; a run that fails is logged and the
     * next one still comes.
     */
    void scheduleWithFixedDelay(Runnable task, long everyMillis) {
        var unused =
                executor.scheduleWithFixedDelay(() -> runLogged(task), everyMillis, everyMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs {@code task}, logging whatever it throws, Errors included: not left in a future nobody reads (where it
     * would also end a periodic task's repetition without a word).
     */
    private void runLogged(Runnable task) {
        try {
            task.run();
        } catch (Throwable e) {
            LOG.error("controller {}: a task failed", brokerId, e);
        }
    }

    /** Interrupts the running task, drops the queued ones and waits up to 5 s for the thread to end. */
    void shutdownAndWait() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
