package io.sluice.log;

/**
 * Per-partition storage settings, named and defaulted like Apache Kafka's topic/broker configuration.
 * Immutable; thread-safe.
 *
 * <h2>Flush policy: what survives a crash</h2>
 * Every append is written to the segment file with {@code write(2)} before {@code appendAsLeader} returns,
 * so the bytes are in the operating system's page cache. Whether they are also on the disk is decided here:
 * <ul>
 *   <li><b>{@code flushIntervalMessages = 1}</b> (fsync per append): {@code appendAsLeader} returns only after
 *       {@code fdatasync} of the segment file (and of the directory when a new segment file was created).
 *       Process crash: no acknowledged record is lost. Power loss / kernel crash: no acknowledged record is
 *       lost, provided the disk honours flush requests. Costs one fsync per produce request per partition.</li>
 *   <li><b>{@code flushIntervalMessages = N > 1} and/or {@code flushIntervalMs = T}</b>: the log is fsynced
 *       after N records have accumulated (by the appending thread) or when T ms have passed since the last
 *       flush (by the {@link LogManager}'s flush task, checked every {@code flushCheckIntervalMs}).
 *       Process crash: nothing acknowledged is lost (the page cache outlives the process). Power loss: up to
 *       the last N-1 records, or up to T ms (+ the check interval) of acknowledged records, may be lost;
 *       recovery truncates the torn tail at the last complete, CRC-valid batch.</li>
 *   <li><b>default</b> ({@code flushIntervalMessages = Long.MAX_VALUE}, {@code flushIntervalMs = Long.MAX_VALUE}):
 *       OS-managed, like Kafka's default. Process crash: nothing acknowledged is lost. Power loss: whatever the
 *       kernel had not yet written back is lost (on Linux typically up to ~30 s, {@code vm.dirty_expire_centisecs});
 *       durability then comes from replication. Rolled segments are still fsynced in the background so the
 *       recovery point advances.</li>
 * </ul>
 * Index files are never on the durability path: they are rebuilt from the log when missing or inconsistent.
 *
 * @param segmentBytes          log.segment.bytes (1 GiB): roll to a new segment file at this size, so retention can delete whole files.
 * @param segmentMs             log.roll.ms (7 days): roll a non-empty segment this old, so time retention works on quiet partitions.
 * @param retentionMs           log.retention.ms (7 days; -1 = unlimited): delete segments whose newest record is older.
 * @param retentionBytes        log.retention.bytes (-1 = unlimited): delete the oldest segments while the log is larger.
 * @param indexIntervalBytes    log.index.interval.bytes (4096): bytes between sparse index entries; bounds the scan per lookup.
 * @param maxIndexSizeBytes     log.index.size.max.bytes (10 MiB): cap of one offset index file; a full index rolls the segment.
 * @param flushIntervalMessages log.flush.interval.messages (Long.MAX_VALUE; 1 = fsync every append): see "Flush policy".
 * @param flushIntervalMs       log.flush.interval.ms (Long.MAX_VALUE = OS-managed): see "Flush policy".
 * @param fileDeleteDelayMs     log.segment.delete.delay.ms (60 s): deleted segments stay open this long so in-flight sendfile reads finish.
 * @param producerIdExpirationMs producer.id.expiration.ms (1 day): forget idempotent producers silent this long, bounding producer state.
 * @param compact               cleanup.policy contains compact: the log cleaner keeps the latest record of each key.
 * @param minCleanableDirtyRatio min.cleanable.dirty.ratio (0.5): clean a log once this share of its cleanable bytes is dirty.
 * @param minCompactionLagMs    min.compaction.lag.ms (0): a record stays uncompacted at least this long after it is written.
 * @param maxCompactionLagMs    max.compaction.lag.ms (Long.MAX_VALUE): a record becomes cleanable at most this long after it
 *                              is written, whatever the dirty ratio; the active segment then also rolls at this age.
 * @param deleteRetentionMs     delete.retention.ms (1 day): a tombstone stays readable this long after the cleaner first sees it.
 */
