package io.sluice.broker.topic;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ConfigException;
import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.log.LogConfig;
import io.sluice.log.LogManager;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.TopicPartitionKey;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates, finds and deletes the topics of a single broker and owns their partitions' logs. The
 * topic registry is the source of truth: logs on disk without a registered topic (left by a delete
 * interrupted by a crash) are removed at start, and registered partitions without a log get an
 * empty one.
 *
 * <p>Thread-safe: lookups are lock-free, create and delete are serialized.
 */
public final class TopicManager {
    private static final Logger LOG = LoggerFactory.getLogger(TopicManager.class);
    /** Replication factor accepted by a single broker. */
    private static final int SINGLE_REPLICA = 1;

    private final BrokerConfig config;
    private final TopicRegistry registry;
    private final LogManager logs;
    private final Map<String, Partition[]> partitions = new ConcurrentHashMap<>();
    private final List<Consumer<String>> deletionListeners = new CopyOnWriteArrayList<>();

    public TopicManager(BrokerConfig config, TopicRegistry registry, LogManager logs) {
        this.config = config;
        this.registry = registry;
        this.logs = logs;
    }

    /** Opens every registered topic's partition logs (recovering them) and removes orphaned logs. */
    public synchronized void startup(Map<TopicPartitionKey, PartitionLog> loaded, RecoveryReport report) throws IOException {
        for (Map.Entry<TopicPartitionKey, PartitionLog> entry : loaded.entrySet()) {
            TopicPartitionKey key = entry.getKey();
            TopicInfo topic = registry.byName(key.topic());
            if (topic == null || key.partition() >= topic.partitionCount()) {
                report.add("removed log " + key.dirName() + ": its topic is no longer registered (deleted before a crash)");
                logs.delete(key.topic(), key.partition());
            }
        }
        for (TopicInfo topic : registry.all()) {
            EffectiveTopicConfig effective = TopicConfigs.resolve(config, topic.configOverrides());
            Partition[] parts = new Partition[topic.partitionCount()];
            for (int p = 0; p < parts.length; p++) {
                PartitionLog log = loaded.get(new TopicPartitionKey(topic.name(), p));
                if (log == null) {
                    report.add("created empty log for " + topic.name() + "-" + p + ": registered but missing on disk");
                    log = logs.create(topic.name(), p, logConfig(config, effective));
                }
                parts[p] = new Partition(topic, p, log, effective);
            }
            partitions.put(topic.name(), parts);
        }
    }

    /** Called with the name of each topic after it is deleted (e.g. to forget its committed offsets). */
    public void addDeletionListener(Consumer<String> listener) {
        deletionListeners.add(listener);
    }

    public TopicInfo topic(String name) {
        return registry.byName(name);
    }

    public TopicInfo topic(Uuid id) {
        return registry.byId(id);
    }

    public Collection<TopicInfo> topics() {
        return registry.all();
    }

    /** The partition, or null when the topic or the partition does not exist. */
    public Partition partition(String topic, int index) {
        Partition[] parts = partitions.get(topic);
        if (parts == null || index < 0 || index >= parts.length) {
            return null;
        }
        return parts[index];
    }

    public Partition[] partitions(String topic) {
        return partitions.get(topic);
    }

    /** The topic's effective configuration, also for a topic only validated and never created. */
    public EffectiveTopicConfig effectiveConfigPreview(TopicInfo topic) {
        Partition[] parts = partitions.get(topic.name());
        return parts != null && parts[0].topic().id().equals(topic.id()) ? parts[0].config() : TopicConfigs.resolve(config, topic.configOverrides());
    }

