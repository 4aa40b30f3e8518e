package io.sluice.log;

import io.sluice.log.checkpoint.AtomicFile;
import io.sluice.log.clean.CleanerCheckpoints;
import io.sluice.log.clean.CleanerConfig;
import io.sluice.log.clean.LogCleaner;
import io.sluice.log.segment.BatchHeaderTables;
import io.sluice.log.segment.CleanFaults;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All partition logs of a broker across its log directories: loading and recovery at start, creation (in the
 * directory holding the fewest partitions), deletion (rename to {@code <dir>.<uuid>-delete}, removed after the
 * delete delay), recovery-point and log-start-offset checkpoints per directory, retention and flush schedules, and
 * one lock file per directory so two brokers never share one.
 *
 * <p>Thread-safe; each checkpoint file has one writer at a time, whichever thread writes it (scheduler, deletion,
 * close).
 */
public final class LogManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);
    public static final String LOCK_FILE = ".lock";
    public static final String DELETE_DIR_SUFFIX = "-delete";
    /** Suffix of partition directories set aside by {@link #setAsideAsStray}: kept, never loaded. */
    public static final String STRAY_DIR_SUFFIX = "-stray";

    private final List<Path> logDirs;
    private final Function<String, LogConfig> topicConfigs;
    private final LogManagerConfig managerConfig;
    private final LongSupplier clock;
    private final LogManagerTasks tasks;
    private final Map<TopicPartitionKey, PartitionLog> logs = new ConcurrentHashMap<>();
    private final Map<TopicPartitionKey, Path> logDirOf = new ConcurrentHashMap<>();
    private final LogDirCheckpoints checkpoints;
    private final LogDirLocks locks = new LogDirLocks();
    private final RecoveryReport report = new RecoveryReport();
    private final Object lifecycle = new Object();
    private final CleanerConfig cleanerConfig;
    /** The batch header tables of every log's new segments, one budget for the broker. */
    private final BatchHeaderTables batchHeaders;

    private volatile ToLongFunction<TopicPartitionKey> stableOffsets = key -> Long.MAX_VALUE;
    private volatile LogCleaner cleaner;
    private boolean loaded;
    private boolean closed;

    /**
     * @param logDirs       log.dirs; created when missing
     * @param defaults      broker-level log configuration
     * @param topicConfigs  per-topic configuration (overrides applied by the broker); null = always {@code defaults}
     * @param managerConfig background task intervals
     * @param clock         wall clock in ms
     * @param scheduler     runs background tasks; null = a private single daemon thread, shut down by {@link #close()}
     */
    public LogManager(
            List<Path> logDirs,
            LogConfig defaults,
            Function<String, LogConfig> topicConfigs,
            LogManagerConfig managerConfig,
            LongSupplier clock,
            ScheduledExecutorService scheduler) {
        this(logDirs, defaults, topicConfigs, managerConfig, clock, scheduler, CleanerConfig.defaults());
    }

    /**
     * @param cleanerConfig the log cleaner's settings; it runs from {@link #loadAll()} when enabled
     */
    public LogManager(
            List<Path> logDirs,
            LogConfig defaults,
            Function<String, LogConfig> topicConfigs,
            LogManagerConfig managerConfig,
            LongSupplier clock,
            ScheduledExecutorService scheduler,
            CleanerConfig cleanerConfig) {
        this.cleanerConfig = Objects.requireNonNull(cleanerConfig, "cleanerConfig");
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("log.dirs must name at least one directory");
        }
        this.logDirs = List.copyOf(logDirs);
        this.checkpoints = new LogDirCheckpoints(this.logDirs, logs, logDirOf, report);
        Objects.requireNonNull(defaults, "defaults");
        this.topicConfigs = topicConfigs == null ? topic -> defaults : topicConfigs;
        this.managerConfig = Objects.requireNonNull(managerConfig, "managerConfig");
        this.batchHeaders = new BatchHeaderTables(managerConfig.batchHeaderTableBytes());
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tasks = new LogManagerTasks(scheduler);
    }

    /** Defaults everywhere: one configuration for all topics, Kafka's task intervals, the system clock. */
    public LogManager(List<Path> logDirs, LogConfig defaults) {
        this(logDirs, defaults, null, LogManagerConfig.defaults(), System::currentTimeMillis, null);
    }

    /**
     * Locks every log directory, loads and recovers every partition found ({@code <topic>-<partition>}), removes
     * leftovers of deleted partitions and starts the background tasks.
     *
     * @throws LogDirectoryLockedException when another broker holds a directory
     */
    public Map<TopicPartitionKey, PartitionLog> loadAll() throws IOException {
        synchronized (lifecycle) {
            if (loaded) {
                return logs();
            }
            lockDirectories();
            for (Path logDir : logDirs) {
                loadDir(logDir);
            }
            loaded = true;
            startTasks();
            if (cleanerConfig.enable()) {
                LogCleaner created = new LogCleaner(
                        cleanerConfig,
                        this::logs,
                        logDirOf::get,
                        new CleanerCheckpoints(logDirs, report),
                        clock,
                        CleanFaults.NONE);
                created.stableOffsets(key -> stableOffsets.applyAsLong(key));
                created.start();
                cleaner = created;
            }
            if (!report.isEmpty()) {
                LOG.warn("log recovery repaired:\n{}", report);
            }
            return logs();
        }
    }

    /**
     * Creates and locks every log directory, so a second broker on the same directories fails before it touches
     * anything; {@link #loadAll()} calls it too. Idempotent.
     *
     * @throws LogDirectoryLockedException when another broker holds a directory
     */
    public void lockDirectories() throws IOException {
        synchronized (lifecycle) {
            locks.lockAll(logDirs);
        }
    }

    private void loadDir(Path logDir) throws IOException {
        Map<TopicPartitionKey, Long> recoveryPoints = checkpoints.readRecoveryPoints(logDir);
        Map<TopicPartitionKey, Long> startOffsets = checkpoints.readLogStartOffsets(logDir);
        List<Path> partitionDirs = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(logDir, Files::isDirectory)) {
            for (Path child : children) {
                partitionDirs.add(child);
            }
        }
        Collections.sort(partitionDirs);
        for (Path child : partitionDirs) {
            String dirName = child.getFileName().toString();
            if (dirName.endsWith(DELETE_DIR_SUFFIX)) {
                scheduleDirectoryDeletion(child, 0);
                continue;
            }
            if (dirName.endsWith(STRAY_DIR_SUFFIX)) {
                continue;
            }
            TopicPartitionKey key = TopicPartitionKey.parseDirName(dirName);
            if (key == null) {
                // Hidden directories (the broker's own metadata) are expected; anything else is worth a warning.
                if (!dirName.startsWith(".")) {
                    LOG.warn("ignoring {} in log directory {}: not a <topic>-<partition> directory", dirName, logDir);
                }
                continue;
            }
            if (logs.containsKey(key)) {
                report.add("partition " + key + " exists in both " + logDirOf.get(key) + " and " + logDir
                        + "; using the first, ignoring " + child);
                continue;
            }
            PartitionLog log = PartitionLog.open(
                    child,
                    topicConfigs.apply(key.topic()),
                    report,
                    recoveryPoints.getOrDefault(key, 0L),
                    startOffsets.getOrDefault(key, 0L),
                    clock,
                    batchHeaders);
            logs.put(key, log);
            logDirOf.put(key, logDir);
            watchTruncation(key, log, logDir);
        }
    }

    /** After a truncation of the log, the cleaner lowers its checkpoint (Kafka's maybeTruncateCleanerCheckpointToActiveSegmentBaseOffset). */
    private void watchTruncation(TopicPartitionKey key, PartitionLog log, Path logDir) {
        log.onTruncation(activeSegmentBase -> {
            LogCleaner running = cleaner;
            if (running != null) {
                try {
                    running.maybeTruncateCheckpoint(logDir, key, log, activeSegmentBase);
                } catch (IOException e) {
                    LOG.error("could not lower the cleaner checkpoint of {} after truncation", key, e);
                }
            }
        });
    }

    private void startTasks() {
        tasks.every("flush", managerConfig.flushCheckIntervalMs(), this::flushDueLogs);
        tasks.every(
                "recovery point checkpoint",
                managerConfig.recoveryPointCheckpointIntervalMs(),
                this::checkpointRecoveryPoints);
        tasks.every(
                "log start offset checkpoint",
                managerConfig.logStartOffsetCheckpointIntervalMs(),
                this::checkpointLogStartOffsets);
        tasks.every("retention", managerConfig.retentionCheckIntervalMs(), this::enforceRetention);
    }

    private void ensureLoaded() {
        if (!loaded) {
            throw new IllegalStateException("LogManager.loadAll() must run first");
        }
        if (closed) {
            throw new IllegalStateException("LogManager is closed");
        }
    }

    /**
     * The log of a partition, created (empty) in the log directory holding the fewest partitions when it does
     * not exist yet.
     *
     * @param config the topic's configuration; null = the configuration function's answer for {@code topic}
     */
    public PartitionLog create(String topic, int partition, LogConfig config) throws IOException {
        TopicPartitionKey key = new TopicPartitionKey(topic, partition);
        synchronized (lifecycle) {
            ensureLoaded();
            PartitionLog existing = logs.get(key);
            if (existing != null) {
                return existing;
            }
            Path logDir = leastLoadedDir();
            PartitionLog log = PartitionLog.open(
                    logDir.resolve(key.dirName()),
                    config == null ? topicConfigs.apply(topic) : config,
                    report,
                    0L,
                    0L,
                    clock,
                    batchHeaders);
            logs.put(key, log);
            logDirOf.put(key, logDir);
            watchTruncation(key, log, logDir);
            return log;
        }
    }

    private Path leastLoadedDir() {
        Map<Path, Integer> counts = new HashMap<>();
        for (Path dir : logDirs) {
            counts.put(dir, 0);
        }
        for (Path dir : logDirOf.values()) {
            counts.merge(dir, 1, Integer::sum);
        }
        Path best = logDirs.get(0);
        for (Path dir : logDirs) {
            if (counts.get(dir) < counts.get(best)) {
                best = dir;
            }
        }
        return best;
    }

    /** The log directories, in configuration order. */
    public List<Path> logDirs() {
        return logDirs;
    }

    /** The log of a partition, or null. */
    public PartitionLog get(String topic, int partition) {
        return logs.get(new TopicPartitionKey(topic, partition));
    }

    /** A snapshot of all logs. */
    public Map<TopicPartitionKey, PartitionLog> logs() {
        return Map.copyOf(logs);
    }

    /** The log directory holding a partition, or null. */
    public Path logDirOf(String topic, int partition) {
        return logDirOf.get(new TopicPartitionKey(topic, partition));
    }

    /** The running log cleaner, or null before {@link #loadAll()} or when log.cleaner.enable is false. */
    public LogCleaner cleaner() {
        return cleaner;
    }

    /**
     * Where the cleaner must stop in each partition: its high watermark (Kafka cleans below the last stable offset).
     * Unset, logs are cleaned up to their active segment.
     */
    public void cleanerStableOffsets(ToLongFunction<TopicPartitionKey> offsets) {
        this.stableOffsets = Objects.requireNonNull(offsets, "offsets");
    }

    /** What recovery repaired, across all directories, since this manager started. */
    public RecoveryReport recoveryReport() {
        return report;
    }

    /**
     * Closes a partition's log, renames its directory to {@code <topic>-<partition>.<uuid>-delete} and deletes it
     * after log.segment.delete.delay.ms. Unknown partitions are ignored.
     */
    public void delete(String topic, int partition) throws IOException {
        PartitionLog log = get(topic, partition);
        Path renamed = detachAndRename(topic, partition, DELETE_DIR_SUFFIX);
        if (renamed != null) {
            scheduleDirectoryDeletion(renamed, log.config().fileDeleteDelayMs());
        }
    }

    /**
     * Closes a partition's log and moves its directory aside as {@code <topic>-<partition>.<uuid>-stray}, kept on disk
     * but never loaded again: for a log whose partition the cluster does not know (its topic was deleted while this
     * broker was down, or the cluster metadata was lost). Returns the new directory, null for an unknown partition.
     */
    public Path setAsideAsStray(String topic, int partition) throws IOException {
        return detachAndRename(topic, partition, STRAY_DIR_SUFFIX);
    }

    /** Forgets and closes a partition's log, renames its directory with a unique suffix; null when unknown. */
    private Path detachAndRename(String topic, int partition, String suffix) throws IOException {
        TopicPartitionKey key = new TopicPartitionKey(topic, partition);
        PartitionLog log;
        Path logDir;
        synchronized (lifecycle) {
            ensureLoaded();
            log = logs.remove(key);
            logDir = logDirOf.remove(key);
        }
        if (log == null) {
            return null;
        }
        LogCleaner running = cleaner;
        if (running != null) {
            running.abortAndWait(log);
        }
        log.close();
        Path renamed = logDir.resolve(
                key.dirName() + "." + UUID.randomUUID().toString().replace("-", "") + suffix);
        Files.move(log.dir(), renamed);
        AtomicFile.fsyncDirectory(logDir);
        try {
            checkpoints.writeRecoveryPoints(logDir);
            checkpoints.writeLogStartOffsets(logDir);
            if (running != null) {
                running.forget(logDir, key);
            }
        } catch (IOException e) {
            // The partition is gone already; the next scheduled checkpoint leaves it out.
            LOG.error("checkpoints of {} not rewritten after removing {}", logDir, key, e);
        }
        return renamed;
    }

    private void scheduleDirectoryDeletion(Path dir, long delayMs) {
        try {
            tasks.later("delete " + dir, delayMs, () -> DirectoryTrees.deleteRecursively(dir));
        } catch (RejectedExecutionException e) {
            LOG.warn("scheduler stopped; {} will be deleted at the next start", dir);
        }
    }

    /** Writes {@code recovery-point-offset-checkpoint} in every log directory. */
    public void checkpointRecoveryPoints() throws IOException {
        for (Path dir : logDirs) {
            checkpoints.writeRecoveryPoints(dir);
        }
    }

    /** Writes {@code log-start-offset-checkpoint} in every log directory. */
    public void checkpointLogStartOffsets() throws IOException {
        for (Path dir : logDirs) {
            checkpoints.writeLogStartOffsets(dir);
        }
    }

    /** Runs retention on every log now. */
    public void enforceRetention() throws IOException {
        long now = clock.getAsLong();
        for (PartitionLog log : logs.values()) {
            if (!log.isClosed()) {
                log.enforceRetention(now);
            }
        }
    }

    /**
     * Fsyncs logs whose log.flush.interval.ms has passed since their last flush, and rolled segments of all others
     * so their recovery points advance; closes and deletes segment files whose delete delay has passed.
     */
    public void flushDueLogs() throws IOException {
        long now = clock.getAsLong();
        for (PartitionLog log : logs.values()) {
            if (log.isClosed()) {
                continue;
            }
            if (now - log.lastFlushMs() >= log.config().flushIntervalMs()) {
                log.flush();
            } else {
                log.flushRolledSegments();
            }
            log.deleteExpiredFiles(now);
        }
    }

    /**
     * Stops the background tasks, closes every log cleanly (flush, producer snapshot, clean-shutdown marker),
     * writes both checkpoints and releases the directory locks. Idempotent.
     */
    @Override
    public void close() throws IOException {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (cleaner != null) {
                cleaner.close();
            }
            tasks.cancelPeriodic();
            IOException failure = null;
            for (PartitionLog log : logs.values()) {
                try {
                    log.close();
                } catch (IOException e) {
                    LOG.error("closing {} failed", log.name(), e);
                    failure = e;
                }
            }
            if (loaded) {
                try {
                    checkpointRecoveryPoints();
                    checkpointLogStartOffsets();
                } catch (IOException e) {
                    failure = e;
                }
            }
            tasks.shutdown();
            locks.releaseAll();
            if (failure != null) {
                throw failure;
            }
        }
    }
}
