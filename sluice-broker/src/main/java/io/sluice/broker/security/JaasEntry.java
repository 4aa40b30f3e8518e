package io.sluice.broker.security;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JAAS login entry as Kafka's {@code sasl.jaas.config} holds it:
 * {@code <LoginModule class> <required|requisite|sufficient|optional> key="value" key2=value2;}. Sluice reads the
 * options: {@code user_<name>="<password>"} are the accounts this broker accepts, {@code username}/{@code password}
 * the broker's own login on the inter-broker listener. Error messages never contain option values (they hold
 * passwords).
 *
 * <p>Immutable; thread-safe.
 *
 * @param loginModule the login module class name (informational: Sluice does not load it)
 * @param options     the options in the order given
 */
public record JaasEntry(String loginModule, Map<String, String> options) {
    private static final String USER_PREFIX = "user_";

    /** The accounts: user name to password, from the {@code user_<name>} options. */
    public Map<String, String> users() {
        Map<String, String> users = new LinkedHashMap<>();
        options.forEach((key, value) -> {
            if (key.startsWith(USER_PREFIX) && key.length() > USER_PREFIX.length()) {
                users.put(key.substring(USER_PREFIX.length()), value);
            }
        });
        return users;
    }

    /**
     * Parses one entry.
     *
     * @param key the configuration key it came from, named in errors
     * @throws IllegalArgumentException naming the key and what is malformed (without values)
     */
    public static JaasEntry parse(String key, String text) {
        Tokens tokens = new Tokens(key, text);
        String module = tokens.word();
        String flag = tokens.word();
        if (!flag.equals("required")
                && !flag.equals("requisite")
                && !flag.equals("sufficient")
                && !flag.equals("optional")) {
            throw new IllegalArgumentException(
                    key + ": login module control flag must be required, requisite, " + "sufficient or optional");
        }
        Map<String, String> options = new LinkedHashMap<>();
        while (!tokens.atEntryEnd()) {
            String name = tokens.word();
            tokens.expect('=');
            options.put(name, tokens.value());
        }
        tokens.finish();
        return new JaasEntry(module, Map.copyOf(options));
    }

    /** A cursor over the entry's text. Not thread-safe; one per parse. */
    private static final class Tokens {
        private final String key;
        private final String text;
        private int at;

        Tokens(String key, String text) {
            this.key = key;
            this.text = text;
        }

        String word() {
            skipSpace();
            int start = at;
            while (at < text.length()
                    && !Character.isWhitespace(text.charAt(at))
                    && "=;\"".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            if (start == at) {
                throw fail("expected a name at position " + at);
            }
            return text.substring(start, at);
        }

        String value() {
            skipSpace();
            if (at < text.length() && text.charAt(at) == '"') {
                StringBuilder value = new StringBuilder();
                at++;
                while (at < text.length() && text.charAt(at) != '"') {
                    char c = text.charAt(at++);
                    if (c == '\\' && at < text.length()) {
                        c = text.charAt(at++);
                    }
                    value.append(c);
                }
                if (at >= text.length()) {
                    throw fail("a quoted value is not closed");
                }
                at++;
                return value.toString();
            }
            return word();
        }

        void expect(char c) {
            skipSpace();
            if (at >= text.length() || text.charAt(at) != c) {
                throw fail("expected '" + c + "' at position " + at);
            }
            at++;
        }

        boolean atEntryEnd() {
            skipSpace();
            if (at >= text.length()) {
                throw fail("the entry must end with ';'");
            }
            return text.charAt(at) == ';';
        }

        void finish() {
            at++;
            skipSpace();
            if (at < text.length()) {
                throw fail("only one login module entry is allowed");
            }
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private IllegalArgumentException fail(String what) {
            return new IllegalArgumentException(key + " is not a valid JAAS entry: " + what);
        }
    }
}
