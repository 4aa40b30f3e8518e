package io.sluice.broker.cluster;

import java.util.List;

/**
 * The cluster of one broker: it is every partition's leader and its own controller.
 *
 * <p>Immutable.
 */
public record SingleBrokerClusterView(String clusterId, BrokerNode self) implements ClusterView {
    @Override
    public int controllerId() {
        return self.id();
    }

    @Override
    public List<BrokerNode> liveBrokers() {
        return List.of(self);
    }
}
