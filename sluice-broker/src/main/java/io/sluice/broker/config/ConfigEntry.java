package io.sluice.broker.config;

import java.util.List;

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
 * @param synonyms      where the value could come from, in precedence order (DescribeConfigs v1+ with synonyms)
 */
public record ConfigEntry(
        String name,
        String value,
        ConfigSource source,
        boolean isDefault,
        boolean readOnly,
        boolean sensitive,
        ConfigType type,
        String documentation,
        List<Synonym> synonyms) {

    public ConfigEntry {
        synonyms = List.copyOf(synonyms);
    }

    /** One place a value is set: a key (the entry's own or a broker synonym), its value there and the source. */
    public record Synonym(String name, String value, ConfigSource source) {}
}
