package io.sluice.broker.metrics;

import io.sluice.broker.network.RequestObserver;
import io.sluice.broker.topic.Partition;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.record.validate.ValidationObserver;
import java.util.List;
import java.util.function.Supplier;
import javax.management.MBeanServer;

/**
 * The metrics of one broker, wired in one place: the registry ({@link #registry()}, also what later metric groups
 * register into), the topic meters the produce path marks, the request observer the network layer reports to, and
 * the state gauges once the broker's partitions and cluster node exist, and Sluice's own metrics ({@link SluiceMetrics}).
 * With metrics disabled ({@code sluice.metrics.enable=false}) the hot-path observers (requests, topics, produce
 * validation) do nothing; their MBeans still exist and stay at zero.
 *
 * <p>Thread-safe; {@link #close()} removes this broker's MBeans.
 */
public final class BrokerMetrics implements AutoCloseable {
    private final KafkaMetrics registry;
    private final BrokerTopicMetrics topics;
    private final RequestMetricsObserver requests;
    private final SluiceMetrics sluice;
    private final SocketServerMetrics socketServer;
    private final boolean enabled;

    /** @param beanServer where the MBeans go (the platform MBean server in a broker); null for none */
    public BrokerMetrics(MBeanServer beanServer) {
        this(beanServer, true);
    }

    /**
     * @param beanServer where the MBeans go (the platform MBean server in a broker); null for none
     * @param enabled    false: the request, topic and validation observers do nothing ({@code sluice.metrics.enable})
     */
    public BrokerMetrics(MBeanServer beanServer, boolean enabled) {
        this.enabled = enabled;
        this.registry = new KafkaMetrics(beanServer);
        this.topics = new BrokerTopicMetrics(registry, enabled);
        this.requests = new RequestMetricsObserver(new RequestMetrics(registry), topics);
        this.sluice = new SluiceMetrics(registry);
        this.socketServer = new SocketServerMetrics(beanServer != null);
    }

    public KafkaMetrics registry() {
        return registry;
    }

    public BrokerTopicMetrics topics() {
        return topics;
    }

    public RequestMetricsObserver requests() {
        return requests;
    }

    /** What the network layer reports answered requests to: the request metrics, or nothing when disabled. */
    public RequestObserver requestObserver() {
        return enabled ? requests : RequestObserver.NONE;
    }

    /** What the produce path reports validated batches to: Sluice's validation metrics, or nothing when disabled. */
    public ValidationObserver validationObserver() {
        return enabled ? sluice : ValidationObserver.NONE;
    }

    /** Kafka's socket-server-metrics (connections per listener and network processor). */
    public SocketServerMetrics socketServer() {
        return socketServer;
    }

    /** Sluice's own metrics (validation, cluster-state publication, ZooKeeper session). */
    public SluiceMetrics sluice() {
        return sluice;
    }

    /** Registers the ReplicaManager, KafkaController, ReplicaFetcherManager and Log gauges of this broker. */
    public BrokerGauges startGauges(Supplier<List<Partition>> hostedPartitions, Supplier<ClusterNode> clusterNode) {
        BrokerGauges gauges = new BrokerGauges(registry, hostedPartitions, clusterNode);
        gauges.syncLogGauges();
        return gauges;
    }

    @Override
    public void close() {
        socketServer.close();
        registry.close();
    }
}
