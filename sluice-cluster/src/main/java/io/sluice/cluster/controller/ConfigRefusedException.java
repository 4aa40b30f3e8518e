package io.sluice.cluster.controller;

/**
 * A config change the {@link ConfigSchema} refuses: the error code and a message that names the key and the value.
 * Immutable; thread-safe.
 */
public final class ConfigRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ConfigError error;

    public ConfigRefusedException(ConfigError error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    public ConfigError error() {
        return error;
    }
}
