package io.sluice.broker.config;

import java.util.Objects;

/**
 * One configuration key: its Kafka name, type, default (null when unset by default), a
 * one-line doc and a validator. Immutable; thread-safe.
 *
 * @param name         the key as written in server.properties or a topic override
 * @param type         how the text is parsed
 * @param defaultValue the default as text, or null when the key has no default
 * @param doc          one line: what the key does (and what unset means, when it has no default)
 * @param validator    checks a parsed value
 */
public record ConfigKey(String name, ConfigType type, String defaultValue, String doc, ConfigValidator validator) {

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(doc, "doc");
        Objects.requireNonNull(validator, "validator");
        if (doc.isBlank()) {
            throw new IllegalArgumentException("configuration key " + name + " has no doc");
        }
    }

    /** Parses and validates text for this key; null text yields the parsed default (maybe null). */
    public Object parse(String text) {
        if (text == null) {
            return defaultValue == null ? null : type.parse(name, defaultValue);
        }
        Object value = type.parse(name, text);
        validator.ensureValid(name, value);
        return value;
    }
}
