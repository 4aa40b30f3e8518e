package io.sluice.broker.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The broker keys as they are defined, in definition order (which is the documentation order): each key's default is
 * parsed and checked, and a name defined twice is refused. Filled by the area classes ({@link ServerKeyDefinitions} and
 * the others) while {@link BrokerConfigKeys} initialises.
 * Not thread-safe: filled by one thread, then only read through {@link BrokerConfigKeys}.
 */
final class BrokerKeyCatalogue {
    private final Map<String, ConfigKey> keys = new LinkedHashMap<>();

    void define(String name, ConfigType type, String defaultValue, String doc, ConfigValidator validator) {
        ConfigKey key = new ConfigKey(name, type, defaultValue, doc, validator);
        if (defaultValue != null) {
            key.parse(defaultValue);
        }
        if (keys.put(name, key) != null) {
            throw new IllegalStateException("duplicate configuration key " + name);
        }
    }

    /** The keys defined so far, by name, in definition order. */
    Map<String, ConfigKey> keys() {
        return keys;
    }
}