    /**
     * Creates a topic. numPartitions and replicationFactor of -1 mean the broker defaults.
     *
     * @throws TopicException INVALID_TOPIC_EXCEPTION, TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS,
     *                        INVALID_REPLICATION_FACTOR or INVALID_CONFIG, naming the value
     */
    public synchronized TopicInfo create(String name, int numPartitions, int replicationFactor,
                                         Map<String, String> overrides, boolean validateOnly) throws TopicException {
        validateName(name);
        if (registry.byName(name) != null) {
            throw new TopicException(Errors.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists.");
        }
        for (TopicInfo existing : registry.all()) {
            if (Topic.hasCollision(name, existing.name())) {
                throw new TopicException(Errors.INVALID_TOPIC_EXCEPTION,
                    "Topic '" + name + "' collides with existing topic '" + existing.name() + "': '.' and '_' are interchangeable in metric names");
            }
        }
        int partitionCount = numPartitions == -1 ? config.numPartitions() : numPartitions;
        if (partitionCount <= 0) {
            throw new TopicException(Errors.INVALID_PARTITIONS, "Number of partitions must be larger than 0 (or -1 for the default), was " + numPartitions);
        }
        int replicas = replicationFactor == -1 ? config.defaultReplicationFactor() : replicationFactor;
        if (replicas <= 0) {
            throw new TopicException(Errors.INVALID_REPLICATION_FACTOR, "Replication factor must be larger than 0 (or -1 for the default), was " + replicationFactor);
        }
        if (replicas > SINGLE_REPLICA) {
            throw new TopicException(Errors.INVALID_REPLICATION_FACTOR,
                    "Replication factor: " + replicas + " larger than available brokers: " + SINGLE_REPLICA + ".");
        }
        Map<String, String> validOverrides;
        EffectiveTopicConfig effective;
        try {
            validOverrides = TopicConfigs.validate(overrides);
            effective = TopicConfigs.resolve(config, validOverrides);
        } catch (ConfigException e) {
            throw new TopicException(Errors.INVALID_CONFIG, e.getMessage());
        }
        TopicInfo topic = new TopicInfo(name, Uuid.randomUuid(), partitionCount, validOverrides);
        if (validateOnly) {
            return topic;
        }
        LogConfig logConfig = logConfig(config, effective);
        Partition[] parts = new Partition[partitionCount];
        try {
            for (int p = 0; p < partitionCount; p++) {
                parts[p] = new Partition(topic, p, logs.create(name, p, logConfig), effective);
            }
            registry.put(topic);
        } catch (IOException | RuntimeException e) {
            LOG.error("Could not create topic {}", name, e);
            for (int p = 0; p < partitionCount; p++) {
                if (parts[p] != null) {
                    deleteLogQuietly(name, p);
                }
            }
            throw new TopicException(Errors.KAFKA_STORAGE_ERROR, "Could not create the logs of topic '" + name + "': " + e.getMessage());
        }
        partitions.put(name, parts);
        LOG.info("Created topic {} (id {}) with {} partitions and overrides {}", name, topic.id(), partitionCount, validOverrides);
        return topic;
    }

    /** Deletes a topic: unregistered first (durably), then its logs are removed. */
    public synchronized void delete(String name) throws TopicException {
        if (!config.deleteTopicEnable()) {
            throw new TopicException(Errors.TOPIC_DELETION_DISABLED, "Topic deletion is disabled (delete.topic.enable=false).");
        }
        TopicInfo topic = registry.byName(name);
        if (topic == null) {
            throw new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic '" + name + "' does not exist.");
        }
        try {
            registry.remove(name);
        } catch (IOException e) {
            throw new TopicException(Errors.KAFKA_STORAGE_ERROR, "Could not unregister topic '" + name + "': " + e.getMessage());
        }
        Partition[] parts = partitions.remove(name);
        if (parts != null) {
            for (Partition part : parts) {
                deleteLogQuietly(name, part.index());
                part.notifyAppended();
            }
        }
        LOG.info("Deleted topic {} (id {})", name, topic.id());
        for (Consumer<String> listener : deletionListeners) {
            listener.accept(name);
        }
    }

    private void deleteLogQuietly(String topic, int partition) {
        try {
            logs.delete(topic, partition);
        } catch (IOException e) {
            LOG.error("Could not delete the log of {}-{}; it is removed at the next start", topic, partition, e);
        }
    }

    public static void validateName(String name) throws TopicException {
        try {
            Topic.validate(name);
        } catch (InvalidTopicException e) {
            throw new TopicException(Errors.INVALID_TOPIC_EXCEPTION, e.getMessage());
        }
    }

    /** The log settings of a topic: its effective configuration in the log module's terms. */
    public static LogConfig logConfig(BrokerConfig config, EffectiveTopicConfig effective) {
        return LogConfig.builder()
                .segmentBytes(effective.segmentBytes())
                .segmentMs(effective.segmentMs())
                .retentionMs(effective.retentionMs())
                .retentionBytes(effective.retentionBytes())
                .indexIntervalBytes(effective.indexIntervalBytes())
                .maxIndexSizeBytes(effective.segmentIndexBytes())
                .flushIntervalMessages(effective.flushMessages())
                .flushIntervalMs(effective.flushMs())
                .fileDeleteDelayMs(effective.fileDeleteDelayMs())
                .producerIdExpirationMs(config.producerIdExpirationMs())
                .build();
    }
}
