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

    private TopicConfigs() {}

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
     * {@link #validate} for a new topic's overrides (CreateTopics): a key Sluice accepts for Kafka compatibility without
     * acting on it ({@link TopicConfigKey#used()} false) may only be given its default, the one value that describes
     * what Sluice does; any other is refused. (Stored topics are not re-checked: they keep loading as before.)
     *
     * @throws ConfigException as validate, or for such a key with another value
     */
    public static Map<String, String> validateNew(Map<String, String> topicOverrides) {
        Map<String, String> normalized = validate(topicOverrides);
        for (Map.Entry<String, String> entry : normalized.entrySet()) {
            TopicConfigKey key = TopicConfigKeys.byName(entry.getKey());
            if (!key.used()
                    && !key.key()
                            .parse(entry.getValue())
                            .equals(key.key().parse(key.key().defaultValue()))) {
                throw new ConfigException(
                        entry.getKey(),
                        entry.getValue(),
                        "Sluice accepts this key for Kafka "
                                + "compatibility but does not act on it, so only its default "
                                + key.key().defaultValue()
                                + " is accepted");
            }
        }
        return normalized;
    }

    /**
     * The topic's effective configuration: each override, else the broker's value.
     *
     * @throws ConfigException when an override is invalid (validate first to avoid this)
     */
    public static EffectiveTopicConfig resolve(BrokerConfig broker, Map<String, String> overrides) {
        return resolve(LiveBrokerConfig.ofStatic(broker), overrides);
    }

    /**
     * The topic's effective configuration over the broker's layered configuration: each override, else the first
     * broker synonym set in some layer (its highest layer names the source), else the default; with synonyms.
     *
     * @throws ConfigException when an override is invalid (validate first to avoid this)
     */
    public static EffectiveTopicConfig resolve(LiveBrokerConfig live, Map<String, String> overrides) {
        Map<String, String> valid = validate(overrides);
        BrokerConfig broker = live.effective();
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, ConfigEntry> entries = new LinkedHashMap<>();
        for (TopicConfigKey topicKey : TopicConfigKeys.all()) {
            ConfigKey key = topicKey.key();
            String override = valid.get(key.name());
            List<ConfigEntry.Synonym> synonyms = new ArrayList<>();
            if (override != null) {
                synonyms.add(new ConfigEntry.Synonym(key.name(), override, ConfigSource.DYNAMIC_TOPIC_CONFIG));
            }
            Object value;
            ConfigSource source;
            if (override != null) {
                value = key.parse(override);
                source = ConfigSource.DYNAMIC_TOPIC_CONFIG;
            } else if (topicKey.brokerDefault() != null) {
                value = topicKey.brokerDefault().apply(broker);
                source = brokerSource(live, topicKey.brokerSynonyms());
            } else {
                value = key.parse(null);
                source = ConfigSource.DEFAULT_CONFIG;
            }
            if (topicKey.brokerSynonyms().isEmpty()) {
                synonyms.add(new ConfigEntry.Synonym(key.name(), key.defaultValue(), ConfigSource.DEFAULT_CONFIG));
            } else {
                synonyms.addAll(live.synonyms(topicKey.brokerSynonyms(), true));
            }
            values.put(key.name(), value);
            entries.put(
                    key.name(),
                    new ConfigEntry(
                            key.name(),
                            ConfigType.format(value),
                            source,
                            source == ConfigSource.DEFAULT_CONFIG,
                            false,
                            false,
                            key.type(),
                            key.doc(),
                            synonyms));
        }
        return new EffectiveTopicConfig(values, List.copyOf(entries.values()), broker.producerIdExpirationMs());
    }

    /**
     * Entries for a broker DescribeConfigs: every broker key with the source of its value; the dynamic keys
     * ({@link DynamicBrokerKeys}) are not read-only. {@code perBroker} false describes the cluster default resource
     * (this broker's own dynamic values left out).
     */
    public static List<ConfigEntry> describeBroker(LiveBrokerConfig live, boolean perBroker) {
        BrokerConfig broker = perBroker ? live.effective() : live.effectiveDefault();
        List<ConfigKey> keys = BrokerConfig.brokerKeys();
        List<ConfigEntry> entries = new ArrayList<>(keys.size());
        for (ConfigKey key : keys) {
            ConfigSource source = live.source(key.name(), perBroker);
            entries.add(new ConfigEntry(
                    key.name(),
                    broker.valueText(key.name()),
                    source,
                    source == ConfigSource.DEFAULT_CONFIG,
                    !DynamicBrokerKeys.isDynamic(key.name()),
                    key.type() == ConfigType.PASSWORD,
                    key.type(),
                    key.doc(),
                    live.synonyms(DynamicBrokerKeys.chainOf(key.name()), perBroker)));
        }
        return List.copyOf(entries);
    }

    /** Entries for a broker DescribeConfigs of a broker without dynamic configuration. */
    public static List<ConfigEntry> describeBroker(BrokerConfig broker) {
        return describeBroker(LiveBrokerConfig.ofStatic(broker), true);
    }

    /** The source of a topic key's broker default: the highest layer of the first synonym set anywhere. */
    private static ConfigSource brokerSource(LiveBrokerConfig live, List<String> brokerKeys) {
        for (String brokerKey : brokerKeys) {
            if (live.isSet(brokerKey, true)) {
                return live.source(brokerKey, true);
            }
        }
        return ConfigSource.DEFAULT_CONFIG;
    }
}
