package io.sluice.log;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log manager's background work on its scheduler (its own {@code sluice-log-scheduler} daemon thread unless one
 * is given): periodic tasks and one-off delayed ones, each failure logged so a task never dies silently. Thread-safe
 * for {@link #later}; the periodic tasks are started and stopped under the log manager's lifecycle lock.
 */
final class LogManagerTasks {
    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);

    /** A task that may fail with an I/O error. */
    interface IoTask {
        void run() throws IOException;
    }

    private final ScheduledExecutorService scheduler;
    private final boolean ownsScheduler;
    private final List<ScheduledFuture<?>> periodic = new ArrayList<>();

    /** @param scheduler runs the tasks; null = a private single daemon thread, shut down by {@link #shutdown()} */
    LogManagerTasks(ScheduledExecutorService scheduler) {
        if (scheduler == null) {
            ScheduledThreadPoolExecutor own = new ScheduledThreadPoolExecutor(1, runnable -> {
                Thread thread = new Thread(runnable, "sluice-log-scheduler");
                thread.setDaemon(true);
                return thread;
            });
            own.setRemoveOnCancelPolicy(true);
            this.scheduler = own;
            this.ownsScheduler = true;
        } else {
            this.scheduler = scheduler;
            this.ownsScheduler = false;
        }
    }

    /** Runs {@code task} every {@code intervalMs}, the first time after as long. */
    void every(String what, long intervalMs, IoTask task) {
        periodic.add(scheduler.scheduleWithFixedDelay(
                () -> runSafely(what, task), intervalMs, intervalMs, TimeUnit.MILLISECONDS));
    }

    /**
     * Runs {@code task} once after {@code delayMs}.
     *
     * @throws RejectedExecutionException when the scheduler has stopped
     */
    void later(String what, long delayMs, IoTask task) {
        // runSafely logs a failure, so the future never fails.
        var unused = scheduler.schedule(() -> runSafely(what, task), delayMs, TimeUnit.MILLISECONDS);
    }

    private static void runSafely(String what, IoTask task) {
        try {
            task.run();
        } catch (Exception e) {
            LOG.error("log manager task '{}' failed", what, e);
        }
    }

    /** Cancels the periodic tasks (one running finishes). */
    void cancelPeriodic() {
        for (ScheduledFuture<?> task : periodic) {
            task.cancel(false);
        }
    }

    /** Stops the scheduler when it is this object's own; a given one is left to its owner. */
    void shutdown() {
        if (ownsScheduler) {
            scheduler.shutdownNow();
        }
    }
}
