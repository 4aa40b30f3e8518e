package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;

import io.sluice.log.clean.CleanerConfig;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The log settings of a broker's configuration ({@link BrokerConfig#log()}): the defaults its topics' logs take
 * (segments, roll, retention, index, flush, timestamps, compression, cleanup), the log manager's task intervals and
 * the log cleaner's settings, with Kafka's precedence among the keys that say the same in other units.
 * Immutable; thread-safe.
 */
public final class BrokerLogConfig {
    private final BrokerConfig config;

    BrokerLogConfig(BrokerConfig config) {
        this.config = config;
    }

    public int segmentBytes() {
        return config.integer(LOG_SEGMENT_BYTES);
    }

    /** log.roll.ms, else log.roll.hours in milliseconds. */
    public long rollMs() {
        Long ms = (Long) config.value(LOG_ROLL_MS);
        return ms != null ? ms : TimeUnit.HOURS.toMillis(config.integer(LOG_ROLL_HOURS));
    }

    /**
     * log.retention.ms, else log.retention.minutes, else log.retention.hours, in milliseconds
     * (Kafka's precedence); -1 (or any negative) means keep forever.
     */
    public long retentionMs() {
        Long ms = (Long) config.value(LOG_RETENTION_MS);
        if (ms != null) {
            return ms;
        }
        Integer minutes = (Integer) config.value(LOG_RETENTION_MINUTES);
        if (minutes != null) {
            return minutes < 0 ? -1 : TimeUnit.MINUTES.toMillis(minutes);
        }
        int hours = config.integer(LOG_RETENTION_HOURS);
        return hours < 0 ? -1 : TimeUnit.HOURS.toMillis(hours);
    }

    /** -1 means no size limit. */
    public long retentionBytes() {
        return config.longValue(LOG_RETENTION_BYTES);
    }

    public long retentionCheckIntervalMs() {
        return config.longValue(LOG_RETENTION_CHECK_INTERVAL_MS);
    }

    public int indexIntervalBytes() {
        return config.integer(LOG_INDEX_INTERVAL_BYTES);
    }

    public int indexSizeMaxBytes() {
        return config.integer(LOG_INDEX_SIZE_MAX_BYTES);
    }

    /** Records between fsyncs; Long.MAX_VALUE (the default) leaves flushing to the OS. */
    public long flushIntervalMessages() {
        return config.longValue(LOG_FLUSH_INTERVAL_MESSAGES);
    }

    /**
     * Age of the oldest unflushed record that forces an fsync: log.flush.interval.ms, else
     * log.flush.scheduler.interval.ms (Kafka's fallback); Long.MAX_VALUE means never by time.
     */
    public long flushIntervalMs() {
        Long ms = (Long) config.value(LOG_FLUSH_INTERVAL_MS);
        return ms != null ? ms : flushSchedulerIntervalMs();
    }

    public long flushSchedulerIntervalMs() {
        return config.longValue(LOG_FLUSH_SCHEDULER_INTERVAL_MS);
    }

    public int flushOffsetCheckpointIntervalMs() {
        return config.integer(LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS);
    }

    /** log.segment.delete.delay.ms (the broker default of the topic key file.delete.delay.ms). */
    public long fileDeleteDelayMs() {
        return config.longValue(LOG_SEGMENT_DELETE_DELAY_MS);
    }

    /** "CreateTime" or "LogAppendTime". */
    public String messageTimestampType() {
        return config.string(LOG_MESSAGE_TIMESTAMP_TYPE);
    }

    public long messageTimestampBeforeMaxMs() {
        return config.longValue(LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
    }

    public long messageTimestampAfterMaxMs() {
        return config.longValue(LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS);
    }

    /** One of producer, uncompressed, gzip, snappy, lz4, zstd. */
    public String compressionType() {
        return config.string(COMPRESSION_TYPE);
    }

    /** The log cleaner's settings. */
    public CleanerConfig cleanerConfig() {
        return new CleanerConfig(
                config.bool(LOG_CLEANER_ENABLE),
                config.integer(LOG_CLEANER_THREADS),
                config.longValue(LOG_CLEANER_DEDUPE_BUFFER_SIZE),
                config.doubleValue(LOG_CLEANER_IO_BUFFER_LOAD_FACTOR),
                config.integer(LOG_CLEANER_IO_BUFFER_SIZE),
                config.doubleValue(LOG_CLEANER_IO_MAX_BYTES_PER_SECOND),
                config.longValue(LOG_CLEANER_BACKOFF_MS));
    }

    public double cleanerMinCleanableRatio() {
        return config.doubleValue(LOG_CLEANER_MIN_CLEANABLE_RATIO);
    }

    public long cleanerDeleteRetentionMs() {
        return config.longValue(LOG_CLEANER_DELETE_RETENTION_MS);
    }

    public long cleanerMinCompactionLagMs() {
        return config.longValue(LOG_CLEANER_MIN_COMPACTION_LAG_MS);
    }

    public long cleanerMaxCompactionLagMs() {
        return config.longValue(LOG_CLEANER_MAX_COMPACTION_LAG_MS);
    }

    /** delete and/or compact. */
    public List<String> cleanupPolicy() {
        return config.list(LOG_CLEANUP_POLICY);
    }
}
