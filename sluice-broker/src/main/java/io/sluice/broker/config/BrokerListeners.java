package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.ADVERTISED_LISTENERS;
import static io.sluice.broker.config.BrokerConfigKeys.INTER_BROKER_LISTENER_NAME;
import static io.sluice.broker.config.BrokerConfigKeys.LISTENERS;
import static io.sluice.broker.config.BrokerConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP;
import static io.sluice.broker.config.BrokerConfigKeys.SASL_JAAS_CONFIG;
import static io.sluice.broker.config.BrokerConfigKeys.SECURITY_INTER_BROKER_PROTOCOL;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_KEYSTORE_LOCATION;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The listeners of a {@link BrokerConfig}: those it binds and advertises, the security protocol each name maps to, the
 * inter-broker listener, and each listener's TLS and SASL values (its listener.name. overrides over the broker's
 * keys). Built from parsed values and checked against each other (Kafka's rules) when built.
 * Immutable; thread-safe.
 */
final class BrokerListeners {
    private final Map<String, Object> values;
    /** listener.name.&lt;name&gt;.&lt;key&gt; entries as given, validated against their base key. */
    private final Map<String, String> listenerOverrides;

    private final Map<String, String> protocolMap;
    private final List<Listener> listeners;
    private final List<Listener> advertisedListeners;

    /**
     * @param values            every broker key's parsed value
     * @param listenerOverrides the listener.name. entries given
     * @throws ConfigException naming the first key whose value is refused
     */
    BrokerListeners(Map<String, Object> values, Map<String, String> listenerOverrides) {
        this.values = values;
        this.listenerOverrides = listenerOverrides;
        this.protocolMap =
                Listener.parseProtocolMap(LISTENER_SECURITY_PROTOCOL_MAP, string(LISTENER_SECURITY_PROTOCOL_MAP));
        this.listeners = Listener.parseAll(LISTENERS, list(LISTENERS), protocolMap);
        checkListenerSecurity();
        List<String> advertised = list(ADVERTISED_LISTENERS);
        this.advertisedListeners = advertised == null || advertised.isEmpty()
                ? listeners
                : Listener.parseAll(ADVERTISED_LISTENERS, advertised, protocolMap);
        checkAdvertisedNamesAreListeners();
        checkInterBrokerListener();
    }

    /** Where to bind, in the order given. */
    List<Listener> listeners() {
        return listeners;
    }

    /** What clients are told; the listeners when advertised.listeners is unset. */
    List<Listener> advertisedListeners() {
        return advertisedListeners;
    }

    /** The security protocol {@code listener} maps to (listener.security.protocol.map). */
    SecurityProtocol securityProtocol(Listener listener) {
        return SecurityProtocol.forName(protocolMap.get(listener.name()));
    }

    /**
     * The listener brokers reach each other on (replication, the controller channel, partition moves): the advertised
     * listener inter.broker.listener.name names, else the one named like security.inter.broker.protocol, else the first
     * advertised one.
     */
    Listener interBrokerListener() {
        String name = string(INTER_BROKER_LISTENER_NAME);
        if (name == null) {
            name = string(SECURITY_INTER_BROKER_PROTOCOL);
        }
        if (name == null) {
            return advertisedListeners.get(0);
        }
        for (Listener advertised : advertisedListeners) {
            if (advertised.name().equals(name.toUpperCase(java.util.Locale.ROOT))) {
                return advertised;
            }
        }
        throw new IllegalStateException("checked at construction: no advertised listener " + name);
    }

    /**
     * The text of a security key for {@code listenerName}: listener.name.&lt;name&gt;.&lt;key&gt; when given, else the
     * key itself, else its default; null when none of them is set.
     */
    String listenerValue(String listenerName, String key) {
        String override = listenerOverrides.get(ListenerOverrides.prefixed(listenerName, key));
        if (override != null) {
            return override;
        }
        BrokerConfigKeys.requireKnown(key);
        return ConfigType.format(values.get(key));
    }

    /**
     * The JAAS entry of {@code mechanism} on {@code listenerName}: listener.name.&lt;l&gt;.&lt;mechanism&gt;.sasl.jaas.config,
     * else listener.name.&lt;l&gt;.sasl.jaas.config, else sasl.jaas.config; null when none is set.
     */
    String saslJaasConfig(String listenerName, String mechanism) {
        String perMechanism = listenerOverrides.get(
                ListenerOverrides.prefixed(listenerName, mechanism.toLowerCase(Locale.ROOT) + "." + SASL_JAAS_CONFIG));
        return perMechanism != null ? perMechanism : listenerValue(listenerName, SASL_JAAS_CONFIG);
    }

    private void checkAdvertisedNamesAreListeners() {
        for (Listener advertised : advertisedListeners) {
            boolean found = false;
            for (Listener listener : listeners) {
                found |= listener.name().equals(advertised.name());
            }
            if (!found) {
                throw new ConfigException(
                        ADVERTISED_LISTENERS,
                        advertised.toString(),
                        "listener name " + advertised.name() + " is not in listeners " + listeners);
            }
        }
    }

    /**
     * inter.broker.listener.name, or security.inter.broker.protocol (the listener named like the protocol), must name an
     * advertised listener; at most one of them is set (Kafka's rules).
     */
    private void checkInterBrokerListener() {
        String name = string(INTER_BROKER_LISTENER_NAME);
        String protocol = string(SECURITY_INTER_BROKER_PROTOCOL);
        if (name != null && protocol != null) {
            throw new ConfigException(
                    INTER_BROKER_LISTENER_NAME,
                    name,
                    "Only one of " + INTER_BROKER_LISTENER_NAME + " and " + SECURITY_INTER_BROKER_PROTOCOL
                            + " should be set.");
        }
        String key = name != null ? INTER_BROKER_LISTENER_NAME : SECURITY_INTER_BROKER_PROTOCOL;
        String wanted = name != null ? name : protocol;
        if (wanted == null) {
            return;
        }
        for (Listener advertised : advertisedListeners) {
            if (advertised.name().equals(wanted.toUpperCase(java.util.Locale.ROOT))) {
                return;
            }
        }
        throw new ConfigException(
                key,
                wanted,
                "the inter-broker listener must be an advertised listener; " + "advertised are " + advertisedListeners);
    }

    /** A TLS listener needs a key store; a SASL listener's JAAS entries are checked when the listener starts. */
    private void checkListenerSecurity() {
        for (Listener listener : listeners) {
            SecurityProtocol protocol = securityProtocol(listener);
            if ((protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL)
                    && listenerValue(listener.name(), SSL_KEYSTORE_LOCATION) == null) {
                throw new ConfigException(
                        ListenerOverrides.prefixed(listener.name(), SSL_KEYSTORE_LOCATION),
                        null,
                        "listener " + listener.name() + " is " + protocol + " and needs a key store (or set "
                                + SSL_KEYSTORE_LOCATION + ")");
            }
        }
    }

    private String string(String key) {
        return (String) values.get(key);
    }

    @SuppressWarnings("unchecked")
    private List<String> list(String key) {
        return (List<String>) values.get(key);
    }
}
