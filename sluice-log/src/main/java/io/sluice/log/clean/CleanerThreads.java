package io.sluice.log.clean;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log cleaner's {@code sluice-log-cleaner-<i>} threads: started and retired as a pool, and the per-thread figures
 * of Kafka's cleaner gauges. Thread-safe: the thread list is
 * copy-on-write and each thread's figures volatile; the {@link LogCleaner} starts and retires threads under its
 * lifecycle lock.
 */
final class CleanerThreads {
    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);

    /** What each thread runs until it is retired or the cleaner stops. */
    interface Body {
        void run(Worker worker, CleanerConfig with);
    }

    /** One cleaner thread; retired when the pool is resized, failed when it ended on an unexpected error. */
    static final class Worker {
        final Thread thread;
        volatile Cleaner cleaner;
        volatile boolean retired;
        volatile boolean failed;
        volatile long compactionDelayMs;

        private Worker(int index, CleanerConfig with, Body body) {
            this.thread = new Thread(() -> body.run(this, with), "sluice-log-cleaner-" + index);
            thread.setDaemon(true);
        }
    }

    private final List<Worker> workers = new CopyOnWriteArrayList<>();
    private final Body body;
    private final Runnable wakeUp;
    private final IoThrottle throttle;

    /**
     * @param wakeUp   wakes idle threads, so a retired one sees it is
     * @param throttle the threads' shared I/O throttle, nudged so a thread waiting on it sees it is retired
     */
    CleanerThreads(Body body, Runnable wakeUp, IoThrottle throttle) {
        this.body = body;
        this.wakeUp = wakeUp;
        this.throttle = throttle;
    }

    /** Starts {@code with.threads()} threads running the body with {@code with}. */
    void start(CleanerConfig with) {
        List<Worker> added = new ArrayList<>();
        for (int i = 0; i < with.threads(); i++) {
            added.add(new Worker(i, with, body));
        }
        workers.addAll(added);
        for (Worker worker : added) {
            worker.thread.start();
        }
        LOG.info(
                "started {} log cleaner threads with {} bytes of offset map each",
                with.threads(),
                with.mapBytesPerThread());
    }

    /** Retires every thread after its current batch, waits for them and forgets them. */
    void replaceAll(CleanerConfig next) {
        List<Worker> old = List.copyOf(workers);
        retireAndJoin(old);
        workers.removeAll(old);
        start(next);
    }

    /** Retires every thread after its current batch and waits for them (the cleaner stops). */
    void retireAll() {
        retireAndJoin(List.copyOf(workers));
    }

    private void retireAndJoin(List<Worker> stopped) {
        for (Worker worker : stopped) {
            worker.retired = true;
        }
        wakeUp.run();
        // the same rate again, so a thread waiting on the I/O schedule stops waiting and sees it is retired
        throttle.rate(throttle.rate());
        for (Worker worker : stopped) {
            try {
                worker.thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Threads running now (threads that died are not counted). */
    int live() {
        int alive = 0;
        for (Worker worker : workers) {
            if (worker.thread.isAlive() && !worker.retired) {
                alive++;
            }
        }
        return alive;
    }

    /** Threads that ended on an unexpected error. */
    int dead() {
        int dead = 0;
        for (Worker worker : workers) {
            if (worker.failed) {
                dead++;
            }
        }
        return dead;
    }

    /** The largest share of its offset map a thread filled in its last clean, 0..1. */
    double maxBufferUtilization() {
        double max = 0;
        for (Worker worker : workers) {
            max = Math.max(max, lastCleanOf(worker).bufferUtilization());
        }
        return max;
    }

    /** Bytes written per byte read by the threads' last cleans, in percent. */
    int recopyPercent() {
        long read = 0;
        long written = 0;
        for (Worker worker : workers) {
            read += lastCleanOf(worker).bytesRead();
            written += lastCleanOf(worker).bytesWritten();
        }
        return (int) (100.0 * written / Math.max(read, 1));
    }

    /** The longest last clean of a thread, in ns. */
    long maxCleanNanos() {
        long max = 0;
        for (Worker worker : workers) {
            max = Math.max(max, lastCleanOf(worker).elapsedNanos());
        }
        return max;
    }

    /** The largest compaction delay a thread saw when it last chose a log, in ms. */
    long maxCompactionDelayMs() {
        long max = 0;
        for (Worker worker : workers) {
            max = Math.max(max, worker.compactionDelayMs);
        }
        return max;
    }

    private static Cleaner.LastClean lastCleanOf(Worker worker) {
        Cleaner cleaner = worker.cleaner;
        return cleaner == null ? Cleaner.LastClean.NONE : cleaner.lastClean();
    }
}
