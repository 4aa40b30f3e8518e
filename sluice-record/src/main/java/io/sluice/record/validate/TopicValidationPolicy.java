package io.sluice.record.validate;

/**
 * What a topic's configuration demands of produced batches: Kafka's {@code max.message.bytes},
 * {@code message.timestamp.type}, {@code message.timestamp.before.max.ms} /
 * {@code after.max.ms}, {@code cleanup.policy=compact} and {@code compression.type}.
 *
 * <p>Immutable; thread-safe.
 *
 * @param maxMessageBytes       largest batch accepted, in bytes (Kafka default 1048588)
 * @param logAppendTime         true when the broker stamps LogAppendTime, false for CreateTime
 * @param timestampBeforeMaxMs  how far a CreateTime timestamp may lie before now
 * @param timestampAfterMaxMs   how far a CreateTime timestamp may lie after now
 * @param compacted             true for compacted topics: every record needs a key
 * @param targetCompressionId   {@link #PRODUCER_COMPRESSION} to keep the producer's codec, or a
 *                              codec id (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd) to store
 */
public record TopicValidationPolicy(
        int maxMessageBytes,
        boolean logAppendTime,
        long timestampBeforeMaxMs,
        long timestampAfterMaxMs,
        boolean compacted,
        int targetCompressionId) {

    /** {@code compression.type=producer}: store the producer's codec unchanged. */
    public static final int PRODUCER_COMPRESSION = -1;
    /** Kafka's default {@code max.message.bytes} (1 MiB + batch overhead). */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

    public TopicValidationPolicy {
        if (maxMessageBytes <= 0) {
            throw new IllegalArgumentException("maxMessageBytes must be positive, was " + maxMessageBytes);
        }
        if (timestampBeforeMaxMs < 0 || timestampAfterMaxMs < 0) {
            throw new IllegalArgumentException("timestamp bounds must be >= 0, were before=" + timestampBeforeMaxMs
                    + " after=" + timestampAfterMaxMs);
        }
        if (targetCompressionId < PRODUCER_COMPRESSION || targetCompressionId > 4) {
            throw new IllegalArgumentException(
                    "targetCompressionId must be -1 (producer) or 0..4, was " + targetCompressionId);
        }
    }

    /** Kafka's topic defaults: 1 MiB batches, CreateTime without bounds, delete policy, producer codec. */
    public static TopicValidationPolicy defaults() {
        return new TopicValidationPolicy(
                DEFAULT_MAX_MESSAGE_BYTES, false, Long.MAX_VALUE, Long.MAX_VALUE, false, PRODUCER_COMPRESSION);
    }

    public TopicValidationPolicy withMaxMessageBytes(int bytes) {
        return new TopicValidationPolicy(
                bytes, logAppendTime, timestampBeforeMaxMs, timestampAfterMaxMs, compacted, targetCompressionId);
    }

    public TopicValidationPolicy withLogAppendTime(boolean stamp) {
        return new TopicValidationPolicy(
                maxMessageBytes, stamp, timestampBeforeMaxMs, timestampAfterMaxMs, compacted, targetCompressionId);
    }

    public TopicValidationPolicy withTimestampBounds(long beforeMaxMs, long afterMaxMs) {
        return new TopicValidationPolicy(
                maxMessageBytes, logAppendTime, beforeMaxMs, afterMaxMs, compacted, targetCompressionId);
    }

    public TopicValidationPolicy withCompacted(boolean keyRequired) {
        return new TopicValidationPolicy(
                maxMessageBytes,
                logAppendTime,
                timestampBeforeMaxMs,
                timestampAfterMaxMs,
                keyRequired,
                targetCompressionId);
    }

    public TopicValidationPolicy withTargetCompressionId(int codecId) {
        return new TopicValidationPolicy(
                maxMessageBytes, logAppendTime, timestampBeforeMaxMs, timestampAfterMaxMs, compacted, codecId);
    }

    /** True when batches keep the codec the producer chose. */
    public boolean keepsProducerCompression() {
        return targetCompressionId == PRODUCER_COMPRESSION;
    }
}
