package io.sluice.broker.config;

/**
 * One row of a DescribeConfigs answer. Immutable; thread-safe.
 *
 * @param name          the key
 * @param value         the effective value as text, or null when unset
 * @param source        where the value came from
 * @param isDefault     true when {@code source} is {@link ConfigSource#DEFAULT_CONFIG}
 * @param readOnly      true when it cannot be altered at runtime
 * @param sensitive     true when the value must not be shown (PASSWORD keys)
 * @param type          the value's type
 * @param documentation the key's one-line doc
 */
public record ConfigEntry(String name, String value, ConfigSource source, boolean isDefault,
                          boolean readOnly, boolean sensitive, ConfigType type, String documentation) {
}
