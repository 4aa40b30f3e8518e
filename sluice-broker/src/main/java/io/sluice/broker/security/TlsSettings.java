package io.sluice.broker.security;

import static io.sluice.broker.config.BrokerConfigKeys.SSL_CIPHER_SUITES;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_CLIENT_AUTH;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_ENABLED_PROTOCOLS;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_KEYSTORE_LOCATION;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_KEYSTORE_PASSWORD;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_KEYSTORE_TYPE;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_KEY_PASSWORD;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_PROTOCOL;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_TRUSTSTORE_LOCATION;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_TRUSTSTORE_PASSWORD;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_TRUSTSTORE_TYPE;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS side of one listener, built from the {@code ssl.*} keys (each overridable per listener): an
 * {@link SSLContext} on the JDK provider with the key store and trust store loaded once, and the engine settings
 * (protocols, cipher suites, client authentication, host name checking) applied to every engine it makes.
 *
 * <p>Immutable after construction; thread-safe (SSLContext makes engines concurrently).
 */
public final class TlsSettings {
    /** ssl.client.auth. */
    public enum ClientAuth {
        REQUIRED,
        REQUESTED,
        NONE
    }

    private final SSLContext context;
    private final ClientAuth clientAuth;
    private final String[] protocols;
    private final String[] cipherSuites;
    private final String endpointIdentification;

    private TlsSettings(
            SSLContext context,
            ClientAuth clientAuth,
            String[] protocols,
            String[] cipherSuites,
            String endpointIdentification) {
        this.context = context;
        this.clientAuth = clientAuth;
        this.protocols = protocols;
        this.cipherSuites = cipherSuites;
        this.endpointIdentification = endpointIdentification;
    }

    /**
     * Loads the stores of {@code listenerName}.
     *
     * @throws ConfigException naming the key whose store cannot be read or whose password is wrong
     */
    public static TlsSettings forListener(BrokerConfig config, String listenerName) {
        String keyStoreLocation = config.listenerValue(listenerName, SSL_KEYSTORE_LOCATION);
        KeyManagerFactory keyManagers = null;
        if (keyStoreLocation != null) {
            String storePassword = config.listenerValue(listenerName, SSL_KEYSTORE_PASSWORD);
            String keyPassword = config.listenerValue(listenerName, SSL_KEY_PASSWORD);
            KeyStore keyStore = load(
                    SSL_KEYSTORE_LOCATION,
                    keyStoreLocation,
                    config.listenerValue(listenerName, SSL_KEYSTORE_TYPE),
                    storePassword);
            try {
                keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keyManagers.init(keyStore, chars(keyPassword != null ? keyPassword : storePassword));
            } catch (GeneralSecurityException e) {
                throw new ConfigException(
                        SSL_KEY_PASSWORD,
                        "[hidden]",
                        "cannot read the private key of " + keyStoreLocation + ": " + e.getMessage());
            }
        }
        String trustStoreLocation = config.listenerValue(listenerName, SSL_TRUSTSTORE_LOCATION);
        TrustManagerFactory trustManagers = null;
        if (trustStoreLocation != null) {
            KeyStore trustStore = load(
                    SSL_TRUSTSTORE_LOCATION,
                    trustStoreLocation,
                    config.listenerValue(listenerName, SSL_TRUSTSTORE_TYPE),
                    config.listenerValue(listenerName, SSL_TRUSTSTORE_PASSWORD));
            try {
                trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trustManagers.init(trustStore);
            } catch (GeneralSecurityException e) {
                throw new ConfigException(SSL_TRUSTSTORE_LOCATION, trustStoreLocation, e.getMessage());
            }
        }
        String protocol = config.listenerValue(listenerName, SSL_PROTOCOL);
        SSLContext context;
        try {
            context = SSLContext.getInstance(protocol);
            context.init(
                    keyManagers == null ? null : keyManagers.getKeyManagers(),
                    trustManagers == null ? null : trustManagers.getTrustManagers(),
                    null);
        } catch (GeneralSecurityException e) {
            throw new ConfigException(SSL_PROTOCOL, protocol, e.getMessage());
        }
        String[] protocols = split(config.listenerValue(listenerName, SSL_ENABLED_PROTOCOLS));
        String[] ciphers = split(config.listenerValue(listenerName, SSL_CIPHER_SUITES));
        checkSupported(
                SSL_ENABLED_PROTOCOLS,
                protocols,
                context.getSupportedSSLParameters().getProtocols());
        checkSupported(
                SSL_CIPHER_SUITES, ciphers, context.getSupportedSSLParameters().getCipherSuites());
        String clientAuth = config.listenerValue(listenerName, SSL_CLIENT_AUTH);
        String identification = config.listenerValue(listenerName, SSL_ENDPOINT_IDENTIFICATION_ALGORITHM);
        return new TlsSettings(
                context,
                ClientAuth.valueOf(clientAuth.toUpperCase(java.util.Locale.ROOT)),
                protocols,
                ciphers,
                identification == null || identification.isBlank() ? null : identification);
    }

    public ClientAuth clientAuth() {
        return clientAuth;
    }

    /** A server-side engine for one accepted connection. */
    public SSLEngine serverEngine() {
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        configure(engine);
        switch (clientAuth) {
            case REQUIRED -> engine.setNeedClientAuth(true);
            case REQUESTED -> engine.setWantClientAuth(true);
            default -> engine.setWantClientAuth(false);
        }
        return engine;
    }

    /** A client-side engine for a connection to {@code host:port}, checking its name when so configured. */
    public SSLEngine clientEngine(String host, int port) {
        SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        configure(engine);
        if (endpointIdentification != null) {
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm(endpointIdentification);
            engine.setSSLParameters(parameters);
        }
        return engine;
    }

    private void configure(SSLEngine engine) {
        engine.setEnabledProtocols(protocols);
        if (cipherSuites.length > 0) {
            engine.setEnabledCipherSuites(cipherSuites);
        }
    }

    private static KeyStore load(String key, String location, String type, String password) {
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, chars(password));
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(key, location, "cannot load the " + type + " store: " + e.getMessage());
        }
    }

    private static char[] chars(String password) {
        return password == null ? null : password.toCharArray();
    }

    private static String[] split(String list) {
        if (list == null || list.isBlank()) {
            return new String[0];
        }
        return Arrays.stream(list.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toArray(String[]::new);
    }

    private static void checkSupported(String key, String[] wanted, String[] supported) {
        List<String> available = Arrays.asList(supported);
        for (String name : wanted) {
            if (!available.contains(name)) {
                throw new ConfigException(key, String.join(",", wanted), name + " is not supported by this JDK");
            }
        }
    }
}
