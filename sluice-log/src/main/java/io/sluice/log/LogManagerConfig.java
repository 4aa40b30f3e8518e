package io.sluice.log;

/**
 * Log-directory-wide schedule of the {@link LogManager}'s background tasks, named like Kafka's broker keys.
 * Per-partition settings live in {@link LogConfig}. Immutable; thread-safe.
 *
 * @param recoveryPointCheckpointIntervalMs log.flush.offset.checkpoint.interval.ms (60 s): how often recovery points are
 *                                          written; a stale checkpoint only makes the next recovery scan more.
 * @param logStartOffsetCheckpointIntervalMs log.flush.start.offset.checkpoint.interval.ms (60 s): how often log start offsets
 *                                          are written; a stale one only re-exposes records a DeleteRecords removed.
 * @param retentionCheckIntervalMs          log.retention.check.interval.ms (5 min): how often retention deletes old segments.
 * @param flushCheckIntervalMs              log.flush.scheduler.interval.ms (1 s here; Kafka's default never runs): how often
 *                                          logs are checked against log.flush.interval.ms and rolled segments are fsynced.
 * @param batchHeaderTableBytes             sluice.move.batch.header.memory.bytes (32 MiB): heap for the batch header
 *                                          tables of new segments, which spare a move's source the reading back of
 *                                          headers; 0 keeps none.
 */
public record LogManagerConfig(
        long recoveryPointCheckpointIntervalMs,
        long logStartOffsetCheckpointIntervalMs,
        long retentionCheckIntervalMs,
        long flushCheckIntervalMs,
        long batchHeaderTableBytes) {

    public static final long DEFAULT_CHECKPOINT_INTERVAL_MS = 60_000L;
    public static final long DEFAULT_RETENTION_CHECK_INTERVAL_MS = 300_000L;
    public static final long DEFAULT_FLUSH_CHECK_INTERVAL_MS = 1_000L;

    /** Heap for the batch header tables of new segments ({@link io.sluice.log.segment.BatchHeaderTables}). */
    public static final long DEFAULT_BATCH_HEADER_TABLE_BYTES = 32L * 1024 * 1024;

    /** The intervals, with the default batch header table budget. */
    public LogManagerConfig(
            long recoveryPointCheckpointIntervalMs,
            long logStartOffsetCheckpointIntervalMs,
            long retentionCheckIntervalMs,
            long flushCheckIntervalMs) {
        this(
                recoveryPointCheckpointIntervalMs,
                logStartOffsetCheckpointIntervalMs,
                retentionCheckIntervalMs,
                flushCheckIntervalMs,
                DEFAULT_BATCH_HEADER_TABLE_BYTES);
    }

    public LogManagerConfig {
        positive("log.flush.offset.checkpoint.interval.ms", recoveryPointCheckpointIntervalMs);
        positive("log.flush.start.offset.checkpoint.interval.ms", logStartOffsetCheckpointIntervalMs);
        positive("log.retention.check.interval.ms", retentionCheckIntervalMs);
        positive("log.flush.scheduler.interval.ms", flushCheckIntervalMs);
        if (batchHeaderTableBytes < 0) {
            throw new IllegalArgumentException(
                    "sluice.move.batch.header.memory.bytes must be >= 0, was " + batchHeaderTableBytes);
        }
    }

    private static void positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be > 0, was " + value);
        }
    }

    public static LogManagerConfig defaults() {
        return new LogManagerConfig(
                DEFAULT_CHECKPOINT_INTERVAL_MS,
                DEFAULT_CHECKPOINT_INTERVAL_MS,
                DEFAULT_RETENTION_CHECK_INTERVAL_MS,
                DEFAULT_FLUSH_CHECK_INTERVAL_MS);
    }
}
