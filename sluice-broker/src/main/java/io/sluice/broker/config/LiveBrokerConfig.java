package io.sluice.broker.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The broker's configuration in layers, as Kafka resolves it: dynamic for this broker, over dynamic for the cluster
 * default, over server.properties, over built-in defaults; the merged result is {@link #effective()}. Tells where each
 * value came from for DescribeConfigs. Immutable; thread-safe.
 */
public final class LiveBrokerConfig {
    private final BrokerConfig staticConfig;
    private final Map<String, String> clusterDefault;
    private final Map<String, String> perBroker;
    private final BrokerConfig effective;
    private final BrokerConfig effectiveDefault;

    private LiveBrokerConfig(
            BrokerConfig staticConfig, Map<String, String> clusterDefault, Map<String, String> perBroker) {
        this.staticConfig = staticConfig;
        this.clusterDefault = Map.copyOf(clusterDefault);
        this.perBroker = Map.copyOf(perBroker);
        this.effectiveDefault = staticConfig.withOverrides(clusterDefault);
        Map<String, String> both = new TreeMap<>(clusterDefault);
        both.putAll(perBroker);
        this.effective = staticConfig.withOverrides(both);
    }

    /** Only server.properties and defaults (before any dynamic configuration is known). */
    public static LiveBrokerConfig ofStatic(BrokerConfig staticConfig) {
        return new LiveBrokerConfig(staticConfig, Map.of(), Map.of());
    }

    /**
     * The layers with new dynamic values.
     *
     * @throws ConfigException when a dynamic value does not parse or contradicts the static configuration
     */
    public LiveBrokerConfig with(Map<String, String> newClusterDefault, Map<String, String> newPerBroker) {
        return new LiveBrokerConfig(staticConfig, newClusterDefault, newPerBroker);
    }

    /** What the broker runs with now. */
    public BrokerConfig effective() {
        return effective;
    }

    /** server.properties and defaults only. */
    public BrokerConfig staticConfig() {
        return staticConfig;
    }

    public Map<String, String> clusterDefault() {
        return clusterDefault;
    }

    public Map<String, String> perBroker() {
        return perBroker;
    }

    /** The broker as the cluster default resource sees it: without this broker's own dynamic values. */
    BrokerConfig effectiveDefault() {
        return effectiveDefault;
    }

    /** Where the value of {@code key} comes from; {@code withPerBroker} false leaves this broker's layer out. */
    ConfigSource source(String key, boolean withPerBroker) {
        if (withPerBroker && perBroker.containsKey(key)) {
            return ConfigSource.DYNAMIC_BROKER_CONFIG;
        }
        if (clusterDefault.containsKey(key)) {
            return ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG;
        }
        return staticConfig.isExplicit(key) ? ConfigSource.STATIC_BROKER_CONFIG : ConfigSource.DEFAULT_CONFIG;
    }

    /** Whether {@code key} is set in any layer above the built-in default. */
    boolean isSet(String key, boolean withPerBroker) {
        return source(key, withPerBroker) != ConfigSource.DEFAULT_CONFIG;
    }

    /** Every layer that sets one of {@code keys}, key by key, highest precedence first (Kafka's synonym order). */
    List<ConfigEntry.Synonym> synonyms(List<String> keys, boolean withPerBroker) {
        List<ConfigEntry.Synonym> out = new ArrayList<>();
        for (String key : keys) {
            if (withPerBroker && perBroker.containsKey(key)) {
                out.add(new ConfigEntry.Synonym(key, perBroker.get(key), ConfigSource.DYNAMIC_BROKER_CONFIG));
            }
            if (clusterDefault.containsKey(key)) {
                out.add(new ConfigEntry.Synonym(
                        key, clusterDefault.get(key), ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG));
            }
            if (staticConfig.isExplicit(key)) {
                out.add(new ConfigEntry.Synonym(
                        key, staticConfig.explicitValues().get(key), ConfigSource.STATIC_BROKER_CONFIG));
            }
            ConfigKey definition = BrokerConfigKeys.byName(key);
            if (definition != null && definition.defaultValue() != null) {
                out.add(new ConfigEntry.Synonym(
                        key, ConfigType.format(definition.parse(null)), ConfigSource.DEFAULT_CONFIG));
            }
        }
        return out;
    }
}
