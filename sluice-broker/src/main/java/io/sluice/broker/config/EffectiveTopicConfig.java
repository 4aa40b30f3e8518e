package io.sluice.broker.config;

import io.sluice.log.LogConfig;
import java.util.List;
import java.util.Map;

/**
 * A topic's effective configuration (overrides over broker values) with typed getters and
 * DescribeConfigs entries. Immutable; thread-safe.
 */
public final class EffectiveTopicConfig {
    private final Map<String, Object> values;
    private final List<ConfigEntry> entries;
    private final long producerIdExpirationMs;

    EffectiveTopicConfig(Map<String, Object> values, List<ConfigEntry> entries, long producerIdExpirationMs) {
        this.values = Map.copyOf(values);
        this.entries = entries;
        this.producerIdExpirationMs = producerIdExpirationMs;
    }

    /** The storage settings of this topic's partition logs. */
    public LogConfig logConfig() {
        return LogConfig.builder()
                .segmentBytes(segmentBytes())
                .segmentMs(segmentMs())
                .retentionMs(retentionMs())
                .retentionBytes(retentionBytes())
                .indexIntervalBytes(indexIntervalBytes())
                .maxIndexSizeBytes(segmentIndexBytes())
                .flushIntervalMessages(flushMessages())
                .flushIntervalMs(flushMs())
                .fileDeleteDelayMs(fileDeleteDelayMs())
                .producerIdExpirationMs(producerIdExpirationMs)
                .compact(compactEnabled())
                .minCleanableDirtyRatio(minCleanableDirtyRatio())
                .minCompactionLagMs(minCompactionLagMs())
                .maxCompactionLagMs(maxCompactionLagMs())
                .deleteRetentionMs(deleteRetentionMs())
                .build();
    }

    /** Every topic key with its value and source, in {@link TopicConfigKeys#all()} order. */
    public List<ConfigEntry> describe() {
        return entries;
    }

    /** delete and/or compact. */
    @SuppressWarnings("unchecked")
    public List<String> cleanupPolicy() {
        return (List<String>) values.get(TopicConfigKeys.CLEANUP_POLICY);
    }

    public boolean deleteEnabled() {
        return cleanupPolicy().contains("delete");
    }

    public boolean compactEnabled() {
        return cleanupPolicy().contains("compact");
    }

    public long deleteRetentionMs() {
        return (Long) values.get(TopicConfigKeys.DELETE_RETENTION_MS);
    }

    public double minCleanableDirtyRatio() {
        return (Double) values.get(TopicConfigKeys.MIN_CLEANABLE_DIRTY_RATIO);
    }

    public long minCompactionLagMs() {
        return (Long) values.get(TopicConfigKeys.MIN_COMPACTION_LAG_MS);
    }

    public long maxCompactionLagMs() {
        return (Long) values.get(TopicConfigKeys.MAX_COMPACTION_LAG_MS);
    }

    /** One of producer, uncompressed, gzip, snappy, lz4, zstd. */
    public String compressionType() {
        return (String) values.get(TopicConfigKeys.COMPRESSION_TYPE);
    }

    public long fileDeleteDelayMs() {
        return (Long) values.get(TopicConfigKeys.FILE_DELETE_DELAY_MS);
    }

    /** Long.MAX_VALUE leaves flushing to the OS. */
    public long flushMessages() {
        return (Long) values.get(TopicConfigKeys.FLUSH_MESSAGES);
    }

    /** Long.MAX_VALUE means never by time. */
    public long flushMs() {
        return (Long) values.get(TopicConfigKeys.FLUSH_MS);
    }

    public int indexIntervalBytes() {
        return (Integer) values.get(TopicConfigKeys.INDEX_INTERVAL_BYTES);
    }

    public int maxMessageBytes() {
        return (Integer) values.get(TopicConfigKeys.MAX_MESSAGE_BYTES);
    }

    /** "CreateTime" or "LogAppendTime". */
    public String messageTimestampType() {
        return (String) values.get(TopicConfigKeys.MESSAGE_TIMESTAMP_TYPE);
    }

    public boolean logAppendTime() {
        return "LogAppendTime".equals(messageTimestampType());
    }

    public long messageTimestampBeforeMaxMs() {
        return (Long) values.get(TopicConfigKeys.MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
    }

    public long messageTimestampAfterMaxMs() {
        return (Long) values.get(TopicConfigKeys.MESSAGE_TIMESTAMP_AFTER_MAX_MS);
    }

    public int minInsyncReplicas() {
        return (Integer) values.get(TopicConfigKeys.MIN_INSYNC_REPLICAS);
    }

    /** Negative means no size limit. */
    public long retentionBytes() {
        return (Long) values.get(TopicConfigKeys.RETENTION_BYTES);
    }

    /** Negative means keep forever. */
    public long retentionMs() {
        return (Long) values.get(TopicConfigKeys.RETENTION_MS);
    }

    public int segmentBytes() {
        return (Integer) values.get(TopicConfigKeys.SEGMENT_BYTES);
    }

    public int segmentIndexBytes() {
        return (Integer) values.get(TopicConfigKeys.SEGMENT_INDEX_BYTES);
    }

    public long segmentMs() {
        return (Long) values.get(TopicConfigKeys.SEGMENT_MS);
    }

    /** The effective value of any topic key as text, or null when the key is not a topic key. */
    public String valueText(String key) {
        return ConfigType.format(values.get(key));
    }
}
