package io.sluice.broker.group;

/**
 * Tunables of the group coordinator, under Kafka's broker config names. A broker's come from
 * {@code BrokerConfig.groupCoordinatorConfig()}, which parses and checks the keys and holds their defaults; the checks
 * here keep any other construction (tests) to the same bounds. Immutable; thread-safe.
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
 * @param memberMetadataMaxBytes    sluice.group.member.metadata.max.bytes (1048576): cap on one member's
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

    // The keys' names as the bound checks report them; the keys themselves are BrokerConfigKeys'.
    private static final String INITIAL_REBALANCE_DELAY_MS = "group.initial.rebalance.delay.ms";
    private static final String MIN_SESSION_TIMEOUT_MS = "group.min.session.timeout.ms";
    private static final String MAX_SESSION_TIMEOUT_MS = "group.max.session.timeout.ms";
    private static final String MAX_SIZE = "group.max.size";
    private static final String OFFSETS_RETENTION_MINUTES = "offsets.retention.minutes";
    private static final String OFFSETS_RETENTION_CHECK_INTERVAL_MS = "offsets.retention.check.interval.ms";
    private static final String OFFSET_METADATA_MAX_BYTES = "offset.metadata.max.bytes";
    private static final String OFFSETS_TOPIC_NUM_PARTITIONS = "offsets.topic.num.partitions";
    private static final String MEMBER_METADATA_MAX_BYTES = "sluice.group.member.metadata.max.bytes";
    private static final String OFFSETS_COMMIT_TIMEOUT_MS = "offsets.commit.timeout.ms";

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

    /** Kafka's defaults, as the broker keys define them; for coordinators built without a broker configuration. */
    public static GroupCoordinatorConfig defaults() {
        return new GroupCoordinatorConfig(
                3000, 6000, 1_800_000, Integer.MAX_VALUE, 10080, 600_000L, 4096, 50, 1024 * 1024, 5000);
    }

    /** Offset retention in milliseconds. */
    public long offsetsRetentionMs() {
        return offsetsRetentionMinutes * 60_000L;
    }

    private static void requireAtLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be at least " + min + ", was " + value);
        }
    }
}
