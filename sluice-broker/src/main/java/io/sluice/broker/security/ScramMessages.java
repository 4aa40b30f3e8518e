package io.sluice.broker.security;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.security.sasl.SaslException;

/**
 * The text of SCRAM messages (RFC 5802 section 7): attribute lists {@code a=value,b=value}, the saslname escaping of
 * user names ({@code =2C} for ',' and {@code =3D} for '='), and nonces. Every parse failure is a
 * {@link SaslException} naming what was wrong, never a runtime exception.
 *
 * <p>Stateless; thread-safe.
 */
final class ScramMessages {
    /** Longest SCRAM message accepted; real ones are under 300 bytes. */
    static final int MAX_MESSAGE_BYTES = 4096;

    private ScramMessages() {}

    static String text(byte[] message) throws SaslException {
        if (message.length > MAX_MESSAGE_BYTES) {
            throw new SaslException("SCRAM message of " + message.length + " bytes exceeds " + MAX_MESSAGE_BYTES);
        }
        return new String(message, StandardCharsets.UTF_8);
    }

    /** Parses {@code a=x,b=y}; each attribute is one letter; later duplicates are refused. */
    static Map<String, String> attributes(String text) throws SaslException {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (String part : text.split(",", -1)) {
            if (part.length() < 2 || part.charAt(1) != '=') {
                throw new SaslException("malformed SCRAM attribute '" + abbreviate(part) + "'");
            }
            if (attributes.put(part.substring(0, 1), part.substring(2)) != null) {
                throw new SaslException("SCRAM attribute " + part.charAt(0) + " appears twice");
            }
        }
        return attributes;
    }

    static String require(Map<String, String> attributes, String name) throws SaslException {
        String value = attributes.get(name);
        if (value == null || value.isEmpty()) {
            throw new SaslException("SCRAM message lacks attribute " + name);
        }
        return value;
    }

    static String decodeUserName(String saslName) throws SaslException {
        StringBuilder out = new StringBuilder(saslName.length());
        for (int i = 0; i < saslName.length(); i++) {
            char c = saslName.charAt(i);
            if (c == '=') {
                if (saslName.startsWith("=2C", i)) {
                    out.append(',');
                } else if (saslName.startsWith("=3D", i)) {
                    out.append('=');
                } else {
                    throw new SaslException("invalid escape in SCRAM user name");
                }
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    static String encodeUserName(String userName) {
        return userName.replace("=", "=3D").replace(",", "=2C");
    }

    static String nonce() {
        byte[] random = new byte[24];
        new java.security.SecureRandom().nextBytes(random);
        return java.util.Base64.getEncoder()
                .withoutPadding()
                .encodeToString(random)
                .replace('+', '-')
                .replace('/', '_');
    }

    private static String abbreviate(String text) {
        return text.length() <= 16 ? text : text.substring(0, 16) + "...";
    }
}
