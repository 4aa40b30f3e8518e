package io.sluice.broker.move;

import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.common.protocol.Errors;

/**
 * Whether a transfer was cancelled, and the transfer thread's pauses that a cancel ends early.
 *
 * <p>Thread-safe: {@link #cancel()} from any thread, the rest on the transfer thread.
 */
final class CancelSignal {
    private volatile boolean cancelled;
    private volatile Thread runner;

    /** The thread whose pauses {@link #cancel()} wakes (null: none). */
    void runner(Thread thread) {
        this.runner = thread;
    }

    /** Marks the transfer cancelled and wakes its thread from a pause. */
    void cancel() {
        cancelled = true;
        Thread thread = runner;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    boolean isCancelled() {
        return cancelled;
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
