package io.sluice.log.clean;

import io.sluice.log.PartitionLog;
import io.sluice.log.TopicPartitionKey;
import io.sluice.log.segment.CleanFaults;
import io.sluice.log.segment.CleanStep;
import io.sluice.log.segment.LogSegment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log cleaner: {@code log.cleaner.threads} threads ({@code sluice-log-cleaner-<i>}) each repeatedly take the
 * dirtiest compacted log that is due ({@link LogToClean#shouldClean()}), clean it ({@link Cleaner}) and checkpoint where
 * its dirty section now starts; a thread that finds nothing waits log.cleaner.backoff.ms. A log whose topic stops being
 * compacted is simply no longer chosen; one being deleted is first {@link #abortAndWait aborted}. A log whose clean fails
 * unexpectedly is left alone until restart (Kafka's uncleanable partitions). {@link #reconfigure} applies new
 * {@code log.cleaner.*} values live, as Kafka's dynamic broker configuration does; {@link CleanerStatus} gives the
 * figures of Kafka's cleaner gauges.
 *
 * <p>Thread-safe: the choice of logs, the in-progress set and the checkpoints written are guarded by this object's
 * monitor; starting, stopping and resizing the threads by {@code lifecycle}.
 */
public final class LogCleaner implements AutoCloseable, CleanerStatus {
    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);

    private volatile CleanerConfig config;
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
    private final CleanerThreads threads;
    private final Object lifecycle = new Object();
    private final Object idle = new Object();
    private volatile ToLongFunction<TopicPartitionKey> stableOffsets = key -> Long.MAX_VALUE;
    private volatile boolean stopping;
    private volatile boolean started;
    private volatile double dirtiestRatio;
    private volatile long lastRunMs;

    /**
     * @param logs     the current logs (the log manager's)
     * @param logDirOf the log directory of a partition, for its checkpoint file
     * @param clock    wall clock in ms (lags, delete horizons)
     * @param faults   {@link CleanFaults#NONE} outside crash tests
     */
    public LogCleaner(
            CleanerConfig config,
            Supplier<Map<TopicPartitionKey, PartitionLog>> logs,
            Function<TopicPartitionKey, Path> logDirOf,
            CleanerCheckpoints checkpoints,
            LongSupplier clock,
            CleanFaults faults) {
        this.config = config;
        this.logs = logs;
        this.logDirOf = logDirOf;
        this.checkpoints = checkpoints;
        this.clock = clock;
        this.faults = faults;
        this.throttle = new IoThrottle(config.ioMaxBytesPerSecond(), System::nanoTime);
        this.threads = new CleanerThreads(this::run, this::wakeUp, throttle);
        this.lastRunMs = clock.getAsLong();
    }

    /** Sets where cleaning must stop for a partition (its high watermark); Long.MAX_VALUE when unbounded. */
    public void stableOffsets(ToLongFunction<TopicPartitionKey> offsets) {
        this.stableOffsets = offsets;
    }

    /** Starts the cleaner threads. */
    public void start() {
        synchronized (lifecycle) {
            if (started || stopping) {
                return;
            }
            started = true;
            threads.start(config);
        }
    }

    private void run(CleanerThreads.Worker worker, CleanerConfig with) {
        try (Cleaner cleaner = new Cleaner(with, throttle, faults, stats)) {
            worker.cleaner = cleaner;
            while (!stopping && !worker.retired) {
                boolean cleaned = cleanDirtiest(cleaner, worker);
                if (!cleaned && !stopping && !worker.retired) {
                    synchronized (idle) {
                        idle.wait(Math.max(1, config.backoffMs()));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            worker.failed = true;
            LOG.error("log cleaner thread {} died", Thread.currentThread().getName(), e);
            throw e;
        }
    }

    /**
     * Cleans the dirtiest due log once on the calling thread (tests and benchmarks; the threads call the same).
     *
     * @return whether a log was cleaned
     */
    public boolean cleanDirtiestNow() {
        try (Cleaner cleaner = new Cleaner(config, throttle, faults, stats)) {
            return cleanDirtiest(cleaner, null);
        }
    }

    /** @param worker the calling cleaner thread; null on a caller's thread */
    private boolean cleanDirtiest(Cleaner cleaner, CleanerThreads.Worker worker) {
        LogToClean target = grabDirtiest(worker);
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
            long end = cleaner.clean(
                    target, clock.getAsLong(), () -> stopping || (worker != null && worker.retired) || isAborted(log));
            if (end < 0) {
                return false;
            }
            if (dir != null) {
                checkpointCleaned(dir, target.key(), log, end);
                faults.reached(CleanStep.CHECKPOINT_WRITTEN);
            }
            stats.cleaned();
            LOG.info(
                    "cleaned {} from offset {} to {} in {} ms ({} bytes were dirty of {})",
                    log.name(),
                    target.firstDirtyOffset(),
                    end,
                    (System.nanoTime() - started) / 1_000_000,
                    target.cleanableBytes(),
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

    /**
     * Records where the dirty section of a cleaned log now starts, never past its active segment's base: a follower
     * truncation that ran during the clean has lowered the checkpoint ({@link #maybeTruncateCheckpoint}), and this
     * write, under the same monitor, must not raise it again.
     */
    private synchronized void checkpointCleaned(Path dir, TopicPartitionKey key, PartitionLog log, long end)
            throws IOException {
        LogSegment[] chain = log.segmentChain();
        checkpoints.update(dir, key, Math.min(end, chain[chain.length - 1].baseOffset()));
    }

    /**
     * Kafka's LogCleanerManager.maybeTruncateCheckpoint: after a compacted log was truncated (a follower cut back to
     * its leader), its checkpointed first dirty offset is lowered to {@code offset} (the new active segment's base) when
     * above it, so the records written again past the cut are cleaned like any dirty record.
     */
    public synchronized void maybeTruncateCheckpoint(Path dir, TopicPartitionKey key, PartitionLog log, long offset)
            throws IOException {
        if (!log.config().compact() || dir == null) {
            return;
        }
        Long existing = checkpoints.get(dir, key);
        if (existing != null && existing > offset) {
            checkpoints.update(dir, key, offset);
            LOG.info(
                    "lowered the cleaner checkpoint of {} from {} to {} after truncation",
                    log.name(),
                    existing,
                    offset);
        }
    }

    private synchronized LogToClean grabDirtiest(CleanerThreads.Worker worker) {
        long now = clock.getAsLong();
        lastRunMs = now;
        double dirtiest = 0;
        long maxDelayMs = 0;
        LogToClean best = null;
        for (Map.Entry<TopicPartitionKey, PartitionLog> e : logs.get().entrySet()) {
            PartitionLog log = e.getValue();
            if (!log.config().compact()
                    || log.isClosed()
                    || inProgress.contains(log)
                    || aborted.contains(log)
                    || uncleanable.contains(log)) {
                continue;
            }
            try {
                Path dir = logDirOf.apply(e.getKey());
                Long checkpoint = dir == null ? null : checkpoints.get(dir, e.getKey());
                LogToClean candidate =
                        LogToClean.of(e.getKey(), log, checkpoint, stableOffsets.applyAsLong(e.getKey()), now);
                maxDelayMs = Math.max(maxDelayMs, candidate.compactionDelayMs());
                if (candidate.totalBytes() > 0) {
                    dirtiest = Math.max(dirtiest, candidate.cleanableRatio());
                }
                if (candidate.totalBytes() > 0
                        && candidate.shouldClean()
                        && (best == null || candidate.cleanableRatio() > best.cleanableRatio())) {
                    best = candidate;
                }
            } catch (IOException | RuntimeException ex) {
                LOG.warn("could not weigh {} for cleaning: {}", log.name(), ex.toString());
            }
        }
        dirtiestRatio = dirtiest;
        if (best != null) {
            inProgress.add(best.log());
            if (worker != null) {
                worker.compactionDelayMs = maxDelayMs;
            }
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

    /** The settings the cleaner runs with now. */
    public CleanerConfig config() {
        return config;
    }

    /**
     * Applies new broker-wide settings while running, as Kafka's LogCleaner.reconfigure does: the I/O rate at once
     * (waiting threads re-check), the backoff from each thread's next pause; a change of thread count, offset map
     * memory, load factor or buffer size stops the threads after their current batch (a clean in progress is dropped
     * and chosen again later) and starts {@code next.threads()} new ones. {@code enable} is not dynamic and is ignored.
     */
    public void reconfigure(CleanerConfig next) {
        synchronized (lifecycle) {
            CleanerConfig before = config;
            config = next;
            if (before.ioMaxBytesPerSecond() != next.ioMaxBytesPerSecond()) {
                throttle.rate(next.ioMaxBytesPerSecond());
                LOG.info("log cleaner I/O rate is now {} bytes/s", next.ioMaxBytesPerSecond());
            }
            boolean restart = before.threads() != next.threads()
                    || before.dedupeBufferSize() != next.dedupeBufferSize()
                    || before.ioBufferLoadFactor() != next.ioBufferLoadFactor()
                    || before.ioBufferSize() != next.ioBufferSize();
            if (!restart || !started || stopping) {
                wakeUp();
                return;
            }
            threads.replaceAll(next);
        }
    }

    /** Threads running now, for tests and the broker's status (threads that died are not counted). */
    public int liveThreads() {
        return threads.live();
    }

    // ------------------------------------------------------------------ CleanerStatus

    @Override
    public double maxBufferUtilizationPercent() {
        return threads.maxBufferUtilization() * 100;
    }

    @Override
    public int cleanerRecopyPercent() {
        return threads.recopyPercent();
    }

    @Override
    public double maxCleanTimeSecs() {
        return threads.maxCleanNanos() / 1e9;
    }

    @Override
    public double maxCompactionDelaySecs() {
        return threads.maxCompactionDelayMs() / 1000.0;
    }

    @Override
    public int deadThreadCount() {
        return threads.dead();
    }

    @Override
    public int maxDirtyPercent() {
        return (int) (100 * dirtiestRatio);
    }

    @Override
    public long timeSinceLastRunMs() {
        return clock.getAsLong() - lastRunMs;
    }

    @Override
    public int uncleanablePartitionsCount(Path logDir) {
        return uncleanableIn(logDir).size();
    }

    @Override
    public long uncleanableBytes(Path logDir) {
        long now = clock.getAsLong();
        long bytes = 0;
        for (Map.Entry<TopicPartitionKey, PartitionLog> e :
                uncleanableIn(logDir).entrySet()) {
            try {
                bytes += LogToClean.of(
                                e.getKey(),
                                e.getValue(),
                                checkpoints.get(logDir, e.getKey()),
                                stableOffsets.applyAsLong(e.getKey()),
                                now)
                        .cleanableBytes();
            } catch (IOException | RuntimeException ex) {
                LOG.debug("could not weigh uncleanable {}: {}", e.getKey(), ex.toString());
            }
        }
        return bytes;
    }

    /** The current logs of {@code logDir} marked uncleanable (a deleted log drops out, as Kafka's maintenance does). */
    private Map<TopicPartitionKey, PartitionLog> uncleanableIn(Path logDir) {
        Map<TopicPartitionKey, PartitionLog> found = new HashMap<>();
        Map<TopicPartitionKey, PartitionLog> current = logs.get();
        synchronized (this) {
            current.forEach((key, log) -> {
                if (uncleanable.contains(log) && logDir.equals(logDirOf.apply(key))) {
                    found.put(key, log);
                }
            });
        }
        return found;
    }

    /** Stops the threads after their current batch (no clean is swapped in after this returns). Idempotent. */
    @Override
    public void close() {
        synchronized (lifecycle) {
            synchronized (this) {
                stopping = true;
                notifyAll();
            }
            throttle.stop();
            threads.retireAll();
        }
    }
}
