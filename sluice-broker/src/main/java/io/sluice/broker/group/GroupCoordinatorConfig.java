package io.sluice.broker.group;

import java.util.Map;

/**
 * Tunables of the group coordinator, under Kafka's broker config names. Immutable; thread-safe.
 *
 * @param initialRebalanceDelayMs   group.initial.rebalance.delay.ms (3000): lets the first members of an empty
 *                                  group arrive before the first generation, avoiding a rebalance per joiner
 * @param minSessionTimeoutMs       group.min.session.timeout.ms (6000): keeps heartbeat load bounded
 * @param maxSessionTimeoutMs       group.max.session.timeout.ms (1800000): bounds how long a dead member holds
 *                                  its partitions
 * @param maxSize                   group.max.size (Integer.MAX_VALUE): cap on members per group
 * @param offsetsRetentionMinutes   offsets.retention.minutes (10080): how long an empty group keeps its offsets
 * @param offsetsRetentionCheckIntervalMs offsets.retention.check.interval.ms (600000): expiry sweep period
 * @param offsetMetadataMaxBytes    offset.metadata.max.bytes (4096): cap on a committed offset's metadata string
 * @param offsetsTopicNumPartitions offsets.topic.num.partitions (50): partitions of the group store; fixed for
 *                                  the life of a data directory
 * @param memberMetadataMaxBytes    group.member.metadata.max.bytes (1048576, Sluice only): cap on one member's
 *                                  protocol metadata and on one assignment, so one client cannot bloat the
 *                                  stored group record; Kafka's implicit cap is the offsets topic's 1 MiB
 *                                  message size
 * @param offsetsCommitTimeoutMs    offsets.commit.timeout.ms (5000): how long a write to the committed-offsets
 *                                  topic waits for every in-sync replica (acks=all) before it fails as timed out
 */
public record GroupCoordinatorConfig(
        int initialRebalanceDelayMs,
        int minSessionTimeoutMs,
        int maxSessionTimeoutMs,
        int maxSize,
        int offsetsRetentionMinutes,
        long offsetsRetentionCheckIntervalMs,
        int offsetMetadataMaxBytes,
        int offsetsTopicNumPartitions,
        int memberMetadataMaxBytes,
        int offsetsCommitTimeoutMs) {

    public static final String INITIAL_REBALANCE_DELAY_MS = "group.initial.rebalance.delay.ms";
    public static final String MIN_SESSION_TIMEOUT_MS = "group.min.session.timeout.ms";
    public static final String MAX_SESSION_TIMEOUT_MS = "group.max.session.timeout.ms";
    public static final String MAX_SIZE = "group.max.size";
    public static final String OFFSETS_RETENTION_MINUTES = "offsets.retention.minutes";
    public static final String OFFSETS_RETENTION_CHECK_INTERVAL_MS = "offsets.retention.check.interval.ms";
    public static final String OFFSET_METADATA_MAX_BYTES = "offset.metadata.max.bytes";
    public static final String OFFSETS_TOPIC_NUM_PARTITIONS = "offsets.topic.num.partitions";
    public static final String MEMBER_METADATA_MAX_BYTES = "group.member.metadata.max.bytes";
    public static final String OFFSETS_COMMIT_TIMEOUT_MS = "offsets.commit.timeout.ms";

    public GroupCoordinatorConfig {
        requireAtLeast(INITIAL_REBALANCE_DELAY_MS, initialRebalanceDelayMs, 0);
        requireAtLeast(MIN_SESSION_TIMEOUT_MS, minSessionTimeoutMs, 0);
        requireAtLeast(MAX_SESSION_TIMEOUT_MS, maxSessionTimeoutMs, minSessionTimeoutMs);
        requireAtLeast(MAX_SIZE, maxSize, 1);
        requireAtLeast(OFFSETS_RETENTION_MINUTES, offsetsRetentionMinutes, 1);
        requireAtLeast(OFFSETS_RETENTION_CHECK_INTERVAL_MS, offsetsRetentionCheckIntervalMs, 1);
        requireAtLeast(OFFSET_METADATA_MAX_BYTES, offsetMetadataMaxBytes, 0);
        requireAtLeast(OFFSETS_TOPIC_NUM_PARTITIONS, offsetsTopicNumPartitions, 1);
        requireAtLeast(MEMBER_METADATA_MAX_BYTES, memberMetadataMaxBytes, 0);
        requireAtLeast(OFFSETS_COMMIT_TIMEOUT_MS, offsetsCommitTimeoutMs, 1);
    }

    /** Kafka's defaults. */
    public static GroupCoordinatorConfig defaults() {
        return new GroupCoordinatorConfig(
                3000, 6000, 1_800_000, Integer.MAX_VALUE, 10080, 600_000L, 4096, 50, 1024 * 1024, 5000);
    }

    /** Reads the keys above from {@code values}, using the default for every key not present. */
    public static GroupCoordinatorConfig fromMap(Map<String, String> values) {
        GroupCoordinatorConfig d = defaults();
        return new GroupCoordinatorConfig(
                intOf(values, INITIAL_REBALANCE_DELAY_MS, d.initialRebalanceDelayMs),
                intOf(values, MIN_SESSION_TIMEOUT_MS, d.minSessionTimeoutMs),
                intOf(values, MAX_SESSION_TIMEOUT_MS, d.maxSessionTimeoutMs),
                intOf(values, MAX_SIZE, d.maxSize),
                intOf(values, OFFSETS_RETENTION_MINUTES, d.offsetsRetentionMinutes),
                longOf(values, OFFSETS_RETENTION_CHECK_INTERVAL_MS, d.offsetsRetentionCheckIntervalMs),
                intOf(values, OFFSET_METADATA_MAX_BYTES, d.offsetMetadataMaxBytes),
                intOf(values, OFFSETS_TOPIC_NUM_PARTITIONS, d.offsetsTopicNumPartitions),
                intOf(values, MEMBER_METADATA_MAX_BYTES, d.memberMetadataMaxBytes),
                intOf(values, OFFSETS_COMMIT_TIMEOUT_MS, d.offsetsCommitTimeoutMs));
    }

    /** Offset retention in milliseconds. */
    public long offsetsRetentionMs() {
        return offsetsRetentionMinutes * 60_000L;
    }

    private static int intOf(Map<String, String> values, String key, int fallback) {
        String value = values.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an int, was '" + value + "'");
        }
    }

    private static long longOf(Map<String, String> values, String key, long fallback) {
        String value = values.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a long, was '" + value + "'");
        }
    }

    private static void requireAtLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be at least " + min + ", was " + value);
        }
    }
}
