package io.sluice.broker.config;

import io.sluice.cluster.controller.ConfigError;
import io.sluice.cluster.controller.ConfigRefusedException;
import io.sluice.cluster.controller.ConfigResource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client quota keys of Kafka 3.9 that Sluice enforces, per quota entity kind, and the checks Kafka's controller
 * applies to their values (AlterClientQuotas carries them as doubles): a key the kind does not have is INVALID_REQUEST
 * "Invalid configuration key", a value at or below zero "Quota k must be greater than 0", a fractional value of a
 * whole-number key "k cannot be a fractional value.". Kafka's {@code controller_mutation_rate} (KIP-599) and the
 * IP entity's {@code connection_creation_rate} are refused as well: Sluice does not act on them, and a key it accepts
 * must act. Values are kept as Kafka's ZooKeeper mode writes them: whole numbers without a fraction, doubles as Java
 * prints them ({@code 50.0}).
 *
 * <p>Stateless; thread-safe.
 */
public final class ClientQuotaKeys {
    public static final String PRODUCER_BYTE_RATE = "producer_byte_rate";
    public static final String CONSUMER_BYTE_RATE = "consumer_byte_rate";
    public static final String REQUEST_PERCENTAGE = "request_percentage";
    /** Kafka's keys Sluice knows but does not enforce, refused with a message that says so. */
    private static final Map<String, String> NOT_ENFORCED = Map.of(
            "controller_mutation_rate", "Sluice does not throttle topic creation and deletion (KIP-599)",
            "connection_creation_rate", "Sluice does not limit the rate of new connections per IP");

    /** One quota key: whether its values are whole numbers (Kafka's LONG) and its one-line doc. */
    public record QuotaKey(String name, boolean whole, String doc) {}

    /** The keys users and client ids may have, in Kafka's order. */
    public static final Map<String, QuotaKey> USER_AND_CLIENT_KEYS = keys(
            new QuotaKey(
                    PRODUCER_BYTE_RATE,
                    true,
                    "Bytes per second of produce requests a client may send to one "
                            + "broker; above it responses carry throttle_time_ms and the connection is muted that long."),
            new QuotaKey(
                    CONSUMER_BYTE_RATE,
                    true,
                    "Bytes per second of fetch responses a consumer may receive from one "
                            + "broker; a fetch over it is answered empty with throttle_time_ms and the connection is muted."),
            new QuotaKey(
                    REQUEST_PERCENTAGE,
                    false,
                    "Percentage of one request-handler thread's time a client may use "
                            + "per quota window (100 = one thread); above it responses carry throttle_time_ms."));

    private ClientQuotaKeys() {}

    private static Map<String, QuotaKey> keys(QuotaKey... keys) {
        Map<String, QuotaKey> byName = new LinkedHashMap<>();
        for (QuotaKey k : keys) {
            byName.put(k.name(), k);
        }
        return java.util.Collections.unmodifiableMap(byName);
    }

    /** The enforced keys of an entity kind: none for IP entities (Kafka's only IP key is not enforced). */
    public static Map<String, QuotaKey> keysOf(ConfigResource.Type type) {
        return type == ConfigResource.Type.IP ? Map.of() : USER_AND_CLIENT_KEYS;
    }

    /**
     * The stored text of {@code value} for {@code key} of an entity of kind {@code type}.
     *
     * @throws ConfigRefusedException INVALID_REQUEST with Kafka's message for an unknown key or a bad value
     */
    public static String textOf(ConfigResource.Type type, String key, double value) throws ConfigRefusedException {
        QuotaKey definition = definition(type, key);
        if (!(value > 0) || Double.isInfinite(value)) {
            throw refused("Quota " + key + " must be greater than 0");
        }
        if (!definition.whole()) {
            return Double.toString(value);
        }
        double whole = Math.rint(value);
        if (Math.abs(whole - value) > 1e-6) {
            throw refused(key + " cannot be a fractional value.");
        }
        if (whole > Long.MAX_VALUE) {
            throw refused("Proposed value for " + key + " is too large for a LONG.");
        }
        return Long.toString((long) whole);
    }

    /** Checks a stored value (the controller's check of a change); the same rules as {@link #textOf}. */
    public static void checkStored(ConfigResource.Type type, String key, String text) throws ConfigRefusedException {
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            definition(type, key);
            throw refused("Invalid value " + text + " for quota " + key + ": not a number");
        }
        if (!textOf(type, key, value).equals(text) && definition(type, key).whole()) {
            throw refused("Invalid value " + text + " for quota " + key + ": expected a whole number");
        }
    }

    private static QuotaKey definition(ConfigResource.Type type, String key) throws ConfigRefusedException {
        String why = NOT_ENFORCED.get(key);
        if (why != null) {
            throw refused("Quota " + key + " is not supported: " + why);
        }
        QuotaKey definition = keysOf(type).get(key);
        if (definition == null) {
            throw refused("Invalid configuration key " + key);
        }
        return definition;
    }

    private static ConfigRefusedException refused(String message) {
        return new ConfigRefusedException(ConfigError.INVALID_REQUEST, message);
    }
}
