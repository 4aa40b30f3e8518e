package io.sluice.broker.http;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.BrokerConfigKeys;
import io.sluice.broker.config.Listener;
import io.sluice.broker.security.JaasEntry;
import io.sluice.broker.security.ScramCredential;
import io.sluice.broker.security.ScramCredentialStore;
import io.sluice.broker.security.ScramMechanism;
import io.sluice.cluster.state.ClusterState;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * HTTP Basic login for the HTTP listener ({@code sluice.http.authentication=basic}), against the accounts the Kafka
 * listeners accept: the {@code user_<name>="<password>"} accounts of every SASL listener's JAAS entries (PLAIN and
 * SCRAM alike) and the SCRAM credentials stored in the cluster (AlterUserScramCredentials), checked by deriving the
 * StoredKey from the given password with the credential's salt and iterations. Every check costs the same whether or
 * not the user exists: one constant-time password compare and one PBKDF2 derivation (against a dummy credential
 * when the user has no stored one).
 *
 * <p>Thread-safe; the cluster's credentials are read afresh for every check.
 */
final class HttpAuthenticator {
    /** Longest Authorization header taken: a user name and password of a few hundred characters, base64-encoded. */
    static final int MAX_AUTHORIZATION_CHARS = 1024;

    static final String CHALLENGE = "Basic realm=\"sluice\", charset=\"UTF-8\"";
    private static final String BASIC = "basic ";
    private static final List<String> MECHANISMS = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    /** The outcome of one request's Authorization header. */
    enum Outcome {
        ACCEPTED,
        MISSING,
        REFUSED,
        MALFORMED,
        TOO_LONG
    }

    private final Map<String, String> jaasPasswords;
    private final ScramCredentialStore stored;
    private final long failedDelayMs;
    private final ScramCredential dummy = ScramMechanism.SCRAM_SHA_256.credential("", ScramMechanism.MIN_ITERATIONS);

    HttpAuthenticator(Map<String, String> jaasPasswords, ScramCredentialStore stored, long failedDelayMs) {
        this.jaasPasswords = Map.copyOf(jaasPasswords);
        this.stored = stored;
        this.failedDelayMs = failedDelayMs;
    }

    /** The login {@code config} asks for, or null when {@code sluice.http.authentication} is none. */
    static HttpAuthenticator of(BrokerConfig config, Supplier<ClusterState> state) {
        if (!"basic".equals(config.valueText(BrokerConfigKeys.HTTP_AUTHENTICATION))) {
            return null;
        }
        Map<String, String> passwords = new HashMap<>();
        for (Listener listener : config.listeners()) {
            SecurityProtocol protocol = config.securityProtocol(listener);
            if (protocol != SecurityProtocol.SASL_PLAINTEXT && protocol != SecurityProtocol.SASL_SSL) {
                continue;
            }
            for (String mechanism : MECHANISMS) {
                String jaas = config.saslJaasConfig(listener.name(), mechanism);
                if (jaas != null) {
                    passwords.putAll(
                            JaasEntry.parse("sasl.jaas.config of " + mechanism + " on " + listener.name(), jaas)
                                    .users());
                }
            }
        }
        return new HttpAuthenticator(
                passwords,
                ScramCredentialStore.ofCluster(state),
                Long.parseLong(config.valueText(BrokerConfigKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS)));
    }

    /** How long a refused login waits before its 401 (Kafka's connection.failed.authentication.delay.ms). */
    long failedDelayMs() {
        return failedDelayMs;
    }

    /** Checks one request's Authorization header (null when absent). */
    Outcome check(String authorization) {
        if (authorization == null) {
            return Outcome.MISSING;
        }
        if (authorization.length() > MAX_AUTHORIZATION_CHARS) {
            return Outcome.TOO_LONG;
        }
        if (authorization.strip().equalsIgnoreCase(BASIC.strip())) {
            return Outcome.MALFORMED; // the scheme without credentials
        }
        if (!authorization.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            return Outcome.MISSING; // another scheme: answered with the Basic challenge
        }
        String decoded;
        try {
            decoded = new String(
                    Base64.getDecoder()
                            .decode(authorization.substring(BASIC.length()).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Outcome.MALFORMED;
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            return Outcome.MALFORMED;
        }
        return verifies(decoded.substring(0, colon), decoded.substring(colon + 1)) ? Outcome.ACCEPTED : Outcome.REFUSED;
    }

    private boolean verifies(String user, String password) {
        String expected = jaasPasswords.get(user);
        byte[] given = password.getBytes(StandardCharsets.UTF_8);
        // Compared even for an unknown user, so the time taken does not tell which user names exist.
        boolean jaasMatch = MessageDigest.isEqual(
                        given, (expected == null ? "\u0000" + password : expected).getBytes(StandardCharsets.UTF_8))
                && expected != null;
        ScramMechanism mechanism = ScramMechanism.SCRAM_SHA_512;
        ScramCredential credential = stored.find(mechanism, user);
        if (credential == null) {
            mechanism = ScramMechanism.SCRAM_SHA_256;
            credential = stored.find(mechanism, user);
        }
        boolean scramMatch =
                mechanism.verifies(credential == null ? dummy : credential, password) && credential != null;
        return jaasMatch | scramMatch;
    }
}
