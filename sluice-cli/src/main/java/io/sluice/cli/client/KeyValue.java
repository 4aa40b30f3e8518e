package io.sluice.cli.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code KEY=VALUE} option values (--override, --config, -X, -H). Stateless; thread-safe.
 */
public final class KeyValue {

    private KeyValue() {}

    /**
     * Splits each entry at its first '='; later entries win over earlier ones.
     *
     * @throws IllegalArgumentException naming the option and the entry when '=' is missing or the key is empty
     */
    public static Map<String, String> parseAll(String option, List<String> entries) {
        Map<String, String> map = new LinkedHashMap<>();
        if (entries == null) {
            return map;
        }
        for (String entry : entries) {
            int equals = entry.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException(option + " expects KEY=VALUE, got '" + entry + "'");
            }
            map.put(entry.substring(0, equals).trim(), entry.substring(equals + 1));
        }
        return map;
    }
}
