package io.sluice.broker.topic;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.log.LogConfig;

/** A topic's effective configuration as the log module's {@link LogConfig}. Stateless; thread-safe. */
public final class TopicLogConfig {
    /** retention.ms and retention.bytes meaning no limit. */
    private static final long UNLIMITED = -1;

    private TopicLogConfig() {}

    /**
     * The log settings of a topic: its effective configuration in the log module's terms. Retention deletes only
     * under cleanup.policy delete, as in Kafka: a compact-only topic (such as __consumer_offsets) keeps every segment,
     * and only the log cleaner shrinks it.
     */
    public static LogConfig of(BrokerConfig config, EffectiveTopicConfig effective) {
        boolean deletes = effective.deleteEnabled();
        return LogConfig.builder()
                .segmentBytes(effective.segmentBytes())
                .segmentMs(effective.segmentMs())
                .retentionMs(deletes ? effective.retentionMs() : UNLIMITED)
                .retentionBytes(deletes ? effective.retentionBytes() : UNLIMITED)
                .indexIntervalBytes(effective.indexIntervalBytes())
                .maxIndexSizeBytes(effective.segmentIndexBytes())
                .flushIntervalMessages(effective.flushMessages())
                .flushIntervalMs(effective.flushMs())
                .fileDeleteDelayMs(effective.fileDeleteDelayMs())
                .producerIdExpirationMs(config.producerIdExpirationMs())
                .compact(effective.compactEnabled())
                .minCleanableDirtyRatio(effective.minCleanableDirtyRatio())
                .minCompactionLagMs(effective.minCompactionLagMs())
                .maxCompactionLagMs(effective.maxCompactionLagMs())
                .deleteRetentionMs(effective.deleteRetentionMs())
                .build();
    }
}
