package io.sluice.broker.topic;

import io.sluice.broker.config.DynamicBrokerConfig;
import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.broker.replica.ReplicaManager;
import io.sluice.log.LogManager;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local log housekeeping of {@link TopicManager} as it applies cluster states: opening or creating the log of a
 * partition assigned here, setting aside a log the cluster does not know, and deleting the logs of replicas and topics
 * that are gone. Failures are logged and leave the partition unserved, never thrown.
 *
 * <p>Not thread-safe; used only by the topic manager under its apply lock (startup and each applied state).
 */
final class LocalPartitionLogs {
    /** Logs under the topic manager's name, as these lines did before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(TopicManager.class);

    private final LogManager logs;
    private final DynamicBrokerConfig dynamicConfig;
    private RecoveryReport report;

    LocalPartitionLogs(LogManager logs, DynamicBrokerConfig dynamicConfig) {
        this.logs = logs;
        this.dynamicConfig = dynamicConfig;
    }

    /** Called at startup, before any other method: where set-asides are reported. */
    void start(RecoveryReport recoveryReport) {
        this.report = recoveryReport;
    }

    /** The partition's log, opened or created with {@code effective}; null when it cannot be (logged). */
    PartitionLog openOrCreate(TopicInfo topic, int index, EffectiveTopicConfig effective) {
        try {
            PartitionLog log = logs.get(topic.name(), index);
            if (log != null && !PartitionMetadataFile.belongsTo(log.dir(), topic.id())) {
                setAside(topic.name(), index, "it belongs to an earlier topic of the same name");
                log = null;
            }
            if (log == null) {
                log = logs.create(topic.name(), index, TopicLogConfig.of(dynamicConfig.current(), effective));
            } else {
                // Loaded before the cluster state (and its dynamic configuration) was known.
                log.updateConfig(TopicLogConfig.of(dynamicConfig.current(), effective));
            }
            PartitionMetadataFile.write(log.dir(), topic.id());
            return log;
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot open the log of {}-{}; the partition stays unserved here", topic.name(), index, e);
            return null;
        }
    }

    /** Moves the partition's log aside as a stray (never served or deleted), saying {@code why}. */
    void setAside(String topic, int partition, String why) {
        try {
            java.nio.file.Path moved = logs.setAsideAsStray(topic, partition);
            String line = "set aside log " + topic + "-" + partition + " as " + moved + ": " + why;
            LOG.warn(line);
            if (report != null) {
                report.add(line);
            }
        } catch (IOException e) {
            LOG.error("Cannot set aside the log of {}-{}", topic, partition, e);
        }
    }

    /**
     * Kafka's StopReplica with deletion: a reassignment took this broker out of the partition's replicas;
     * {@code replicas} is told first.
     */
    void removeReplica(ReplicaManager replicas, Partition part, String why) {
        LOG.info("{}: {}; deleting the local replica", part, why);
        delete(replicas, part, why);
    }

    /** Deletes the local log of each partition in {@code parts} but null slots, telling {@code replicas} first. */
    void removeTopic(ReplicaManager replicas, Partition[] parts, String why) {
        for (Partition part : parts) {
            if (part != null) {
                delete(replicas, part, why);
            }
        }
    }

    private void delete(ReplicaManager replicas, Partition part, String why) {
        replicas.onRemoved(part);
        try {
            logs.delete(part.topic().name(), part.index());
        } catch (IOException e) {
            LOG.error("Could not delete the log of {} ({}); it is set aside at the next start", part, why, e);
        }
        part.notifyRoleChanged();
    }
}
