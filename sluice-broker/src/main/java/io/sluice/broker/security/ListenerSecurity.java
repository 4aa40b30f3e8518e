package io.sluice.broker.security;

import static io.sluice.broker.config.BrokerConfigKeys.CONNECTIONS_MAX_REAUTH_MS;
import static io.sluice.broker.config.BrokerConfigKeys.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS;
import static io.sluice.broker.config.BrokerConfigKeys.SASL_ENABLED_MECHANISMS;
import static io.sluice.broker.config.BrokerConfigKeys.SASL_SERVER_MAX_RECEIVE_SIZE;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_PRINCIPAL_MAPPING_RULES;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ConfigException;
import io.sluice.broker.config.Listener;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLEngine;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;

/**
 * How one listener secures its connections, built once at start from the configuration: its security protocol, the
 * TLS engine settings (SSL, SASL_SSL), and for SASL listeners the enabled mechanisms with their accounts
 * (PLAIN: the {@code user_<name>} passwords of the listener's PLAIN JAAS entry; SCRAM: the credentials stored in the
 * cluster by AlterUserScramCredentials first, then the {@code user_<name>} entries of the mechanism's own JAAS entry,
 * turned into salted credentials at start, so the broker keeps no SCRAM password), the pre-authentication frame cap
 * and the failed-login delay. A SCRAM mechanism is offered when it is enabled and the cluster store is given, even
 * without JAAS accounts (users are then added with kafka-configs.sh).
 *
 * <p>Immutable after construction; thread-safe (shared by every connection of the listener).
 */
public final class ListenerSecurity {
    private final String listenerName;
    private final SecurityProtocol protocol;
    private final TlsSettings tls;
    private final SslPrincipalMapper principalMapper;
    private final List<String> mechanisms;
    private final Map<String, String> plainPasswords;
    private final Map<ScramMechanism, Map<String, ScramCredential>> scramCredentials;
    private final ScramCredentialStore storedCredentials;
    private final int maxUnauthenticatedFrameBytes;
    private final long failedAuthenticationDelayMs;
    private final long reauthenticationMs;

    private ListenerSecurity(
            String listenerName,
            SecurityProtocol protocol,
            TlsSettings tls,
            SslPrincipalMapper mapper,
            List<String> mechanisms,
            Map<String, String> plainPasswords,
            Map<ScramMechanism, Map<String, ScramCredential>> scramCredentials,
            ScramCredentialStore storedCredentials,
            int maxUnauthenticatedFrameBytes,
            long failedAuthenticationDelayMs,
            long reauthenticationMs) {
        this.listenerName = listenerName;
        this.protocol = protocol;
        this.tls = tls;
        this.principalMapper = mapper;
        this.mechanisms = mechanisms;
        this.plainPasswords = plainPasswords;
        this.scramCredentials = scramCredentials;
        this.storedCredentials = storedCredentials;
        this.maxUnauthenticatedFrameBytes = maxUnauthenticatedFrameBytes;
        this.failedAuthenticationDelayMs = failedAuthenticationDelayMs;
        this.reauthenticationMs = reauthenticationMs;
    }

    /** A PLAINTEXT listener: no TLS, no SASL, every connection is User:ANONYMOUS. */
    public static ListenerSecurity plaintext(String listenerName) {
        return new ListenerSecurity(
                listenerName,
                SecurityProtocol.PLAINTEXT,
                null,
                null,
                List.of(),
                Map.of(),
                Map.of(),
                ScramCredentialStore.NONE,
                Integer.MAX_VALUE,
                0,
                0);
    }

    /**
     * Builds the security of {@code listener} with JAAS accounts only.
     *
     * @throws ConfigException when a store cannot be loaded, or a SASL listener has no enabled mechanism with
     *                         accounts in its JAAS entry
     */
    public static ListenerSecurity of(BrokerConfig config, Listener listener) {
        return of(config, listener, ScramCredentialStore.NONE);
    }

