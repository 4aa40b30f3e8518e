package io.sluice.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler and clock that only move when a test calls {@link #advance(long)}: due tasks run on the test's
 * thread, in due-time order, with the clock set to each task's due time. Not thread-safe; one per test.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    private final PriorityQueue<Task<?>> queue = new PriorityQueue<>();
    private long nowMs;
    private long sequence;
    private boolean shutdown;

    ManualScheduler(long startMs) {
        this.nowMs = startMs;
    }

    long now() {
        return nowMs;
    }

    /** Moves the clock forward by {@code ms}, running every task that falls due on the way. */
    void advance(long ms) {
        long target = nowMs + ms;
        while (true) {
            Task<?> next = queue.peek();
            if (next == null || next.dueMs > target) {
                break;
            }
            queue.poll();
            if (next.cancelled) {
                continue;
            }
            nowMs = Math.max(nowMs, next.dueMs);
            next.run();
        }
        nowMs = target;
    }

    /** How many tasks were ever scheduled. */
    long scheduledTasks() {
        return sequence;
    }

    int pendingTasks() {
        int n = 0;
        for (Task<?> t : queue) {
            if (!t.cancelled) {
                n++;
            }
        }
        return n;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return schedule(
                () -> {
                    command.run();
                    return null;
                },
                delay,
                unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        if (shutdown) {
            throw new java.util.concurrent.RejectedExecutionException("shut down");
        }
        Task<V> task = new Task<>(callable, nowMs + unit.toMillis(delay), sequence++);
        queue.add(task);
        return task;
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException("the coordinator only uses one-shot timers");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("the coordinator only uses one-shot timers");
    }

    @Override
    public void execute(Runnable command) {
        // As in ScheduledThreadPoolExecutor.execute: the task's failure stays in its future, which execute() drops.
        var unused = schedule(command, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        queue.clear();
        return new ArrayList<>();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return shutdown;
    }

    private final class Task<V> implements ScheduledFuture<V> {
        private final Callable<V> callable;
        private final long dueMs;
        private final long seq;
        private boolean cancelled;
        private boolean done;
        private V result;

        Task(Callable<V> callable, long dueMs, long seq) {
            this.callable = callable;
            this.dueMs = dueMs;
            this.seq = seq;
        }

        void run() {
            try {
                result = callable.call();
            } catch (Exception e) {
                throw new IllegalStateException("scheduled task failed", e);
            } finally {
                done = true;
            }
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueMs - nowMs, TimeUnit.MILLISECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Task<?> o = (Task<?>) other;
            int byDue = Long.compare(dueMs, o.dueMs);
            return byDue != 0 ? byDue : Long.compare(seq, o.seq);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            if (done) {
                return false;
            }
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return done || cancelled;
        }

        @Override
        public V get() {
            return result;
        }

        @Override
        public V get(long timeout, TimeUnit unit) {
            return result;
        }
    }
}
