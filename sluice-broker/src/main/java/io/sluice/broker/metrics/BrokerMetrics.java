package io.sluice.broker.metrics;

import io.sluice.broker.topic.Partition;
import io.sluice.cluster.node.ClusterNode;
import java.util.List;
import java.util.function.Supplier;
import javax.management.MBeanServer;

/**
 * The metrics of one broker, wired in one place: the registry ({@link #registry()}, also what later metric groups
 * register into), the topic meters the produce path marks, the request observer the network layer reports to, and
 * the state gauges once the broker's partitions and cluster node exist.
 *
 * <p>Thread-safe; {@link #close()} removes this broker's MBeans.
 */
public final class BrokerMetrics implements AutoCloseable {
    private final KafkaMetrics registry;
    private final BrokerTopicMetrics topics;
    private final RequestMetricsObserver requests;

    /** @param beanServer where the MBeans go (the platform MBean server in a broker); null for none */
    public BrokerMetrics(MBeanServer beanServer) {
        this.registry = new KafkaMetrics(beanServer);
        this.topics = new BrokerTopicMetrics(registry);
        this.requests = new RequestMetricsObserver(new RequestMetrics(registry), topics);
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

    /** Registers the ReplicaManager, KafkaController, ReplicaFetcherManager and Log gauges of this broker. */
    public BrokerGauges startGauges(Supplier<List<Partition>> hostedPartitions, Supplier<ClusterNode> clusterNode) {
        BrokerGauges gauges = new BrokerGauges(registry, hostedPartitions, clusterNode);
        gauges.syncLogGauges();
        return gauges;
    }

    @Override
    public void close() {
        registry.close();
    }
}
