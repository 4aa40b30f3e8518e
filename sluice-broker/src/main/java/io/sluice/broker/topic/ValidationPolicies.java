package io.sluice.broker.topic;

import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.record.validate.TopicValidationPolicy;
import java.util.List;

/**
 * Translates a topic's effective configuration into what the batch validator checks.
 *
 * <p>Stateless.
 */
final class ValidationPolicies {
    private static final List<String> CODECS_BY_ID = List.of("uncompressed", "gzip", "snappy", "lz4", "zstd");
    private static final String PRODUCER = "producer";
    private static final String COMPACT = "compact";

    private ValidationPolicies() {}

    static TopicValidationPolicy of(EffectiveTopicConfig config) {
        String compression = config.compressionType();
        int target = PRODUCER.equals(compression)
                ? TopicValidationPolicy.PRODUCER_COMPRESSION
                : CODECS_BY_ID.indexOf(compression);
        if (target < TopicValidationPolicy.PRODUCER_COMPRESSION) {
            throw new IllegalArgumentException(
                    "compression.type " + compression + " is not one of producer, " + CODECS_BY_ID);
        }
        return new TopicValidationPolicy(
                config.maxMessageBytes(),
                config.logAppendTime(),
                config.messageTimestampBeforeMaxMs(),
                config.messageTimestampAfterMaxMs(),
                config.cleanupPolicy().contains(COMPACT),
                target);
    }
}
