package io.sluice.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.function.Function;
import javax.security.sasl.AuthenticationException;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * The server side of SASL/PLAIN (RFC 4616): one message {@code [authzid] NUL authcid NUL password}, checked against the
 * configured password in constant time. As in Kafka, the authorization id must be empty or the user name.
 *
 * <p>Not thread-safe; one per authenticating connection.
 */
final class PlainServer extends NoSecurityLayer implements SaslServer {
    static final String MECHANISM = "PLAIN";

    private final Function<String, String> passwords;
    private String authorizationId;

    /** @param passwords the configured password of a user name, or null when there is none */
    PlainServer(Function<String, String> passwords) {
        this.passwords = passwords;
    }

    @Override
    public String getMechanismName() {
        return MECHANISM;
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
        if (authorizationId != null) {
            throw new SaslException("PLAIN exchange already complete");
        }
        String message = new String(response, StandardCharsets.UTF_8);
        int first = message.indexOf('\u0000');
        int second = first < 0 ? -1 : message.indexOf('\u0000', first + 1);
        if (second < 0 || message.indexOf('\u0000', second + 1) >= 0) {
            throw new SaslException("Invalid SASL/PLAIN response: expected 3 tokens separated by NUL");
        }
        String authzid = message.substring(0, first);
        String user = message.substring(first + 1, second);
        String password = message.substring(second + 1);
        if (user.isEmpty()) {
            throw new SaslException("Authentication failed: username not specified");
        }
        if (!authzid.isEmpty() && !authzid.equals(user)) {
            throw new AuthenticationException(
                    "Authentication failed: Client requested an authorization id that is " + "different from username");
        }
        String expected = passwords.apply(user);
        // Compare even for an unknown user, so the time taken does not tell which user names exist.
        byte[] given = password.getBytes(StandardCharsets.UTF_8);
        boolean matches = MessageDigest.isEqual(
                given, (expected == null ? "\u0000" + password : expected).getBytes(StandardCharsets.UTF_8));
        if (expected == null || !matches) {
            throw new AuthenticationException("Authentication failed: Invalid username or password");
        }
        authorizationId = user;
        return new byte[0];
    }

    @Override
    public boolean isComplete() {
        return authorizationId != null;
    }

    @Override
    public String getAuthorizationID() {
        if (authorizationId == null) {
            throw new IllegalStateException("PLAIN exchange not complete");
        }
        return authorizationId;
    }
}
