package io.sluice.broker.cluster;

import java.util.List;

/**
 * The brokers of the cluster as this broker currently knows them. A single broker knows only
 * itself; the ZooKeeper-coordinated cluster supplies a live view.
 *
 * <p>Implementations are thread-safe.
 */
public interface ClusterView {
    String clusterId();

    BrokerNode self();

    int controllerId();

    /** The live brokers at their inter-broker endpoint (each broker's first). */
    List<BrokerNode> liveBrokers();

    /**
     * The live brokers at their endpoint of listener {@code listenerName}, as Kafka answers a request that arrived on
     * that listener: a broker without it is left out; null means each broker's inter-broker endpoint.
     */
    List<BrokerNode> liveBrokers(String listenerName);

    /** The live broker with this id at its endpoint of {@code listenerName}, null when it is not live there. */
    default BrokerNode liveBroker(int id, String listenerName) {
        for (BrokerNode b : liveBrokers(listenerName)) {
            if (b.id() == id) {
                return b;
            }
        }
        return null;
    }

    /** The live broker with this id, null when it is not live. */
    default BrokerNode liveBroker(int id) {
        for (BrokerNode b : liveBrokers()) {
            if (b.id() == id) {
                return b;
            }
        }
        return null;
    }
}
