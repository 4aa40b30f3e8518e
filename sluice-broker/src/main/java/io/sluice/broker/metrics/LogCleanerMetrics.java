package io.sluice.broker.metrics;

import io.sluice.log.clean.CleanerStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Apache Kafka's log cleaner gauges, read from the running cleaner's {@link CleanerStatus} when asked:
 * {@code kafka.log:type=LogCleaner,name=} max-buffer-utilization-percent, cleaner-recopy-percent, max-clean-time-secs,
 * max-compaction-delay-secs, DeadThreadCount; {@code kafka.log:type=LogCleanerManager,name=} max-dirty-percent,
 * time-since-last-run-ms, and per log directory ({@code logDirectory=<absolute path>}) uncleanable-partitions-count
 * and uncleanable-bytes. Registered only when the cleaner runs (log.cleaner.enable), as in Kafka.
 *
 * <p>Thread-safe: registration happens once; every read goes to the cleaner.
 */
public final class LogCleanerMetrics {
    public static final String DOMAIN = "kafka.log";
    public static final String CLEANER_TYPE = "LogCleaner";
    public static final String MANAGER_TYPE = "LogCleanerManager";
    public static final String LOG_DIRECTORY_TAG = "logDirectory";

    private LogCleanerMetrics() {}

    /**
     * Registers the gauges.
     *
     * @param cleaner the running cleaner; when it returns null (stopped) every gauge reads 0
     * @param logDirs log.dirs, one set of per-directory gauges each
     */
    public static void register(KafkaMetrics metrics, Supplier<? extends CleanerStatus> cleaner, List<Path> logDirs) {
        cleanerGauge(metrics, "max-buffer-utilization-percent", cleaner, CleanerStatus::maxBufferUtilizationPercent);
        cleanerGauge(metrics, "cleaner-recopy-percent", cleaner, CleanerStatus::cleanerRecopyPercent);
        cleanerGauge(metrics, "max-clean-time-secs", cleaner, CleanerStatus::maxCleanTimeSecs);
        cleanerGauge(metrics, "max-compaction-delay-secs", cleaner, CleanerStatus::maxCompactionDelaySecs);
        cleanerGauge(metrics, "DeadThreadCount", cleaner, CleanerStatus::deadThreadCount);
        metrics.gauge(manager("max-dirty-percent"), read(cleaner, CleanerStatus::maxDirtyPercent));
        metrics.gauge(manager("time-since-last-run-ms"), read(cleaner, CleanerStatus::timeSinceLastRunMs));
        for (Path dir : logDirs) {
            Path absolute = dir.toAbsolutePath();
            metrics.gauge(
                    manager("uncleanable-partitions-count", absolute),
                    read(cleaner, status -> status.uncleanablePartitionsCount(absolute)));
            metrics.gauge(
                    manager("uncleanable-bytes", absolute), read(cleaner, status -> status.uncleanableBytes(absolute)));
        }
    }

    /** {@code kafka.log:type=LogCleaner,name=<name>}. */
    public static MetricName cleaner(String name) {
        return MetricName.of(DOMAIN, CLEANER_TYPE, name);
    }

    /** {@code kafka.log:type=LogCleanerManager,name=<name>}. */
    public static MetricName manager(String name) {
        return MetricName.of(DOMAIN, MANAGER_TYPE, name);
    }

    /** {@code kafka.log:type=LogCleanerManager,name=<name>,logDirectory=<dir>}. */
    public static MetricName manager(String name, Path logDir) {
        return MetricName.of(DOMAIN, MANAGER_TYPE, name, LOG_DIRECTORY_TAG, logDir.toString());
    }

    private static void cleanerGauge(
            KafkaMetrics metrics,
            String name,
            Supplier<? extends CleanerStatus> cleaner,
            Function<CleanerStatus, Number> value) {
        metrics.gauge(cleaner(name), read(cleaner, value));
    }

    private static Supplier<Number> read(
            Supplier<? extends CleanerStatus> cleaner, Function<CleanerStatus, Number> value) {
        return () -> {
            CleanerStatus status = cleaner.get();
            return status == null ? 0 : value.apply(status);
        };
    }
}
