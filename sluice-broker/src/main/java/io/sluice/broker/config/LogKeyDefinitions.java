package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;
import static io.sluice.broker.config.ConfigType.BOOLEAN;
import static io.sluice.broker.config.ConfigType.DOUBLE;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.LIST;
import static io.sluice.broker.config.ConfigType.LONG;
import static io.sluice.broker.config.ConfigType.STRING;
import static io.sluice.broker.config.ConfigValidator.ANY;
import static io.sluice.broker.config.ConfigValidator.atLeast;
import static io.sluice.broker.config.ConfigValidator.inRange;
import static io.sluice.broker.config.ConfigValidator.nonEmptyListOf;
import static io.sluice.broker.config.ConfigValidator.oneOf;

/**
 * The broker keys of the log: segments, retention, index, flushing, timestamps, compression, cleanup policy and the log
 * cleaner (most are the broker defaults of topic keys). Part of the catalogue {@link BrokerConfigKeys} assembles; the
 * order of the definitions is the documentation order.
 * Stateless; thread-safe.
 */
final class LogKeyDefinitions {
    private LogKeyDefinitions() {}

    /** Defines the log keys, after the server basics. */
    static void defineInto(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                LOG_SEGMENT_BYTES,
                INT,
                "1073741824",
                "A segment rolls when appending would make it larger than this.",
                atLeast(MIN_SEGMENT_BYTES));
        catalogue.define(
                LOG_ROLL_MS,
                LONG,
                null,
                "A segment rolls when its first record is this old; unset means log.roll.hours.",
                atLeast(1));
        catalogue.define(
                LOG_ROLL_HOURS,
                INT,
                "168",
                "A segment rolls when its first record is this many hours old (when log.roll.ms is unset).",
                atLeast(1));
        catalogue.define(
                LOG_RETENTION_MS,
                LONG,
                null,
                "Delete segments older than this; -1 keeps forever; unset means log.retention.minutes.",
                atLeast(-1));
        catalogue.define(
                LOG_RETENTION_MINUTES,
                INT,
                null,
                "Retention in minutes when log.retention.ms is unset; unset means log.retention.hours.",
                atLeast(-1));
        catalogue.define(
                LOG_RETENTION_HOURS,
                INT,
                "168",
                "Retention in hours when log.retention.ms and log.retention.minutes are unset.",
                atLeast(-1));
        catalogue.define(
                LOG_RETENTION_BYTES,
                LONG,
                "-1",
                "Delete oldest segments while a partition is larger than this; -1 means no size limit.",
                atLeast(-1));
        catalogue.define(
                LOG_RETENTION_CHECK_INTERVAL_MS, LONG, "300000", "How often retention is checked.", atLeast(1));
        catalogue.define(
                LOG_INDEX_INTERVAL_BYTES,
                INT,
                "4096",
                "Bytes of records between two entries of the sparse offset index.",
                atLeast(0));
        catalogue.define(
                LOG_INDEX_SIZE_MAX_BYTES,
                INT,
                "10485760",
                "Largest offset or time index file; a full index rolls the segment.",
                atLeast(MIN_INDEX_BYTES));
        catalogue.define(
                LOG_FLUSH_INTERVAL_MESSAGES,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "fsync a partition after this many records (1 = every batch); the default leaves flushing to the OS.",
                atLeast(1));
        catalogue.define(
                LOG_FLUSH_INTERVAL_MS,
                LONG,
                null,
                "fsync a partition when its oldest unflushed record is this old; unset means log.flush.scheduler.interval.ms.",
                atLeast(0));
        catalogue.define(
                LOG_FLUSH_SCHEDULER_INTERVAL_MS,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "How often the flusher checks whether a partition needs an fsync by time.",
                atLeast(0));
        catalogue.define(
                LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS,
                INT,
                "60000",
                "How often the recovery point checkpoint is written.",
                atLeast(0));
        catalogue.define(
                LOG_SEGMENT_DELETE_DELAY_MS,
                LONG,
                "60000",
                "Delay between removing a segment from the log and deleting its files.",
                atLeast(0));
        catalogue.define(
                LOG_MESSAGE_TIMESTAMP_TYPE,
                STRING,
                "CreateTime",
                "CreateTime keeps producer timestamps; LogAppendTime stamps the broker's clock.",
                oneOf(TIMESTAMP_TYPES));
        catalogue.define(
                LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Refuse CreateTime timestamps further than this in the past.",
                atLeast(0));
        catalogue.define(
                LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Refuse CreateTime timestamps further than this in the future.",
                atLeast(0));
        catalogue.define(
                COMPRESSION_TYPE,
                STRING,
                "producer",
                "Stored compression: producer keeps the producer's codec; uncompressed, gzip, snappy, lz4 or zstd recompress.",
                oneOf(BROKER_COMPRESSION_TYPES));
        catalogue.define(
                LOG_CLEANUP_POLICY,
                LIST,
                "delete",
                "Default cleanup policy of topics: delete and/or compact.",
                nonEmptyListOf(CLEANUP_POLICIES));
        catalogue.define(
                LOG_CLEANER_ENABLE,
                BOOLEAN,
                "true",
                "Run the log cleaner, which compacts topics with cleanup.policy compact.",
                ANY);
        catalogue.define(
                LOG_CLEANER_THREADS, INT, "1", "Log cleaner threads: compacted logs cleaned at once.", atLeast(1));
        catalogue.define(
                LOG_CLEANER_DEDUPE_BUFFER_SIZE,
                LONG,
                "134217728",
                "Memory of the cleaners' key-to-offset maps (24 bytes a key), split over the threads; bounds the dirty log one clean covers.",
                atLeast(24 * 1024));
        catalogue.define(
                LOG_CLEANER_IO_BUFFER_LOAD_FACTOR,
                DOUBLE,
                "0.9",
                "How full a cleaner's key map may get before its clean stops mapping.",
                inRange(0.01, 1.0));
        catalogue.define(
                LOG_CLEANER_IO_BUFFER_SIZE,
                INT,
                "524288",
                "Read and write buffer of each cleaner thread (grown for a larger batch).",
                atLeast(4096));
        catalogue.define(
                LOG_CLEANER_IO_MAX_BYTES_PER_SECOND,
                DOUBLE,
                String.valueOf(Double.MAX_VALUE),
                "Bytes per second the cleaner threads read and write together; the default is unlimited.",
                inRange(1, Double.MAX_VALUE));
        catalogue.define(
                LOG_CLEANER_BACKOFF_MS,
                LONG,
                "15000",
                "Pause of a cleaner thread that found no log to clean.",
                atLeast(0));
        catalogue.define(
                LOG_CLEANER_MIN_CLEANABLE_RATIO,
                DOUBLE,
                "0.5",
                "Default min.cleanable.dirty.ratio: a log is cleaned once this share of its cleanable bytes is dirty.",
                inRange(0, 1));
        catalogue.define(
                LOG_CLEANER_DELETE_RETENTION_MS,
                LONG,
                "86400000",
                "Default delete.retention.ms: how long a tombstone stays readable after the cleaner first keeps it.",
                atLeast(0));
        catalogue.define(
                LOG_CLEANER_MIN_COMPACTION_LAG_MS,
                LONG,
                "0",
                "Default min.compaction.lag.ms: a record stays uncompacted at least this long.",
                atLeast(0));
        catalogue.define(
                LOG_CLEANER_MAX_COMPACTION_LAG_MS,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Default max.compaction.lag.ms: a record becomes cleanable at most this long after it is written.",
                atLeast(1));
    }
}
