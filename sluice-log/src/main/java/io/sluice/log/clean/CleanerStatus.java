package io.sluice.log.clean;

import java.nio.file.Path;

/**
 * The figures behind Apache Kafka's log cleaner gauges ({@code kafka.log:type=LogCleaner} and
 * {@code type=LogCleanerManager}), read-only, for the broker to publish: this module knows no metrics library.
 * Values describe each cleaner thread's last completed clean, as Kafka's do, and the last look for a log to clean.
 *
 * <p>Implementations are thread-safe; every call reads current values.
 */
public interface CleanerStatus {
    /** max-buffer-utilization-percent: the fullest offset map of any thread's last clean, 0 to 100. */
    double maxBufferUtilizationPercent();

    /** cleaner-recopy-percent: bytes written over bytes read by the threads' last cleans, in whole percent. */
    int cleanerRecopyPercent();

    /** max-clean-time-secs: the longest of the threads' last cleans. */
    double maxCleanTimeSecs();

    /** max-compaction-delay-secs: how far past max.compaction.lag.ms the most overdue log was when a thread last chose. */
    double maxCompactionDelaySecs();

    /** DeadThreadCount: cleaner threads that ended on an unexpected error. */
    int deadThreadCount();

    /** max-dirty-percent: the dirty ratio of the dirtiest compacted log at the last look, in whole percent. */
    int maxDirtyPercent();

    /** time-since-last-run-ms: since a thread last looked for a log to clean. */
    long timeSinceLastRunMs();

    /** uncleanable-partitions-count of one log directory: logs left alone after a failed clean. */
    int uncleanablePartitionsCount(Path logDir);

    /** uncleanable-bytes of one log directory: the dirty bytes of those logs. */
    long uncleanableBytes(Path logDir);
}
