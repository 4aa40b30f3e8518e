package io.sluice.broker.move;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.common.protocol.Errors;

/**
 * Whether a transfer was cancelled; the transfer thread's pauses and its waits for its disk work end early on a
 * cancel, so a disk that does not answer never holds a cancelled transfer.
 *
 * <p>Thread-safe: {@link #cancel()} from any thread, the waits on the transfer thread and its workers.
 */
final class CancelSignal {
    private final CompletableFuture<Void> signalled = new CompletableFuture<>();
    private volatile boolean cancelled;

    private volatile Thread runner;

    /** The thread whose pauses {@link #cancel()} wakes (null: none). */
    void runner(Thread thread) {
        this.runner = thread;
    }

    /** Marks the transfer cancelled and wakes its thread from a pause. */
    void cancel() {
        cancelled = true;
        signalled.complete(null);
        Thread thread = runner;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    boolean isCancelled() {
        return cancelled;
    }

    /**
     * Waits until {@code task} is done or the transfer is cancelled, at most {@code timeoutMs} (0: no bound); returns
     * whether {@code task} is done. An interrupt ends the wait too (the interrupt is kept).
     */
    boolean awaitUnlessCancelled(CompletableFuture<?> task, long timeoutMs) {
        if (!task.isDone() && !cancelled) {
            CompletableFuture<Object> either = CompletableFuture.anyOf(task, signalled);
            try {
                if (timeoutMs > 0) {
                    either.get(timeoutMs, TimeUnit.MILLISECONDS);
                } else {
                    either.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // the task failed (its caller reads how), or the bound passed
            }
        }
        return task.isDone();
    }

    /** Throws REASSIGNMENT_IN_PROGRESS once cancelled. */
    void check() throws MoveException {
        if (cancelled) {
            throw new MoveException(Errors.REASSIGNMENT_IN_PROGRESS, false, "cancelled");
        }
    }

    /** Pauses the calling thread for {@code nanos}, less when cancelled or interrupted; throws when cancelled. */
    void pauseNanos(long nanos) throws MoveException {
        long deadline = System.nanoTime() + nanos;
        long left = nanos;
        while (left > 0 && !cancelled && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(left);
            left = deadline - System.nanoTime();
        }
        check();
    }
}
