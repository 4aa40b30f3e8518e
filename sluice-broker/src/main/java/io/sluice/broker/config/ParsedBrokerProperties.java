package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.BROKER_ID;
import static io.sluice.broker.config.BrokerConfigKeys.NODE_ID;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Kafka-style broker properties sorted into what {@link BrokerConfig} is built from: each known key's parsed value
 * (defaults filled in), the explicitly given text, the unknown and the ignored Kafka keys, and the per-listener
 * overrides. Each value is checked alone here; checks across keys are {@link BrokerConfig}'s.
 * Immutable; thread-safe.
 *
 * @param values            every broker key's parsed value (null when unset without default), and node.id when given
 * @param explicit          the explicitly given keys and their trimmed text, sorted by key
 * @param unknownKeys       keys that neither Sluice nor Kafka knows; sorted
 * @param ignoredKeys       Kafka keys Sluice accepts without using; sorted
 * @param listenerOverrides listener.name.&lt;name&gt;.&lt;key&gt; entries as given, validated against their base key
 */
record ParsedBrokerProperties(
        Map<String, Object> values,
        Map<String, String> explicit,
        List<String> unknownKeys,
        List<String> ignoredKeys,
        Map<String, String> listenerOverrides) {

    /**
     * Parses and validates each entry of {@code props}, in key order.
     *
     * @throws ConfigException naming the first key whose value is refused
     */
    static ParsedBrokerProperties parse(Map<String, String> props) {
        Map<String, Object> values = new HashMap<>();
        Map<String, String> explicit = new TreeMap<>();
        Set<String> unknown = new TreeSet<>();
        Set<String> ignored = new TreeSet<>();
        Map<String, String> listenerOverrides = new TreeMap<>();
        for (Map.Entry<String, String> entry : new TreeMap<>(props).entrySet()) {
            String name = entry.getKey().trim();
            String text = entry.getValue();
            ConfigKey key = BrokerConfigKeys.byName(name);
            ConfigKey overridden = ListenerOverrides.baseKeyOf(name);
            if (overridden != null) {
                if (text == null) {
                    throw new ConfigException(name, null, "a value is required");
                }
                try {
                    overridden.parse(text);
                } catch (ConfigException e) {
                    String reason = e.getMessage().substring(e.getMessage().indexOf("': ") + 3);
                    throw new ConfigException(
                            name, overridden.type() == ConfigType.PASSWORD ? "[hidden]" : text, reason);
                }
                listenerOverrides.put(name, text.trim());
            } else if (key != null) {
                if (text == null) {
                    throw new ConfigException(name, null, "a value is required");
                }
                values.put(name, key.parse(text));
                explicit.put(name, text.trim());
            } else if (name.equals(NODE_ID)) {
                if (text == null) {
                    throw new ConfigException(name, null, "a value is required");
                }
                values.put(name, BrokerConfigKeys.byName(BROKER_ID).type().parse(NODE_ID, text));
                BrokerConfigKeys.byName(BROKER_ID).validator().ensureValid(NODE_ID, values.get(name));
                explicit.put(name, text.trim());
            } else if (IgnoredKafkaKeys.contains(name)) {
                ignored.add(name);
            } else {
                unknown.add(name);
            }
        }
        for (ConfigKey key : BrokerConfigKeys.all()) {
            values.putIfAbsent(key.name(), key.parse(null));
        }
        return new ParsedBrokerProperties(
                Collections.unmodifiableMap(values),
                Collections.unmodifiableMap(explicit),
                List.copyOf(unknown),
                List.copyOf(ignored),
                Collections.unmodifiableMap(listenerOverrides));
    }
}
