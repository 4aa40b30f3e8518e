package io.sluice.broker.config;

/**
 * A configuration value was refused: the message names the key and the value seen.
 * Immutable; thread-safe.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final String value;

    public ConfigException(String key, String value, String reason) {
        super("Invalid value " + quote(value) + " for configuration '" + key + "': " + reason);
        this.key = key;
        this.value = value;
    }

    /** The configuration key at fault. */
    public String key() {
        return key;
    }

    /** The value as given, or null when the value was missing. */
    public String value() {
        return value;
    }

    private static String quote(String value) {
        return value == null ? "(none)" : "'" + value + "'";
    }
}
