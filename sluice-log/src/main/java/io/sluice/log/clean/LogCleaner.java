package io.sluice.log.clean;

import io.sluice.log.PartitionLog;
import io.sluice.log.TopicPartitionKey;
import io.sluice.log.segment.CleanFaults;
import io.sluice.log.segment.CleanStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The log cleaner: {@code log.cleaner.threads} threads ({@code sluice-log-cleaner-<i>}) each repeatedly take the
 * dirtiest compacted log that is due ({@link LogToClean#shouldClean()}), clean it ({@link Cleaner}) and checkpoint where
 * its dirty section now starts; a thread that finds nothing waits log.cleaner.backoff.ms. A log whose topic stops being
 * compacted is simply no longer chosen; one being deleted is first {@link #abortAndWait aborted}. A log whose clean fails
 * unexpectedly is left alone until restart (Kafka's uncleanable partitions).
 *
 * <p>Thread-safe: the choice of logs and the in-progress set are guarded by this object's monitor.
 */
public final class LogCleaner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);

    private final CleanerConfig config;
    private final Supplier<Map<TopicPartitionKey, PartitionLog>> logs;
    private final Function<TopicPartitionKey, Path> logDirOf;
    private final CleanerCheckpoints checkpoints;
    private final LongSupplier clock;
    private final CleanFaults faults;
    private final IoThrottle throttle;
    private final CleanerStats stats = new CleanerStats();
    private final Set<PartitionLog> inProgress = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<PartitionLog> aborted = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<PartitionLog> uncleanable = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<Thread> threads = new ArrayList<>();
    private final Object idle = new Object();
    private volatile ToLongFunction<TopicPartitionKey> stableOffsets = key -> Long.MAX_VALUE;
    private volatile boolean stopping;

    /**
     * @param logs     the current logs (the log manager's)
     * @param logDirOf the log directory of a partition, for its checkpoint file
     * @param clock    wall clock in ms (lags, delete horizons)
     * @param faults   {@link CleanFaults#NONE} outside crash tests
     */
    public LogCleaner(CleanerConfig config, Supplier<Map<TopicPartitionKey, PartitionLog>> logs,
                      Function<TopicPartitionKey, Path> logDirOf, CleanerCheckpoints checkpoints, LongSupplier clock,
                      CleanFaults faults) {
        this.config = config;
        this.logs = logs;
        this.logDirOf = logDirOf;
        this.checkpoints = checkpoints;
        this.clock = clock;
        this.faults = faults;
        this.throttle = new IoThrottle(config.ioMaxBytesPerSecond(), System::nanoTime);
    }

    /** Sets where cleaning must stop for a partition (its high watermark); Long.MAX_VALUE when unbounded. */
    public void stableOffsets(ToLongFunction<TopicPartitionKey> offsets) {
        this.stableOffsets = offsets;
    }

    /** Starts the cleaner threads. */
    public synchronized void start() {
        if (!threads.isEmpty() || stopping) {
            return;
        }
        for (int i = 0; i < config.threads(); i++) {
            Thread thread = new Thread(this::run, "sluice-log-cleaner-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        LOG.info("started {} log cleaner threads with {} bytes of offset map each", config.threads(),
                config.mapBytesPerThread());
    }

    private void run() {
        try (Cleaner cleaner = new Cleaner(config, throttle, faults, stats)) {
            while (!stopping) {
                boolean cleaned = cleanDirtiest(cleaner);
                if (!cleaned && !stopping) {
                    synchronized (idle) {
                        idle.wait(Math.max(1, config.backoffMs()));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Cleans the dirtiest due log once on the calling thread (tests and benchmarks; the threads call the same).
     *
     * @return whether a log was cleaned
     */
    public boolean cleanDirtiestNow() {
        try (Cleaner cleaner = new Cleaner(config, throttle, faults, stats)) {
            return cleanDirtiest(cleaner);
        }
    }

    private boolean cleanDirtiest(Cleaner cleaner) {
        LogToClean target = grabDirtiest();
        if (target == null) {
            return false;
        }
        PartitionLog log = target.log();
        long started = System.nanoTime();
        try {
            Path dir = logDirOf.apply(target.key());
            if (target.checkpointReset() && dir != null) {
                checkpoints.update(dir, target.key(), target.firstDirtyOffset());
            }
            long end = cleaner.clean(target, clock.getAsLong(), () -> stopping || isAborted(log));
            if (end < 0) {
                return false;
            }
            if (dir != null) {
                checkpoints.update(dir, target.key(), end);
                faults.reached(CleanStep.CHECKPOINT_WRITTEN);
            }
            stats.cleaned();
            LOG.info("cleaned {} from offset {} to {} in {} ms ({} bytes were dirty of {})", log.name(),
                    target.firstDirtyOffset(), end, (System.nanoTime() - started) / 1_000_000, target.cleanableBytes(),
                    target.totalBytes());
            return true;
        } catch (CleanAbortedException e) {
            LOG.info("{}", e.getMessage());
            return false;
        } catch (IOException | RuntimeException e) {
            if (stopping || isAborted(log) || log.isClosed() || log.segmentChain() != target.chain()) {
                // the log was closed, rolled, truncated or shrunk by retention under the clean: try again later
                LOG.info("cleaning of {} stopped: {}", log.name(), e.toString());
                return false;
            }
            LOG.error("cleaning {} failed; it is not cleaned again until restart", log.name(), e);
            synchronized (this) {
                uncleanable.add(log);
            }
            return false;
        } finally {
            synchronized (this) {
                inProgress.remove(log);
                notifyAll();
            }
        }
    }

    private synchronized LogToClean grabDirtiest() {
        long now = clock.getAsLong();
        LogToClean best = null;
        for (Map.Entry<TopicPartitionKey, PartitionLog> e : logs.get().entrySet()) {
            PartitionLog log = e.getValue();
            if (!log.config().compact() || log.isClosed() || inProgress.contains(log) || aborted.contains(log)
                    || uncleanable.contains(log)) {
                continue;
            }
            try {
                Path dir = logDirOf.apply(e.getKey());
                Long checkpoint = dir == null ? null : checkpoints.get(dir, e.getKey());
                LogToClean candidate = LogToClean.of(e.getKey(), log, checkpoint,
                        stableOffsets.applyAsLong(e.getKey()), now);
                if (candidate.totalBytes() > 0 && candidate.shouldClean()
                        && (best == null || candidate.cleanableRatio() > best.cleanableRatio())) {
                    best = candidate;
                }
            } catch (IOException | RuntimeException ex) {
                LOG.warn("could not weigh {} for cleaning: {}", log.name(), ex.toString());
            }
        }
        if (best != null) {
            inProgress.add(best.log());
        }
        return best;
    }

    private synchronized boolean isAborted(PartitionLog log) {
        return aborted.contains(log);
    }

    /**
     * Stops any clean of {@code log} before its next swap, waits until none runs, and never cleans it again (the log is
     * being deleted or replaced).
     */
    public void abortAndWait(PartitionLog log) {
        synchronized (this) {
            aborted.add(log);
            while (inProgress.contains(log)) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Forgets the checkpoint of a deleted partition. */
    public void forget(Path logDir, TopicPartitionKey key) throws IOException {
        checkpoints.remove(logDir, key);
    }

    /** Wakes idle threads to look for work now (a config change made a log compacted). */
    public void wakeUp() {
        synchronized (idle) {
            idle.notifyAll();
        }
    }

    public CleanerStats stats() {
        return stats;
    }

    public CleanerCheckpoints checkpoints() {
        return checkpoints;
    }

    /** Stops the threads after their current batch (no clean is swapped in after this returns). Idempotent. */
    @Override
    public void close() {
        List<Thread> running;
        synchronized (this) {
            stopping = true;
            running = List.copyOf(threads);
            notifyAll();
        }
        throttle.stop();
        wakeUp();
        for (Thread thread : running) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
