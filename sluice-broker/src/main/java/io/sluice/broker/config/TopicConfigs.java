package io.sluice.broker.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Validates per-topic overrides, resolves them over the broker's configuration and lists
 * configuration entries for DescribeConfigs. Stateless; thread-safe.
 */
public final class TopicConfigs {

    private TopicConfigs() {
    }

    /**
     * Checks every override and returns them with trimmed values, sorted by key.
     *
     * @throws ConfigException on an unknown key or an invalid value (the broker answers
     *                         INVALID_CONFIG with its message)
     */
    public static Map<String, String> validate(Map<String, String> topicOverrides) {
        Map<String, String> normalized = new TreeMap<>();
        for (Map.Entry<String, String> entry : topicOverrides.entrySet()) {
            String name = entry.getKey();
            TopicConfigKey key = TopicConfigKeys.byName(name);
            if (key == null) {
                throw new ConfigException(name, entry.getValue(), "unknown topic configuration");
            }
            if (entry.getValue() == null) {
                throw new ConfigException(name, null, "a value is required");
            }
            key.key().parse(entry.getValue());
            normalized.put(name, entry.getValue().trim());
        }
        return Collections.unmodifiableMap(normalized);
    }

    /**
     * The topic's effective configuration: each override, else the broker's value.
     *
     * @throws ConfigException when an override is invalid (validate first to avoid this)
     */
    public static EffectiveTopicConfig resolve(BrokerConfig broker, Map<String, String> overrides) {
        Map<String, String> valid = validate(overrides);
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, ConfigEntry> entries = new LinkedHashMap<>();
        for (TopicConfigKey topicKey : TopicConfigKeys.all()) {
            ConfigKey key = topicKey.key();
            String override = valid.get(key.name());
            Object value;
            ConfigSource source;
            if (override != null) {
                value = key.parse(override);
                source = ConfigSource.DYNAMIC_TOPIC_CONFIG;
            } else if (topicKey.brokerDefault() != null) {
                value = topicKey.brokerDefault().apply(broker);
                source = anyExplicit(broker, topicKey.brokerSynonyms())
                        ? ConfigSource.STATIC_BROKER_CONFIG : ConfigSource.DEFAULT_CONFIG;
            } else {
                value = key.parse(null);
                source = ConfigSource.DEFAULT_CONFIG;
            }
            values.put(key.name(), value);
            entries.put(key.name(), new ConfigEntry(key.name(), ConfigType.format(value), source,
                    source == ConfigSource.DEFAULT_CONFIG, false, false, key.type(), key.doc()));
        }
        return new EffectiveTopicConfig(values, List.copyOf(entries.values()), broker.producerIdExpirationMs());
    }

    /**
     * Entries for a broker DescribeConfigs: every broker key, read-only (Sluice has no dynamic
     * broker configuration), with STATIC_BROKER_CONFIG for keys given and DEFAULT_CONFIG else.
     */
    public static List<ConfigEntry> describeBroker(BrokerConfig broker) {
        List<ConfigKey> keys = BrokerConfig.brokerKeys();
        List<ConfigEntry> entries = new ArrayList<>(keys.size());
        for (ConfigKey key : keys) {
            boolean explicit = broker.isExplicit(key.name());
            ConfigSource source = explicit ? ConfigSource.STATIC_BROKER_CONFIG : ConfigSource.DEFAULT_CONFIG;
            entries.add(new ConfigEntry(key.name(), broker.valueText(key.name()), source, !explicit,
                    true, key.type() == ConfigType.PASSWORD, key.type(), key.doc()));
        }
        return List.copyOf(entries);
    }

    private static boolean anyExplicit(BrokerConfig broker, List<String> brokerKeys) {
        for (String brokerKey : brokerKeys) {
            if (broker.isExplicit(brokerKey)) {
                return true;
            }
        }
        return false;
    }
}
