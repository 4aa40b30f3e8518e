package io.sluice.broker.config;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's configuration as it changes while it runs: server.properties under the dynamic broker configuration
 * the controller keeps in the cluster state (this broker's, and the cluster default). {@link #update} takes each new
 * dynamic set; a set that does not resolve (a value an older or newer broker accepted) is logged and the previous
 * configuration stays.
 *
 * <p>Thread-safe: reads see the newest applied layers; updates come one at a time from the cluster-state thread.
 */
public final class DynamicBrokerConfig {
    private static final Logger LOG = LoggerFactory.getLogger(DynamicBrokerConfig.class);

    private volatile LiveBrokerConfig live;

    public DynamicBrokerConfig(BrokerConfig staticConfig) {
        this.live = LiveBrokerConfig.ofStatic(staticConfig);
    }

    /** What the broker runs with now. */
    public BrokerConfig current() {
        return live.effective();
    }

    /** The layers, for DescribeConfigs. */
    public LiveBrokerConfig live() {
        return live;
    }

    /** The broker's id (never dynamic). */
    public int brokerId() {
        return live.staticConfig().brokerId();
    }

    /**
     * Takes new dynamic values; true when they differ from the ones applied (the effective configuration changed).
     */
    public boolean update(Map<String, String> clusterDefault, Map<String, String> perBroker) {
        LiveBrokerConfig before = live;
        if (before.clusterDefault().equals(clusterDefault) && before.perBroker().equals(perBroker)) {
            return false;
        }
        try {
            live = before.with(clusterDefault, perBroker);
            LOG.info("Dynamic broker configuration of broker {} now: cluster default {}, this broker {}",
                    brokerId(), clusterDefault, perBroker);
            return true;
        } catch (ConfigException e) {
            LOG.error("Broker {} cannot apply the dynamic configuration (cluster default {}, this broker {}); keeping "
                    + "the previous one: {}", brokerId(), clusterDefault, perBroker, e.getMessage());
            return false;
        }
    }
}
