package io.sluice.broker.config;

import java.util.Locale;

/**
 * Kafka's per-listener keys, {@code listener.name.<lower-case listener name>.<key>} (and, for JAAS entries,
 * {@code listener.name.<l>.<lower-case mechanism>.sasl.jaas.config}): which base key such a name overrides, and which
 * keys hold secrets. Stateless; thread-safe.
 */
final class ListenerOverrides {
    private static final String MECHANISM_JAAS_SUFFIX = "." + BrokerConfigKeys.SASL_JAAS_CONFIG;

    private ListenerOverrides() {}

    static String prefixed(String listenerName, String key) {
        return BrokerConfigKeys.LISTENER_PREFIX + listenerName.toLowerCase(Locale.ROOT) + "." + key;
    }

    /**
     * The TLS or SASL key that {@code name} overrides for one listener, or null when {@code name} is not such an
     * override (other listener.name. keys stay ignored, as before).
     */
    static ConfigKey baseKeyOf(String name) {
        if (!name.startsWith(BrokerConfigKeys.LISTENER_PREFIX)) {
            return null;
        }
        String rest = name.substring(BrokerConfigKeys.LISTENER_PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot <= 0) {
            return null;
        }
        String key = rest.substring(dot + 1);
        if (!key.startsWith("ssl.") && !key.startsWith("sasl.") && !key.endsWith(MECHANISM_JAAS_SUFFIX)) {
            return null;
        }
        if (key.endsWith(MECHANISM_JAAS_SUFFIX)) {
            return BrokerConfigKeys.byName(BrokerConfigKeys.SASL_JAAS_CONFIG);
        }
        return BrokerConfigKeys.byName(key);
    }

    /** Whether the value of {@code name} (a key or a listener override) must never be shown. */
    static boolean isSecret(String name) {
        ConfigKey key = BrokerConfigKeys.byName(name);
        if (key == null) {
            key = baseKeyOf(name);
        }
        return key != null && key.type() == ConfigType.PASSWORD;
    }
}
