package io.sluice.broker.metrics;

import com.codahale.metrics.Meter;
import io.sluice.broker.replica.IsrChangeListener;
import io.sluice.broker.topic.Partition;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The state metrics Kafka reads from its replica manager, controller and logs, computed when read (off the hot path)
 * from the hosted partitions and the cluster state: {@code kafka.server:type=ReplicaManager} (PartitionCount,
 * LeaderCount, UnderReplicatedPartitions, UnderMinIsrPartitionCount, AtMinIsrPartitionCount and the IsrShrinksPerSec,
 * IsrExpandsPerSec and FailedIsrUpdatesPerSec meters), {@code kafka.controller:type=KafkaController} (ActiveControllerCount, and on the
 * active controller OfflinePartitionsCount, GlobalPartitionCount, GlobalTopicCount; 0 elsewhere, as in Kafka),
 * {@code kafka.server:type=ReplicaFetcherManager,name=MaxLag,clientId=Replica}, and per hosted partition
 * {@code kafka.log:type=Log} (Size, LogStartOffset, LogEndOffset, NumLogSegments), which {@link #syncLogGauges()}
 * adds and removes as partitions come and go.
 *
 * <p>Thread-safe; {@link #syncLogGauges()} is synchronized (one scheduler calls it).
 */
public final class BrokerGauges implements IsrChangeListener {
    public static final String REPLICA_MANAGER_DOMAIN = "kafka.server";
    public static final String REPLICA_MANAGER_TYPE = "ReplicaManager";
    private static final String[] LOG_GAUGES = {"Size", "LogStartOffset", "LogEndOffset", "NumLogSegments"};

    private final KafkaMetrics metrics;
    private final Supplier<List<Partition>> hostedPartitions;
    private final Supplier<ClusterNode> clusterNode;
    private final Meter isrShrinks;
    private final Meter isrExpands;
    private final Meter failedIsrUpdates;
    private final Set<MetricName> logGauges = new HashSet<>();

    /**
     * @param hostedPartitions the partitions this broker holds a replica of
     * @param clusterNode      this broker's cluster node; null before it joined
     */
    public BrokerGauges(
            KafkaMetrics metrics, Supplier<List<Partition>> hostedPartitions, Supplier<ClusterNode> clusterNode) {
        this.metrics = metrics;
        this.hostedPartitions = hostedPartitions;
        this.clusterNode = clusterNode;
        metrics.gauge(
                replicaManager("PartitionCount"), () -> hostedPartitions.get().size());
        metrics.gauge(replicaManager("LeaderCount"), () -> countLed(p -> 1));
        metrics.gauge(
                replicaManager("UnderReplicatedPartitions"),
                () -> countLed(p -> isr(p) < p.assignment().originalReplicas().length ? 1 : 0));
        metrics.gauge(
                replicaManager("UnderMinIsrPartitionCount"),
                () -> countLed(p -> isr(p) < p.config().minInsyncReplicas() ? 1 : 0));
        metrics.gauge(
                replicaManager("AtMinIsrPartitionCount"),
                () -> countLed(p -> isr(p) == p.config().minInsyncReplicas() ? 1 : 0));
        this.isrShrinks = metrics.meter(replicaManager("IsrShrinksPerSec"), "shrinks");
        this.isrExpands = metrics.meter(replicaManager("IsrExpandsPerSec"), "expands");
        this.failedIsrUpdates = metrics.meter(replicaManager("FailedIsrUpdatesPerSec"), "failedUpdates");
        metrics.gauge(controller("ActiveControllerCount"), () -> activeController() == null ? 0 : 1);
        metrics.gauge(controller("OfflinePartitionsCount"), () -> countControlled(PartitionState::isOffline));
        metrics.gauge(controller("GlobalPartitionCount"), () -> countControlled(p -> true));
        metrics.gauge(controller("GlobalTopicCount"), () -> {
            ClusterNode node = activeController();
            return node == null ? 0 : node.current().topicsById().size();
        });
        metrics.gauge(
                MetricName.of("kafka.server", "ReplicaFetcherManager", "MaxLag", "clientId", "Replica"),
                this::maxFollowerLag);
    }

    public static MetricName replicaManager(String name) {
        return MetricName.of(REPLICA_MANAGER_DOMAIN, REPLICA_MANAGER_TYPE, name);
    }

    public static MetricName controller(String name) {
        return MetricName.of("kafka.controller", "KafkaController", name);
    }

    public static MetricName log(String name, String topic, int partition) {
        return MetricName.of("kafka.log", "Log", name, "topic", topic, "partition", Integer.toString(partition));
    }

    @Override
    public void onIsrChanged(int before, int after) {
        if (after < before) {
            isrShrinks.mark();
        } else if (after > before) {
            isrExpands.mark();
        }
    }

    @Override
    public void onIsrChangeFailed() {
        failedIsrUpdates.mark();
    }

    /** Adds the Log gauges of newly hosted partitions and removes those of partitions no longer hosted. */
    public synchronized void syncLogGauges() {
        Set<MetricName> current = new HashSet<>();
        for (Partition partition : hostedPartitions.get()) {
            String topic = partition.topic().name();
            int index = partition.index();
            current.add(log(LOG_GAUGES[0], topic, index));
            if (logGauges.contains(log(LOG_GAUGES[0], topic, index))) {
                continue;
            }
            metrics.gauge(log("Size", topic, index), () -> partition.log().sizeInBytes());
            metrics.gauge(
                    log("LogStartOffset", topic, index), () -> partition.log().logStartOffset());
            metrics.gauge(
                    log("LogEndOffset", topic, index), () -> partition.log().logEndOffset());
            metrics.gauge(
                    log("NumLogSegments", topic, index), () -> partition.log().segmentCount());
            logGauges.add(log(LOG_GAUGES[0], topic, index));
        }
        for (MetricName sizeGauge : Set.copyOf(logGauges)) {
            if (!current.contains(sizeGauge)) {
                String topic = sizeGauge.tag("topic");
                int index = Integer.parseInt(sizeGauge.tag("partition"));
                for (String name : LOG_GAUGES) {
                    metrics.remove(log(name, topic, index));
                }
                logGauges.remove(sizeGauge);
            }
        }
    }

    private long maxFollowerLag() {
        long max = 0;
        for (Partition partition : hostedPartitions.get()) {
            max = Math.max(max, partition.followerLag());
        }
        return max;
    }

    private int countLed(ToLongFunction<Partition> counted) {
        int count = 0;
        for (Partition partition : hostedPartitions.get()) {
            if (partition.isLeader()) {
                count += (int) counted.applyAsLong(partition);
            }
        }
        return count;
    }

    private static int isr(Partition partition) {
        var leader = partition.leaderState();
        return leader == null ? partition.assignment().isr().length : leader.isr().length;
    }

    private ClusterNode activeController() {
        ClusterNode node = clusterNode.get();
        return node != null && node.isController() ? node : null;
    }

    private int countControlled(Predicate<PartitionState> counted) {
        ClusterNode node = activeController();
        if (node == null) {
            return 0;
        }
        ClusterState state = node.current();
        int count = 0;
        for (TopicState topic : state.topicsById().values()) {
            for (int i = 0; i < topic.partitionCount(); i++) {
                if (counted.test(topic.partition(i))) {
                    count++;
                }
            }
        }
        return count;
    }
}
