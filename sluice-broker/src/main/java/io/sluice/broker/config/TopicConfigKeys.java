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
import static io.sluice.broker.config.ConfigValidator.nonEmptyListOf;
import static io.sluice.broker.config.ConfigValidator.oneOf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every topic-level key (Kafka's names) with its broker synonyms. Immutable; thread-safe.
 */
public final class TopicConfigKeys {
    public static final String CLEANUP_POLICY = "cleanup.policy";
    public static final String DELETE_RETENTION_MS = "delete.retention.ms";
    public static final String MIN_CLEANABLE_DIRTY_RATIO = "min.cleanable.dirty.ratio";
    public static final String MIN_COMPACTION_LAG_MS = "min.compaction.lag.ms";
    public static final String MAX_COMPACTION_LAG_MS = "max.compaction.lag.ms";
    public static final String COMPRESSION_TYPE = "compression.type";
    public static final String FILE_DELETE_DELAY_MS = "file.delete.delay.ms";
    public static final String FLUSH_MESSAGES = "flush.messages";
    public static final String FLUSH_MS = "flush.ms";
    public static final String INDEX_INTERVAL_BYTES = "index.interval.bytes";
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    public static final String MESSAGE_TIMESTAMP_TYPE = "message.timestamp.type";
    public static final String MESSAGE_TIMESTAMP_BEFORE_MAX_MS = "message.timestamp.before.max.ms";
    public static final String MESSAGE_TIMESTAMP_AFTER_MAX_MS = "message.timestamp.after.max.ms";
    public static final String MIN_INSYNC_REPLICAS = "min.insync.replicas";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";
    public static final String RETENTION_BYTES = "retention.bytes";
    public static final String RETENTION_MS = "retention.ms";
    public static final String SEGMENT_BYTES = "segment.bytes";
    public static final String SEGMENT_INDEX_BYTES = "segment.index.bytes";
    public static final String SEGMENT_MS = "segment.ms";
    public static final String LEADER_REPLICATION_THROTTLED_REPLICAS = "leader.replication.throttled.replicas";
    public static final String FOLLOWER_REPLICATION_THROTTLED_REPLICAS = "follower.replication.throttled.replicas";

    private static final Map<String, TopicConfigKey> KEYS = new LinkedHashMap<>();

    static {
        synonym(
                CLEANUP_POLICY,
                LIST,
                "What happens to old segments: delete (by retention) and/or compact.",
                nonEmptyListOf(CLEANUP_POLICIES),
                broker -> broker.log().cleanupPolicy(),
                LOG_CLEANUP_POLICY);
        synonym(
                COMPRESSION_TYPE,
                STRING,
                "Stored compression: producer keeps the producer's codec, others recompress.",
                oneOf(BROKER_COMPRESSION_TYPES),
                broker -> broker.log().compressionType(),
                BrokerConfigKeys.COMPRESSION_TYPE);
        synonym(
                FILE_DELETE_DELAY_MS,
                LONG,
                "Delay between removing a segment from the log and deleting its files.",
                atLeast(0),
                broker -> broker.log().fileDeleteDelayMs(),
                LOG_SEGMENT_DELETE_DELAY_MS);
        synonym(
                FLUSH_MESSAGES,
                LONG,
                "fsync after this many records; Long.MAX_VALUE leaves flushing to the OS.",
                atLeast(1),
                broker -> broker.log().flushIntervalMessages(),
                LOG_FLUSH_INTERVAL_MESSAGES);
        synonym(
                FLUSH_MS,
                LONG,
                "fsync when the oldest unflushed record is this old; Long.MAX_VALUE means never by time.",
                atLeast(0),
                broker -> broker.log().flushIntervalMs(),
                LOG_FLUSH_INTERVAL_MS,
                LOG_FLUSH_SCHEDULER_INTERVAL_MS);
        synonym(
                INDEX_INTERVAL_BYTES,
                INT,
                "Bytes of records between two offset index entries.",
                atLeast(0),
                broker -> broker.log().indexIntervalBytes(),
                LOG_INDEX_INTERVAL_BYTES);
        synonym(
                MAX_MESSAGE_BYTES,
                INT,
                "Largest record batch a producer may send to this topic, after compression.",
                atLeast(0),
                BrokerConfig::messageMaxBytes,
                MESSAGE_MAX_BYTES);
        synonym(
                MESSAGE_TIMESTAMP_TYPE,
                STRING,
                "CreateTime keeps producer timestamps; LogAppendTime stamps the broker's clock.",
                oneOf(TIMESTAMP_TYPES),
                broker -> broker.log().messageTimestampType(),
                LOG_MESSAGE_TIMESTAMP_TYPE);
        synonym(
                MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
                LONG,
                "Refuse CreateTime timestamps further than this in the past.",
                atLeast(0),
                broker -> broker.log().messageTimestampBeforeMaxMs(),
                LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS);
        synonym(
                MESSAGE_TIMESTAMP_AFTER_MAX_MS,
                LONG,
                "Refuse CreateTime timestamps further than this in the future.",
                atLeast(0),
                broker -> broker.log().messageTimestampAfterMaxMs(),
                LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS);
        synonym(
                MIN_INSYNC_REPLICAS,
                INT,
                "In-sync replicas an acks=-1 produce needs before it is acknowledged.",
                atLeast(1),
                BrokerConfig::minInsyncReplicas,
                BrokerConfigKeys.MIN_INSYNC_REPLICAS);
        synonym(
                RETENTION_BYTES,
                LONG,
                "Delete oldest segments while a partition is larger than this; -1 means no limit.",
                atLeast(-1),
                broker -> broker.log().retentionBytes(),
                LOG_RETENTION_BYTES);
        synonym(
                RETENTION_MS,
                LONG,
                "Delete segments older than this; -1 keeps forever.",
                atLeast(-1),
                broker -> broker.log().retentionMs(),
                LOG_RETENTION_MS,
                LOG_RETENTION_MINUTES,
                LOG_RETENTION_HOURS);
        synonym(
                SEGMENT_BYTES,
                INT,
                "A segment rolls when appending would make it larger than this.",
                atLeast(MIN_SEGMENT_BYTES),
                broker -> broker.log().segmentBytes(),
                LOG_SEGMENT_BYTES);
        synonym(
                SEGMENT_INDEX_BYTES,
                INT,
                "Largest offset or time index file; a full index rolls the segment.",
                atLeast(MIN_INDEX_BYTES),
                broker -> broker.log().indexSizeMaxBytes(),
                LOG_INDEX_SIZE_MAX_BYTES);
        synonym(
                SEGMENT_MS,
                LONG,
                "A segment rolls when its first record is this old.",
                atLeast(1),
                broker -> broker.log().rollMs(),
                LOG_ROLL_MS,
                LOG_ROLL_HOURS);
        synonym(
                UNCLEAN_LEADER_ELECTION_ENABLE,
                BOOLEAN,
                "Elect an out-of-sync replica when no ISR member is alive (acknowledged records may be lost).",
                ANY,
                BrokerConfig::uncleanLeaderElectionEnable,
                BrokerConfigKeys.UNCLEAN_LEADER_ELECTION_ENABLE);
        throttledReplicas(
                LEADER_REPLICATION_THROTTLED_REPLICAS,
                "Replicas (partition:broker, or *) whose leader throttles what it sends to followers out of sync (KIP-73).");
        throttledReplicas(
                FOLLOWER_REPLICATION_THROTTLED_REPLICAS,
                "Replicas (partition:broker, or *) that throttle their fetching as followers (KIP-73).");

        synonym(
                DELETE_RETENTION_MS,
                LONG,
                "How long a tombstone stays readable after the cleaner first keeps it (compacted topics).",
                atLeast(0),
                broker -> broker.log().cleanerDeleteRetentionMs(),
                LOG_CLEANER_DELETE_RETENTION_MS);
        synonym(
                MIN_CLEANABLE_DIRTY_RATIO,
                DOUBLE,
                "The cleaner compacts the log once this share of its cleanable bytes is dirty.",
                ConfigValidator.inRange(0, 1),
                broker -> broker.log().cleanerMinCleanableRatio(),
                LOG_CLEANER_MIN_CLEANABLE_RATIO);
        synonym(
                MIN_COMPACTION_LAG_MS,
                LONG,
                "A record stays uncompacted at least this long after it is written.",
                atLeast(0),
                broker -> broker.log().cleanerMinCompactionLagMs(),
                LOG_CLEANER_MIN_COMPACTION_LAG_MS);
        synonym(
                MAX_COMPACTION_LAG_MS,
                LONG,
                "A record becomes cleanable at most this long after it is written, whatever the dirty ratio.",
                atLeast(1),
                broker -> broker.log().cleanerMaxCompactionLagMs(),
                LOG_CLEANER_MAX_COMPACTION_LAG_MS);
        accepted("segment.jitter.ms", LONG, "0", atLeast(0));
        accepted("preallocate", BOOLEAN, "false", ANY);
        accepted("message.downconversion.enable", BOOLEAN, "true", ANY);
        accepted("remote.storage.enable", BOOLEAN, "false", ANY);
    }

    private TopicConfigKeys() {}

    /** All topic keys, used ones first. */
    public static List<TopicConfigKey> all() {
        return List.copyOf(KEYS.values());
    }

    /** The key named {@code name}, or null. */
    public static TopicConfigKey byName(String name) {
        return KEYS.get(name);
    }

    private static void synonym(
            String name,
            ConfigType type,
            String doc,
            ConfigValidator validator,
            Function<BrokerConfig, Object> brokerDefault,
            String... brokerSynonyms) {
        put(new TopicConfigKey(
                new ConfigKey(name, type, null, doc, validator), List.of(brokerSynonyms), brokerDefault, true));
    }

    private static void throttledReplicas(String name, String doc) {
        ConfigKey key = new ConfigKey(name, LIST, "", doc, TopicConfigKeys::ensureThrottledReplicaList);
        key.parse("");
        put(new TopicConfigKey(key, List.of(), null, true));
    }

    /** Kafka's ThrottledReplicaListValidator: the literal * alone, or partition:broker items. */
    private static void ensureThrottledReplicaList(String name, Object value) {
        List<?> items = (List<?>) value;
        if (items.size() == 1 && "*".equals(items.get(0))) {
            return;
        }
        for (Object item : items) {
            if (!item.toString().matches("[0-9]+:[0-9]+")) {
                throw new ConfigException(
                        name,
                        ConfigType.format(value),
                        "must be the literal '*' or a list of "
                                + "replicas in the following format: [partitionId]:[brokerId],[partitionId]:[brokerId],...");
            }
        }
    }

    private static void accepted(String name, ConfigType type, String defaultValue, ConfigValidator validator) {
        ConfigKey key = new ConfigKey(
                name,
                type,
                defaultValue,
                "Accepted for Kafka compatibility with its default only: Sluice does not act on it, so another value is refused (INVALID_CONFIG).",
                validator);
        key.parse(defaultValue);
        put(new TopicConfigKey(key, List.of(), null, false));
    }

    private static void put(TopicConfigKey key) {
        if (KEYS.put(key.name(), key) != null) {
            throw new IllegalStateException("duplicate topic configuration key " + key.name());
        }
    }
}
