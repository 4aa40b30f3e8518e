package io.sluice.broker.config;

import java.util.List;
import java.util.function.Function;

/**
 * A topic-level key, its broker synonyms (the broker keys that supply its default, in
 * Kafka's precedence) and how to read that default from a {@link BrokerConfig}.
 * Immutable; thread-safe.
 *
 * @param key            name, type, validator and doc of the topic key; its default applies
 *                       only when there is no broker synonym
 * @param brokerSynonyms broker keys that set the default; empty for keys without one
 * @param brokerDefault  the effective broker value (parsed type of {@code key}); null when
 *                       there is no broker synonym
 * @param used           false for Kafka keys Sluice accepts and reports but does not act on
 */
public record TopicConfigKey(
        ConfigKey key, List<String> brokerSynonyms, Function<BrokerConfig, Object> brokerDefault, boolean used) {

    public String name() {
        return key.name();
    }
}
