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

    List<BrokerNode> liveBrokers();

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
