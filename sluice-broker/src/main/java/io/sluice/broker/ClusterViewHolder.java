package io.sluice.broker;

import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.cluster.ClusterView;
import java.util.List;

/**
 * The cluster view handed to handlers before the listener is bound; set once the advertised port
 * is known, before the first request can arrive.
 *
 * <p>Thread-safe (volatile delegate).
 */
final class ClusterViewHolder implements ClusterView {
    private volatile ClusterView delegate;

    void set(ClusterView view) {
        this.delegate = view;
    }

    @Override
    public String clusterId() {
        return delegate.clusterId();
    }

    @Override
    public BrokerNode self() {
        return delegate.self();
    }

    @Override
    public int controllerId() {
        return delegate.controllerId();
    }

    @Override
    public List<BrokerNode> liveBrokers() {
        return delegate.liveBrokers();
    }

    @Override
    public List<BrokerNode> liveBrokers(String listenerName) {
        return delegate.liveBrokers(listenerName);
    }
}
