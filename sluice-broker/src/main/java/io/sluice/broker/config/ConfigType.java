package io.sluice.broker.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The type of a configuration value, how its text is parsed, and the id DescribeConfigs
 * v3+ reports for it. Immutable; thread-safe.
 */
public enum ConfigType {
    BOOLEAN((byte) 1),
    STRING((byte) 2),
    INT((byte) 3),
    LONG((byte) 5),
    DOUBLE((byte) 6),
    LIST((byte) 7),
    /** A secret (key store and JAAS passwords): parsed like STRING, never shown by DescribeConfigs or in logs. */
    PASSWORD((byte) 9);

    private final byte describeConfigsId;

    ConfigType(byte describeConfigsId) {
        this.describeConfigsId = describeConfigsId;
    }

    /** The ConfigType id of the DescribeConfigs response (Kafka's ConfigEntry.ConfigType order). */
    public byte describeConfigsId() {
        return describeConfigsId;
    }

    /**
     * Parses trimmed text into Boolean, String, Integer, Long, Double or List&lt;String&gt;.
     *
     * @throws ConfigException naming the key and the text when it does not parse
     */
    Object parse(String key, String text) {
        String trimmed = text.trim();
        switch (this) {
            case BOOLEAN:
                if (trimmed.equalsIgnoreCase("true")) {
                    return Boolean.TRUE;
                }
                if (trimmed.equalsIgnoreCase("false")) {
                    return Boolean.FALSE;
                }
                throw new ConfigException(key, text, "expected true or false");
            case STRING:
            case PASSWORD:
                return trimmed;
            case INT:
                try {
                    return Integer.valueOf(trimmed);
                } catch (NumberFormatException e) {
                    throw new ConfigException(key, text, "expected a 32-bit integer");
                }
            case LONG:
                try {
                    return Long.valueOf(trimmed);
                } catch (NumberFormatException e) {
                    throw new ConfigException(key, text, "expected a 64-bit integer");
                }
            case DOUBLE:
                try {
                    double value = Double.parseDouble(trimmed);
                    if (Double.isNaN(value)) {
                        throw new NumberFormatException("NaN");
                    }
                    return value;
                } catch (NumberFormatException e) {
                    throw new ConfigException(key, text, "expected a number");
                }
            case LIST:
                return splitList(trimmed);
            default:
                throw new IllegalStateException("unhandled type " + this);
        }
    }

    /** Formats a parsed value back to the text Kafka would show for it. */
    static String format(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder();
            for (Object item : list) {
                if (out.length() > 0) {
                    out.append(',');
                }
                out.append(item);
            }
            return out.toString();
        }
        return value.toString();
    }

    private static List<String> splitList(String trimmed) {
        List<String> items = new ArrayList<>();
        if (trimmed.isEmpty()) {
            return List.of();
        }
        for (String item : trimmed.split(",")) {
            String part = item.trim();
            if (!part.isEmpty()) {
                items.add(part);
            }
        }
        return List.copyOf(items);
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
