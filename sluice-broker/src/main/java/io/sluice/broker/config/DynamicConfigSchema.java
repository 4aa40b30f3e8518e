package io.sluice.broker.config;

import io.sluice.cluster.controller.ConfigError;
import io.sluice.cluster.controller.ConfigRefusedException;
import io.sluice.cluster.controller.ConfigResource;
import io.sluice.cluster.controller.ConfigSchema;
import io.sluice.cluster.state.ClusterState;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rules of dynamic configuration the controller applies to IncrementalAlterConfigs and AlterConfigs, in Kafka's
 * terms: a topic key must be a topic key ("Unknown topic config name") with a valid value (INVALID_CONFIG naming the
 * key), and a topic key Sluice accepts for compatibility without acting on it cannot change; a broker key must be a
 * broker key, and one Sluice cannot apply while running is refused with INVALID_REQUEST, "Cannot update these configs
 * dynamically: Set(...)". A client quota entity's keys and values follow {@link ClientQuotaKeys}. Only keys whose value
 * changes are checked, so a set that kept an old key stays alterable.
 *
 * <p>Thread-safe (reads the broker's current configuration).
 */
public final class DynamicConfigSchema implements ConfigSchema {
    private final DynamicBrokerConfig broker;

    public DynamicConfigSchema(DynamicBrokerConfig broker) {
        this.broker = broker;
    }

    @Override
    public boolean isList(ConfigResource.Type type, String key) {
        ConfigKey definition = definition(type, key);
        return definition != null && definition.type() == ConfigType.LIST;
    }

    @Override
    public String baseValue(ConfigResource resource, String key) {
        if (resource.type().isClientQuota()) {
            return null;
        }
        if (resource.type() == ConfigResource.Type.TOPIC) {
            return TopicConfigKeys.byName(key) == null
                    ? null
                    : TopicConfigs.resolve(broker.live(), Map.of()).valueText(key);
        }
        return BrokerConfigKeys.byName(key) == null ? null : broker.current().valueText(key);
    }

    @Override
    public void validate(
            ConfigResource resource, Map<String, String> current, Map<String, String> next, ClusterState state)
            throws ConfigRefusedException {
        Set<String> changed = new TreeSet<>();
        for (Map.Entry<String, String> e : next.entrySet()) {
            if (!Objects.equals(current.get(e.getKey()), e.getValue())) {
                changed.add(e.getKey());
            }
        }
        for (String key : current.keySet()) {
            if (!next.containsKey(key)) {
                changed.add(key);
            }
        }
        if (resource.type().isClientQuota()) {
            for (String key : changed) {
                if (next.containsKey(key)) {
                    ClientQuotaKeys.checkStored(resource.type(), key, next.get(key));
                }
            }
        } else if (resource.type() == ConfigResource.Type.TOPIC) {
            validateTopic(changed, next);
        } else {
            validateBroker(changed, next);
        }
    }

    private static void validateTopic(Set<String> changed, Map<String, String> next) throws ConfigRefusedException {
        for (String key : changed) {
            TopicConfigKey definition = TopicConfigKeys.byName(key);
            if (definition == null) {
                throw new ConfigRefusedException(ConfigError.INVALID_CONFIG, "Unknown topic config name: " + key);
            }
            if (!definition.used()) {
                throw new ConfigRefusedException(
                        ConfigError.INVALID_CONFIG,
                        "Topic config " + key + " cannot be "
                                + "altered: Sluice accepts it for compatibility but does not act on it");
            }
            parse(definition.key(), next.get(key));
        }
        try {
            TopicConfigs.validate(next);
        } catch (ConfigException e) {
            throw new ConfigRefusedException(ConfigError.INVALID_CONFIG, e.getMessage());
        }
    }

    private void validateBroker(Set<String> changed, Map<String, String> next) throws ConfigRefusedException {
        Set<String> notDynamic = new TreeSet<>();
        for (String key : changed) {
            ConfigKey definition = BrokerConfigKeys.byName(key);
            if (definition == null) {
                throw new ConfigRefusedException(ConfigError.INVALID_CONFIG, "Unknown broker config name: " + key);
            }
            if (!DynamicBrokerKeys.isDynamic(key)) {
                notDynamic.add(key);
            }
        }
        if (!notDynamic.isEmpty()) {
            throw new ConfigRefusedException(
                    ConfigError.INVALID_REQUEST,
                    "Cannot update these configs dynamically: Set(" + String.join(", ", notDynamic) + ")");
        }
        for (String key : changed) {
            parse(BrokerConfigKeys.byName(key), next.get(key));
        }
        BrokerConfig merged;
        try {
            merged = broker.live().staticConfig().withOverrides(next);
        } catch (ConfigException e) {
            throw new ConfigRefusedException(ConfigError.INVALID_CONFIG, e.getMessage());
        }
        if (changed.stream().anyMatch(key -> key.startsWith("log.cleaner."))) {
            validateCleaner(merged);
        }
    }

    /**
     * Kafka's LogCleaner.validateReconfiguration: the thread count may at most halve or double from the value this
     * broker runs with; and the settings must make a cleaner (its offset map must hold keys).
     */
    private void validateCleaner(BrokerConfig merged) throws ConfigRefusedException {
        int current = broker.current().log().cleanerConfig().threads();
        int threads;
        try {
            threads = merged.log().cleanerConfig().threads();
        } catch (IllegalArgumentException e) {
            throw new ConfigRefusedException(ConfigError.INVALID_CONFIG, e.getMessage());
        }
        if (threads < current / 2) {
            throw new ConfigRefusedException(
                    ConfigError.INVALID_CONFIG,
                    "Log cleaner threads cannot be reduced to less than half the current value " + current);
        }
        if (threads > current * 2) {
            throw new ConfigRefusedException(
                    ConfigError.INVALID_CONFIG,
                    "Log cleaner threads cannot be increased to more than double the current value " + current);
        }
    }

    /** Parses a new value (null: the key is being deleted, nothing to parse). */
    private static void parse(ConfigKey key, String value) throws ConfigRefusedException {
        if (value == null) {
            return;
        }
        try {
            key.parse(value);
        } catch (ConfigException e) {
            throw new ConfigRefusedException(ConfigError.INVALID_CONFIG, e.getMessage());
        }
    }

    private static ConfigKey definition(ConfigResource.Type type, String key) {
        if (type.isClientQuota()) {
            return null;
        }
        if (type == ConfigResource.Type.TOPIC) {
            TopicConfigKey topicKey = TopicConfigKeys.byName(key);
            return topicKey == null ? null : topicKey.key();
        }
        return BrokerConfigKeys.byName(key);
    }
}
