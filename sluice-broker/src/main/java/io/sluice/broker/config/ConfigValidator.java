package io.sluice.broker.config;

import java.util.List;
import java.util.Set;

/**
 * Checks a parsed configuration value; throws {@link ConfigException} naming key and value.
 * Implementations are stateless and thread-safe.
 */
@FunctionalInterface
public interface ConfigValidator {

    /** Accepts every value of the right type. */
    ConfigValidator ANY = (key, value) -> {};

    void ensureValid(String key, Object value);

    /** Numbers (Integer or Long) at least {@code min}. */
    static ConfigValidator atLeast(long min) {
        return (key, value) -> {
            long number = ((Number) value).longValue();
            if (number < min) {
                throw new ConfigException(key, String.valueOf(value), "must be at least " + min);
            }
        };
    }

    /** Numbers in [min, max]. */
    static ConfigValidator between(long min, long max) {
        return (key, value) -> {
            long number = ((Number) value).longValue();
            if (number < min || number > max) {
                throw new ConfigException(key, String.valueOf(value), "must be between " + min + " and " + max);
            }
        };
    }

    /** Numbers (Double) in [min, max]. */
    static ConfigValidator inRange(double min, double max) {
        return (key, value) -> {
            double number = ((Number) value).doubleValue();
            if (!(number >= min && number <= max)) {
                throw new ConfigException(key, String.valueOf(value), "must be between " + min + " and " + max);
            }
        };
    }

    /** A string (case-sensitive, as Kafka) from {@code allowed}. */
    static ConfigValidator oneOf(String... allowed) {
        Set<String> set = Set.of(allowed);
        List<String> shown = List.of(allowed);
        return (key, value) -> {
            if (!set.contains(value)) {
                throw new ConfigException(key, String.valueOf(value), "must be one of " + shown);
            }
        };
    }

    /** A non-empty list whose every item is from {@code allowed}. */
    static ConfigValidator nonEmptyListOf(String... allowed) {
        Set<String> set = Set.of(allowed);
        List<String> shown = List.of(allowed);
        return (key, value) -> {
            List<?> items = (List<?>) value;
            if (items.isEmpty()) {
                throw new ConfigException(key, "", "must list at least one of " + shown);
            }
            for (Object item : items) {
                if (!set.contains(item)) {
                    throw new ConfigException(
                            key, ConfigType.format(value), "item '" + item + "' is not one of " + shown);
                }
            }
        };
    }

    /** A string or list that is not empty. */
    static ConfigValidator nonEmpty() {
        return (key, value) -> {
            boolean empty = value instanceof List<?> list
                    ? list.isEmpty()
                    : value.toString().isEmpty();
            if (empty) {
                throw new ConfigException(key, ConfigType.format(value), "must not be empty");
            }
        };
    }
}
