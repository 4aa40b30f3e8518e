package io.sluice.broker.config;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which broker keys change while the broker runs (IncrementalAlterConfigs and AlterConfigs on a broker or the cluster
 * default) and their synonym chains. A key is dynamic when Sluice acts on a new value at once: the broker defaults of
 * the topic keys (log.retention.*, log.segment.bytes, log.roll.*, log.index.*, log.flush.interval.*,
 * log.segment.delete.delay.ms, log.message.timestamp.*, log.cleanup.policy, message.max.bytes, min.insync.replicas,
 * compression.type, unclean.leader.election.enable: every topic re-resolves its configuration and its logs take it)
 * the replication throttle rates (read through {@link ReplicationThrottles}) and the log cleaner's own keys
 * (log.cleaner.threads, .dedupe.buffer.size, .io.buffer.load.factor, .io.buffer.size, .io.max.bytes.per.second,
 * .backoff.ms: the running cleaner is reconfigured, as Kafka's is). Every other broker key is refused
 * with Kafka's "Cannot update these configs dynamically". Immutable; thread-safe.
 */
public final class DynamicBrokerKeys {
    private static final Set<String> DYNAMIC = new LinkedHashSet<>();
    /** For each broker key that is a topic key's synonym: the whole synonym chain in precedence order. */
    private static final Map<String, List<String>> CHAINS = new LinkedHashMap<>();

    static {
        for (TopicConfigKey topicKey : TopicConfigKeys.all()) {
            if (topicKey.used()) {
                DYNAMIC.addAll(topicKey.brokerSynonyms());
                for (String synonym : topicKey.brokerSynonyms()) {
                    CHAINS.put(synonym, topicKey.brokerSynonyms());
                }
            }
        }
        DYNAMIC.add(BrokerConfigKeys.LEADER_REPLICATION_THROTTLED_RATE);
        DYNAMIC.add(BrokerConfigKeys.FOLLOWER_REPLICATION_THROTTLED_RATE);
        DYNAMIC.add(BrokerConfigKeys.REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND);
        // Kafka's LogCleaner.ReconfigurableConfigs, applied by LogCleaner.reconfigure (log.cleaner.enable is static)
        DYNAMIC.add(BrokerConfigKeys.LOG_CLEANER_THREADS);
        DYNAMIC.add(BrokerConfigKeys.LOG_CLEANER_DEDUPE_BUFFER_SIZE);
        DYNAMIC.add(BrokerConfigKeys.LOG_CLEANER_IO_BUFFER_LOAD_FACTOR);
        DYNAMIC.add(BrokerConfigKeys.LOG_CLEANER_IO_BUFFER_SIZE);
        DYNAMIC.add(BrokerConfigKeys.LOG_CLEANER_IO_MAX_BYTES_PER_SECOND);
        DYNAMIC.add(BrokerConfigKeys.LOG_CLEANER_BACKOFF_MS);
    }

    private DynamicBrokerKeys() {}

    /** Whether {@code key} may change while brokers run. */
    public static boolean isDynamic(String key) {
        return DYNAMIC.contains(key);
    }

    /** Every dynamic broker key, in definition order. */
    public static Set<String> all() {
        return java.util.Collections.unmodifiableSet(DYNAMIC);
    }

    /** The synonym chain {@code key} belongs to (log.retention.ms, .minutes, .hours), or just {@code key}. */
    static List<String> chainOf(String key) {
        return CHAINS.getOrDefault(key, List.of(key));
    }
}