    /**
     * Builds the security of {@code listener}; SCRAM logins look in {@code stored} before the JAAS accounts.
     *
     * @throws ConfigException when a store cannot be loaded, or a SASL listener offers no mechanism
     */
    public static ListenerSecurity of(BrokerConfig config, Listener listener, ScramCredentialStore stored) {
        String name = listener.name();
        SecurityProtocol protocol = config.securityProtocol(listener);
        boolean usesTls = protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
        boolean usesSasl = protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL;
        TlsSettings tls = usesTls ? TlsSettings.forListener(config, name) : null;
        SslPrincipalMapper mapper = null;
        if (usesTls) {
            String rules = config.listenerValue(name, SSL_PRINCIPAL_MAPPING_RULES);
            try {
                mapper = SslPrincipalMapper.fromRules(rules);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(SSL_PRINCIPAL_MAPPING_RULES, rules, e.getMessage());
            }
        }
        List<String> mechanisms = new ArrayList<>();
        Map<String, String> plain = new HashMap<>();
        Map<ScramMechanism, Map<String, ScramCredential>> scram = new EnumMap<>(ScramMechanism.class);
        if (usesSasl) {
            for (String mechanism :
                    config.listenerValue(name, SASL_ENABLED_MECHANISMS).split(",")) {
                mechanism = mechanism.trim();
                Map<String, String> users = accounts(config, name, mechanism);
                ScramMechanism scramMechanism = ScramMechanism.forName(mechanism);
                if (users.isEmpty() && (scramMechanism == null || stored == ScramCredentialStore.NONE)) {
                    continue;
                }
                mechanisms.add(mechanism);
                if (scramMechanism == null) {
                    plain.putAll(users);
                } else {
                    Map<String, ScramCredential> credentials = new HashMap<>();
                    users.forEach((user, password) ->
                            credentials.put(user, scramMechanism.credential(password, ScramMechanism.MIN_ITERATIONS)));
                    scram.put(scramMechanism, Map.copyOf(credentials));
                }
            }
            if (mechanisms.isEmpty()) {
                throw new ConfigException(
                        "listener.name." + name.toLowerCase(java.util.Locale.ROOT) + ".<mechanism>.sasl.jaas.config",
                        null,
                        "SASL listener " + name
                                + " has no JAAS entry with user_<name>=\"<password>\" accounts for any of "
                                + config.listenerValue(name, SASL_ENABLED_MECHANISMS));
            }
        }
        int cap = Integer.parseInt(config.listenerValue(name, SASL_SERVER_MAX_RECEIVE_SIZE));
        long delay = Long.parseLong(config.listenerValue(name, CONNECTION_FAILED_AUTHENTICATION_DELAY_MS));
        long reauth = Long.parseLong(config.listenerValue(name, CONNECTIONS_MAX_REAUTH_MS));
        return new ListenerSecurity(
                name,
                protocol,
                tls,
                mapper,
                List.copyOf(mechanisms),
                Map.copyOf(plain),
                scram,
                stored,
                usesSasl ? cap : Integer.MAX_VALUE,
                delay,
                usesSasl ? reauth : 0);
    }

    private static Map<String, String> accounts(BrokerConfig config, String listenerName, String mechanism) {
        String text = config.saslJaasConfig(listenerName, mechanism);
        if (text == null) {
            return Map.of();
        }
        try {
            return JaasEntry.parse("sasl.jaas.config of " + mechanism + " on " + listenerName, text)
                    .users();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    "listener.name." + listenerName.toLowerCase(java.util.Locale.ROOT) + "."
                            + mechanism.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config",
                    "[hidden]",
                    e.getMessage());
        }
    }

    public String listenerName() {
        return listenerName;
    }

    public SecurityProtocol protocol() {
        return protocol;
    }

    public boolean usesTls() {
        return tls != null;
    }

    public boolean usesSasl() {
        return protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL;
    }

    /** The mechanisms offered, in the order of sasl.enabled.mechanisms (those with accounts). */
    public List<String> mechanisms() {
        return mechanisms;
    }

    /** Frames larger than this are refused before SASL authentication completes (sasl.server.max.receive.size). */
    public int maxUnauthenticatedFrameBytes() {
        return maxUnauthenticatedFrameBytes;
    }

    public long failedAuthenticationDelayMs() {
        return failedAuthenticationDelayMs;
    }

    /** How long a SASL login lasts before the client must log in again (connections.max.reauth.ms); 0 is forever. */
    public long reauthenticationMs() {
        return reauthenticationMs;
    }

    /** A server engine for a new connection; only on TLS listeners. */
    public SSLEngine newServerEngine() {
        return tls.serverEngine();
    }

    SslPrincipalMapper principalMapper() {
        return principalMapper;
    }

    /** A SASL server for {@code mechanism}, or null when it is not offered here. */
    SaslServer newSaslServer(String mechanism) {
        if (!mechanisms.contains(mechanism)) {
            return null;
        }
        ScramMechanism scram = ScramMechanism.forName(mechanism);
        if (scram == null) {
            return new PlainServer(plainPasswords::get);
        }
        Map<String, ScramCredential> jaas = scramCredentials.getOrDefault(scram, Map.of());
        return new ScramServer(scram, user -> {
            ScramCredential stored = storedCredentials.find(scram, user);
            return stored != null ? stored : jaas.get(user);
        });
    }

    /** A new connection's authentication state. */
    public ConnectionSession newSession(SSLEngine engine) {
        return new ConnectionSession(this, engine, System::currentTimeMillis);
    }
}
