package io.sluice.broker.config;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
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
    private final List<Consumer<BrokerConfig>> listeners = new CopyOnWriteArrayList<>();

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

    /**
     * Calls {@code listener} with the new effective configuration after each applied change, on the thread that
     * applies it (for settings held outside the configuration, such as the log cleaner's threads). A listener that
     * throws is logged; the change stays applied.
     */
    public void addListener(Consumer<BrokerConfig> listener) {
        listeners.add(listener);
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
            LOG.info(
                    "Dynamic broker configuration of broker {} now: cluster default {}, this broker {}",
                    brokerId(),
                    clusterDefault,
                    perBroker);
            BrokerConfig effective = current();
            for (Consumer<BrokerConfig> listener : listeners) {
                try {
                    listener.accept(effective);
                } catch (RuntimeException e) {
                    LOG.error("Broker {} could not apply part of its new dynamic configuration", brokerId(), e);
                }
            }
            return true;
        } catch (ConfigException e) {
            LOG.error(
                    "Broker {} cannot apply the dynamic configuration (cluster default {}, this broker {}); keeping "
                            + "the previous one: {}",
                    brokerId(),
                    clusterDefault,
                    perBroker,
                    e.getMessage());
            return false;
        }
    }
}
