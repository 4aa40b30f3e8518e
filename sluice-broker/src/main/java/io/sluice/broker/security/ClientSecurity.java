package io.sluice.broker.security;

import static io.sluice.broker.config.BrokerConfigKeys.SASL_MECHANISM_INTER_BROKER_PROTOCOL;
import static io.sluice.broker.config.BrokerConfigKeys.SSL_CIPHER_SUITES;
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
import io.sluice.broker.config.Listener;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.requests.ResponseHeader;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * How this broker connects to another broker's inter-broker listener (replication, the controller channel, partition
 * moves): in plain text or TLS (an {@link javax.net.ssl.SSLEngine} over the blocking channel, with the listener's
 * trust store, and its key store for mutual TLS), then, on a SASL listener, a SaslHandshake and SaslAuthenticate login
 * with sasl.mechanism.inter.broker.protocol and the {@code username}/{@code password} of the listener's JAAS entry for
 * that mechanism. {@link #connect} and {@link #open} hand back a {@link BlockingTransport} ready for Kafka requests.
 *
 * <p>Immutable; thread-safe (each {@link #open} works on its own connection).
 */
public final class ClientSecurity {
    private static final int MAX_LOGIN_RESPONSE_BYTES = 64 * 1024;

    private final SecurityProtocol protocol;
    private final TlsSettings tls;
    private final String mechanism;
    private final String userName;
    private final String password;

    private ClientSecurity(
            SecurityProtocol protocol, TlsSettings tls, String mechanism, String userName, String password) {
        this.protocol = protocol;
        this.tls = tls;
        this.mechanism = mechanism;
        this.userName = userName;
        this.password = password;
    }

    public static ClientSecurity plaintext() {
        return new ClientSecurity(SecurityProtocol.PLAINTEXT, null, null, null, null);
    }

    /**
     * The security of the inter-broker listener of {@code config}.
     *
     * @throws ConfigException when a store cannot be loaded or the SASL login has no username/password
     */
    public static ClientSecurity interBroker(BrokerConfig config) {
        Listener listener = config.interBrokerListener();
        SecurityProtocol protocol = config.securityProtocol(listener);
        boolean usesTls = protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
        TlsSettings tls = usesTls ? TlsSettings.forListener(config, listener.name()) : null;
        if (protocol != SecurityProtocol.SASL_PLAINTEXT && protocol != SecurityProtocol.SASL_SSL) {
            return new ClientSecurity(protocol, tls, null, null, null);
        }
        String mechanism = config.listenerValue(listener.name(), SASL_MECHANISM_INTER_BROKER_PROTOCOL);
        String jaas = config.saslJaasConfig(listener.name(), mechanism);
        Map<String, String> options = jaas == null
                ? Map.of()
                : JaasEntry.parse("sasl.jaas.config of " + mechanism + " on " + listener.name(), jaas)
                        .options();
        String user = options.get("username");
        String secret = options.get("password");
        if (user == null || secret == null) {
            throw new ConfigException(
                    "listener.name." + listener.name().toLowerCase(java.util.Locale.ROOT) + "."
                            + mechanism.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config",
                    "[hidden]",
                    "the inter-broker listener " + listener.name() + " uses SASL " + mechanism
                            + ": its JAAS entry needs username and password (this broker's own login)");
        }
        return new ClientSecurity(protocol, tls, mechanism, user, secret);
    }

    public SecurityProtocol protocol() {
        return protocol;
    }

    /**
     * kafka-clients properties that connect to the inter-broker listener of {@code config} as this broker does:
     * security.protocol, the listener's ssl.* stores and settings, and for SASL the inter-broker mechanism with this
     * broker's own login (for the admin client that forwards requests to the controller).
     *
     * @throws ConfigException as {@link #interBroker} does
     */
    public static Map<String, Object> kafkaClientProperties(BrokerConfig config) {
        ClientSecurity login = interBroker(config);
        String listener = config.interBrokerListener().name();
        Map<String, Object> props = new HashMap<>();
        props.put("security.protocol", login.protocol.name);
        if (login.tls != null) {
            for (String key : List.of(
                    SSL_KEYSTORE_LOCATION,
                    SSL_KEYSTORE_TYPE,
                    SSL_KEYSTORE_PASSWORD,
                    SSL_KEY_PASSWORD,
                    SSL_TRUSTSTORE_LOCATION,
                    SSL_TRUSTSTORE_TYPE,
                    SSL_TRUSTSTORE_PASSWORD,
                    SSL_PROTOCOL,
                    SSL_ENABLED_PROTOCOLS,
                    SSL_CIPHER_SUITES)) {
                String value = config.listenerValue(listener, key);
                if (value != null && !value.isBlank()) {
                    props.put(key, value);
                }
            }
            String identification = config.listenerValue(listener, SSL_ENDPOINT_IDENTIFICATION_ALGORITHM);
            props.put(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM, identification == null ? "" : identification);
        }
        if (login.mechanism != null) {
            String module = ScramMechanism.forName(login.mechanism) == null
                    ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                    : "org.apache.kafka.common.security.scram.ScramLoginModule";
            props.put("sasl.mechanism", login.mechanism);
            props.put(
                    "sasl.jaas.config",
                    module + " required username=\"" + jaasQuoted(login.userName) + "\" password=\""
                            + jaasQuoted(login.password) + "\";");
        }
        return props;
    }

    private static String jaasQuoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /**
     * Connects to {@code address} (non-blocking, TCP_NODELAY, waiting at most {@code timeoutMs}, ended by a thread
     * interrupt) and secures the connection ({@link #open}) within the same bound.
     *
     * @param clientId the client id of the login requests
     */
    public BlockingTransport connect(InetSocketAddress address, int timeoutMs, String clientId) throws IOException {
        SocketChannel opened = SocketChannel.open();
        Selector waiter = Selector.open();
        try {
            opened.configureBlocking(false);
            opened.setOption(StandardSocketOptions.TCP_NODELAY, true);
            opened.connect(address);
            opened.register(waiter, SelectionKey.OP_CONNECT);
            long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
            while (!opened.finishConnect()) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
                if (leftMs <= 0) {
                    throw new SocketTimeoutException("connecting to " + address + " took over " + timeoutMs + " ms");
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("connecting to " + address + " interrupted");
                }
                waiter.select(leftMs);
            }
            opened.keyFor(waiter).cancel();
            waiter.selectNow();
            return open(opened, waiter, address, clientId, deadline);
        } catch (IOException | RuntimeException e) {
            opened.close();
            waiter.close();
            throw e;
        }
    }

    /**
     * Secures a freshly connected {@code channel} (non-blocking, registered with nothing): TLS handshake, then SASL
     * login when configured. On failure the caller closes the channel.
     *
     * @param clientId the client id of the login requests
     * @throws IOException on a network or TLS failure, or a refused login ({@link SaslAuthenticationException} cause)
     */
    public BlockingTransport open(
            SocketChannel channel, Selector selector, InetSocketAddress address, String clientId, long deadlineNanos)
            throws IOException {
        BlockingTransport transport = new BlockingTransport(
                channel,
                selector,
                address,
                tls == null ? null : tls.clientEngine(address.getHostString(), address.getPort()));
        transport.handshake(deadlineNanos);
        if (mechanism != null) {
            login(transport, clientId, deadlineNanos);
        }
        return transport;
    }

    private void login(BlockingTransport transport, String clientId, long deadlineNanos) throws IOException {
        short handshakeVersion = 1;
        ByteBuffer handshake = call(
                transport,
                clientId,
                0,
                ApiKeys.SASL_HANDSHAKE,
                handshakeVersion,
                new SaslHandshakeRequestData().setMechanism(mechanism),
                deadlineNanos);
        SaslHandshakeResponseData handshakeResponse =
                new SaslHandshakeResponseData(new ByteBufferAccessor(handshake), handshakeVersion);
        if (handshakeResponse.errorCode() != Errors.NONE.code()) {
            throw new IOException("broker " + transport.address() + " refused SASL mechanism " + mechanism + ": "
                    + Errors.forCode(handshakeResponse.errorCode()) + " (offers " + handshakeResponse.mechanisms()
                    + ")");
        }
        SaslClient client = ScramMechanism.forName(mechanism) == null
                ? new PlainClient(userName, password)
                : new ScramClient(ScramMechanism.forName(mechanism), userName, password);
        short version = 1;
        byte[] token = client.evaluateChallenge(new byte[0]);
        for (int round = 1; ; round++) {
            ByteBuffer body = call(
                    transport,
                    clientId,
                    round,
                    ApiKeys.SASL_AUTHENTICATE,
                    version,
                    new SaslAuthenticateRequestData().setAuthBytes(token),
                    deadlineNanos);
            SaslAuthenticateResponseData response =
                    new SaslAuthenticateResponseData(new ByteBufferAccessor(body), version);
            if (response.errorCode() != Errors.NONE.code()) {
                throw new IOException(
                        "SASL " + mechanism + " login as " + userName + " to " + transport.address() + " failed",
                        new SaslAuthenticationException(response.errorMessage()));
            }
            if (client.isComplete()) {
                transport.sessionLifetime(response.sessionLifetimeMs());
                return;
            }
            try {
                token = client.evaluateChallenge(response.authBytes());
            } catch (SaslException e) {
                throw new IOException(
                        "SASL " + mechanism + " login to " + transport.address() + " failed: " + e.getMessage(), e);
            }
            if (client.isComplete() && token == null) {
                transport.sessionLifetime(response.sessionLifetimeMs());
                return;
            }
        }
    }

    private static ByteBuffer call(
            BlockingTransport transport,
            String clientId,
            int correlationId,
            ApiKeys api,
            short version,
            ApiMessage request,
            long deadlineNanos)
            throws IOException {
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(api.id)
                .setRequestApiVersion(version)
                .setClientId(clientId)
                .setCorrelationId(correlationId);
        ByteBuffer body = RequestUtils.serialize(header, api.requestHeaderVersion(version), request, version);
        ByteBuffer size = ByteBuffer.allocate(Integer.BYTES).putInt(0, body.remaining());
        transport.writeFully(size, deadlineNanos);
        transport.writeFully(body, deadlineNanos);
        size.clear();
        transport.readFully(size, deadlineNanos);
        int length = size.getInt(0);
        if (length < 0 || length > MAX_LOGIN_RESPONSE_BYTES) {
            throw new IOException(api + " response of " + length + " bytes from " + transport.address()
                    + " is outside [0, " + MAX_LOGIN_RESPONSE_BYTES + "]");
        }
        ByteBuffer response = ByteBuffer.allocate(length);
        transport.readFully(response, deadlineNanos);
        response.flip();
        ResponseHeader responseHeader = ResponseHeader.parse(response, api.responseHeaderVersion(version));
        if (responseHeader.correlationId() != correlationId) {
            throw new IOException(api + " response correlation id " + responseHeader.correlationId()
                    + " does not match " + correlationId);
        }
        return response;
    }
}