public record LogConfig(
        int segmentBytes,
        long segmentMs,
        long retentionMs,
        long retentionBytes,
        int indexIntervalBytes,
        int maxIndexSizeBytes,
        long flushIntervalMessages,
        long flushIntervalMs,
        long fileDeleteDelayMs,
        long producerIdExpirationMs,
        boolean compact,
        double minCleanableDirtyRatio,
        long minCompactionLagMs,
        long maxCompactionLagMs,
        long deleteRetentionMs) {

    public static final int DEFAULT_SEGMENT_BYTES = 1024 * 1024 * 1024;
    public static final long DEFAULT_SEGMENT_MS = 7L * 24 * 60 * 60 * 1000;
    public static final long DEFAULT_RETENTION_MS = 7L * 24 * 60 * 60 * 1000;
    public static final long DEFAULT_RETENTION_BYTES = -1L;
    public static final int DEFAULT_INDEX_INTERVAL_BYTES = 4096;
    public static final int DEFAULT_MAX_INDEX_SIZE_BYTES = 10 * 1024 * 1024;
    public static final long DEFAULT_FLUSH_INTERVAL_MESSAGES = Long.MAX_VALUE;
    public static final long DEFAULT_FLUSH_INTERVAL_MS = Long.MAX_VALUE;
    public static final long DEFAULT_FILE_DELETE_DELAY_MS = 60_000L;
    public static final long DEFAULT_PRODUCER_ID_EXPIRATION_MS = 24L * 60 * 60 * 1000;
    public static final double DEFAULT_MIN_CLEANABLE_DIRTY_RATIO = 0.5;
    public static final long DEFAULT_MIN_COMPACTION_LAG_MS = 0L;
    public static final long DEFAULT_MAX_COMPACTION_LAG_MS = Long.MAX_VALUE;
    public static final long DEFAULT_DELETE_RETENTION_MS = 24L * 60 * 60 * 1000;

    /** Smallest segment size accepted: one batch header plus a record must fit (Kafka's minimum is 14 bytes; we want a batch). */
    public static final int MIN_SEGMENT_BYTES = 64;

    public LogConfig {
        requireAtLeast("log.segment.bytes", segmentBytes, MIN_SEGMENT_BYTES);
        requireAtLeast("log.roll.ms", segmentMs, 1);
        if (retentionMs < -1) {
            throw new IllegalArgumentException("log.retention.ms must be -1 (unlimited) or >= 0, was " + retentionMs);
        }
        if (retentionBytes < -1) {
            throw new IllegalArgumentException(
                    "log.retention.bytes must be -1 (unlimited) or >= 0, was " + retentionBytes);
        }
        requireAtLeast("log.index.interval.bytes", indexIntervalBytes, 0);
        requireAtLeast("log.index.size.max.bytes", maxIndexSizeBytes, 16);
        requireAtLeast("log.flush.interval.messages", flushIntervalMessages, 1);
        requireAtLeast("log.flush.interval.ms", flushIntervalMs, 0);
        requireAtLeast("log.segment.delete.delay.ms", fileDeleteDelayMs, 0);
        requireAtLeast("producer.id.expiration.ms", producerIdExpirationMs, 1);
        if (!(minCleanableDirtyRatio >= 0 && minCleanableDirtyRatio <= 1)) {
            throw new IllegalArgumentException(
                    "min.cleanable.dirty.ratio must be in [0, 1], was " + minCleanableDirtyRatio);
        }
        requireAtLeast("min.compaction.lag.ms", minCompactionLagMs, 0);
        requireAtLeast("max.compaction.lag.ms", maxCompactionLagMs, 1);
        requireAtLeast("delete.retention.ms", deleteRetentionMs, 0);
    }

    /**
     * The age at which the active segment rolls: segment.ms, or max.compaction.lag.ms when compacted and smaller, so a
     * record becomes cleanable in time (Kafka's LogConfig.maxSegmentMs).
     */
    public long maxSegmentMs() {
        return compact ? Math.min(segmentMs, maxCompactionLagMs) : segmentMs;
    }

    /**
     * Whether flushing is left to the operating system (neither flush key set), so an append, a fetched batch or a
     * moved segment is done once it is in the page cache; otherwise the policy forces records to disk on its own.
     */
    public boolean flushLeftToOs() {
        return flushIntervalMessages == DEFAULT_FLUSH_INTERVAL_MESSAGES && flushIntervalMs == DEFAULT_FLUSH_INTERVAL_MS;
    }

    private static void requireAtLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be >= " + min + ", was " + value);
        }
    }

    /** Kafka's defaults. */
    public static LogConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration, to derive per-topic overrides. */
    public Builder toBuilder() {
        return new Builder()
                .segmentBytes(segmentBytes)
                .segmentMs(segmentMs)
                .retentionMs(retentionMs)
                .retentionBytes(retentionBytes)
                .indexIntervalBytes(indexIntervalBytes)
                .maxIndexSizeBytes(maxIndexSizeBytes)
                .flushIntervalMessages(flushIntervalMessages)
                .flushIntervalMs(flushIntervalMs)
                .fileDeleteDelayMs(fileDeleteDelayMs)
                .producerIdExpirationMs(producerIdExpirationMs)
                .compact(compact)
                .minCleanableDirtyRatio(minCleanableDirtyRatio)
                .minCompactionLagMs(minCompactionLagMs)
                .maxCompactionLagMs(maxCompactionLagMs)
                .deleteRetentionMs(deleteRetentionMs);
    }

    /** True when appends fsync before returning. */
    public boolean flushesEveryAppend() {
        return flushIntervalMessages == 1;
    }

    /** Not thread-safe; one per configuration being built. */
    public static final class Builder {
        private int segmentBytes = DEFAULT_SEGMENT_BYTES;
        private long segmentMs = DEFAULT_SEGMENT_MS;
        private long retentionMs = DEFAULT_RETENTION_MS;
        private long retentionBytes = DEFAULT_RETENTION_BYTES;
        private int indexIntervalBytes = DEFAULT_INDEX_INTERVAL_BYTES;
        private int maxIndexSizeBytes = DEFAULT_MAX_INDEX_SIZE_BYTES;
        private long flushIntervalMessages = DEFAULT_FLUSH_INTERVAL_MESSAGES;
        private long flushIntervalMs = DEFAULT_FLUSH_INTERVAL_MS;
        private long fileDeleteDelayMs = DEFAULT_FILE_DELETE_DELAY_MS;
        private long producerIdExpirationMs = DEFAULT_PRODUCER_ID_EXPIRATION_MS;
        private boolean compact;
        private double minCleanableDirtyRatio = DEFAULT_MIN_CLEANABLE_DIRTY_RATIO;
        private long minCompactionLagMs = DEFAULT_MIN_COMPACTION_LAG_MS;
        private long maxCompactionLagMs = DEFAULT_MAX_COMPACTION_LAG_MS;
        private long deleteRetentionMs = DEFAULT_DELETE_RETENTION_MS;

        public Builder segmentBytes(int v) {
            segmentBytes = v;
            return this;
        }

        public Builder segmentMs(long v) {
            segmentMs = v;
            return this;
        }

        public Builder retentionMs(long v) {
            retentionMs = v;
            return this;
        }

        public Builder retentionBytes(long v) {
            retentionBytes = v;
            return this;
        }

        public Builder indexIntervalBytes(int v) {
            indexIntervalBytes = v;
            return this;
        }

        public Builder maxIndexSizeBytes(int v) {
            maxIndexSizeBytes = v;
            return this;
        }

        public Builder flushIntervalMessages(long v) {
            flushIntervalMessages = v;
            return this;
        }
        /** {@code null} means OS-managed (Long.MAX_VALUE). */
        public Builder flushIntervalMs(Long v) {
            flushIntervalMs = v == null ? Long.MAX_VALUE : v;
            return this;
        }

        public Builder fileDeleteDelayMs(long v) {
            fileDeleteDelayMs = v;
            return this;
        }

        public Builder producerIdExpirationMs(long v) {
            producerIdExpirationMs = v;
            return this;
        }

        public Builder compact(boolean v) {
            compact = v;
            return this;
        }

        public Builder minCleanableDirtyRatio(double v) {
            minCleanableDirtyRatio = v;
            return this;
        }

        public Builder minCompactionLagMs(long v) {
            minCompactionLagMs = v;
            return this;
        }

        public Builder maxCompactionLagMs(long v) {
            maxCompactionLagMs = v;
            return this;
        }

        public Builder deleteRetentionMs(long v) {
            deleteRetentionMs = v;
            return this;
        }

        public LogConfig build() {
            return new LogConfig(
                    segmentBytes,
                    segmentMs,
                    retentionMs,
                    retentionBytes,
                    indexIntervalBytes,
                    maxIndexSizeBytes,
                    flushIntervalMessages,
                    flushIntervalMs,
                    fileDeleteDelayMs,
                    producerIdExpirationMs,
                    compact,
                    minCleanableDirtyRatio,
                    minCompactionLagMs,
                    maxCompactionLagMs,
                    deleteRetentionMs);
        }
    }
}
