package io.sluice.broker.security;

import java.io.IOException;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.security.sasl.AuthenticationException;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is on the other end of one connection, and how far its SASL login has come: SaslHandshake picks a mechanism
 * (UNSUPPORTED_SASL_MECHANISM and close for one not offered), SaslAuthenticate carries its tokens (a failed login gets
 * SASL_AUTHENTICATION_FAILED, after connection.failed.authentication.delay.ms, and the connection is closed). The
 * principal is {@code User:<name>}: the SASL authorization id, else the client certificate's subject mapped by
 * ssl.principal.mapping.rules, else {@code User:ANONYMOUS}. With connections.max.reauth.ms set, a SASL login lasts
 * that long (told to the client as session_lifetime_ms): the client logs in again on the same connection with the same
 * mechanism and principal, or its next request after expiry closes the connection (KIP-368). Failures are logged with
 * the user name and mechanism, never a token or password.
 *
 * <p>Not thread-safe; one per connection, confined to the connection's request executor.
 */
public final class ConnectionSession {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionSession.class);

    /**
     * What to answer to a SASL request.
     *
     * @param response the response body
     * @param close    whether the connection closes once it is sent
     * @param delayMs  how long to wait before sending it (a failed login)
     */
    public record Step(ApiMessage response, boolean close, long delayMs) {}

    /** HANDSHAKE and AUTHENTICATE: the first login; REAUTHENTICATE: a KIP-368 login on an authenticated connection. */
    private enum State {
        HANDSHAKE,
        AUTHENTICATE,
        AUTHENTICATED,
        REAUTHENTICATE
    }

    private final ListenerSecurity listener;
    private final SSLEngine engine;
    private final LongSupplier clock;
    private State state;
    private SaslServer saslServer;
    private String mechanism;
    private KafkaPrincipal principal;
    /** When the SASL session ends (connections.max.reauth.ms after the last login); Long.MAX_VALUE when never. */
    private long expiresAtMs = Long.MAX_VALUE;

    ConnectionSession(ListenerSecurity listener, SSLEngine engine, LongSupplier clock) {
        this.listener = listener;
        this.engine = engine;
        this.clock = clock;
        this.state = listener.usesSasl() ? State.HANDSHAKE : State.AUTHENTICATED;
    }

    /** Whether the first login is done (always on listeners without SASL). */
    public boolean isAuthenticated() {
        return state == State.AUTHENTICATED || state == State.REAUTHENTICATE;
    }

    /** Whether SaslHandshake and SaslAuthenticate belong to this connection's first login (a SASL listener, not yet done). */
    public boolean expectsSasl() {
        return !isAuthenticated();
    }

    /**
     * Whether this connection's SaslHandshake and SaslAuthenticate requests are answered here: during the first login,
     * and, with connections.max.reauth.ms set, to re-authenticate (KIP-368).
     */
    public boolean handlesSasl() {
        return expectsSasl() || (mechanism != null && listener.reauthenticationMs() > 0);
    }

    /** Whether the SASL session has ended without a new login: the connection must then close (KIP-368). */
    public boolean isExpired() {
        return expiresAtMs != Long.MAX_VALUE && clock.getAsLong() >= expiresAtMs;
    }

    public String listenerName() {
        return listener.listenerName();
    }

    /** The authenticated principal; ANONYMOUS on PLAINTEXT and on TLS without a client certificate. */
    public KafkaPrincipal principal() {
        if (principal == null) {
            principal = certificatePrincipal();
        }
        return principal;
    }

    private KafkaPrincipal certificatePrincipal() {
        if (engine == null || engine.getSession() == null) {
            return KafkaPrincipal.ANONYMOUS;
        }
        try {
            String subject = engine.getSession().getPeerPrincipal().getName();
            return new KafkaPrincipal(
                    KafkaPrincipal.USER_TYPE, listener.principalMapper().getName(subject));
        } catch (SSLPeerUnverifiedException e) {
            return KafkaPrincipal.ANONYMOUS;
        } catch (IOException e) {
            LOG.warn(
                    "No ssl.principal.mapping.rules rule matches the client certificate on listener {}: {}",
                    listener.listenerName(),
                    e.getMessage());
            return KafkaPrincipal.ANONYMOUS;
        }
    }

    /** Answers a SaslHandshake request received before authentication. */
    public Step handshake(SaslHandshakeRequestData request, short version, String clientHost) {
        SaslHandshakeResponseData response = new SaslHandshakeResponseData().setMechanisms(listener.mechanisms());
        if (state == State.AUTHENTICATED && handlesSasl()) {
            if (!request.mechanism().equals(mechanism)) {
                LOG.info(
                        "Refusing re-authentication of {} from {} with {} instead of {}",
                        principal,
                        clientHost,
                        request.mechanism(),
                        mechanism);
                return new Step(response.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()), true, 0);
            }
            saslServer = listener.newSaslServer(mechanism);
            state = State.REAUTHENTICATE;
            return new Step(response.setErrorCode(Errors.NONE.code()), false, 0);
        }
        if (version == 0) {
            LOG.info(
                    "Refusing a v0 SaslHandshake (unframed tokens) from {} on listener {}",
                    clientHost,
                    listener.listenerName());
            return new Step(response.setErrorCode(Errors.ILLEGAL_SASL_STATE.code()), true, 0);
        }
        if (state != State.HANDSHAKE) {
            return new Step(response.setErrorCode(Errors.ILLEGAL_SASL_STATE.code()), true, 0);
        }
        saslServer = listener.newSaslServer(request.mechanism());
        if (saslServer == null) {
            LOG.info(
                    "Refusing SASL mechanism '{}' from {} on listener {} (offered: {})",
                    request.mechanism(),
                    clientHost,
                    listener.listenerName(),
                    listener.mechanisms());
            return new Step(response.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()), true, 0);
        }
        mechanism = request.mechanism();
        state = State.AUTHENTICATE;
        return new Step(response.setErrorCode(Errors.NONE.code()), false, 0);
    }

    /** Answers a SaslAuthenticate request received before authentication. */
    public Step authenticate(SaslAuthenticateRequestData request, short version, String clientHost) {
        SaslAuthenticateResponseData response = new SaslAuthenticateResponseData().setAuthBytes(new byte[0]);
        if (state != State.AUTHENTICATE && state != State.REAUTHENTICATE) {
            return new Step(
                    response.setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                            .setErrorMessage("SaslAuthenticate before SaslHandshake"),
                    true,
                    0);
        }
        try {
            byte[] challenge = saslServer.evaluateResponse(request.authBytes());
            response.setAuthBytes(challenge == null ? new byte[0] : challenge).setErrorCode(Errors.NONE.code());
            if (saslServer.isComplete()) {
                KafkaPrincipal authenticated =
                        new KafkaPrincipal(KafkaPrincipal.USER_TYPE, saslServer.getAuthorizationID());
                if (state == State.REAUTHENTICATE && !authenticated.equals(principal)) {
                    throw new AuthenticationException("Cannot change principals during re-authentication from "
                            + principal + " to " + authenticated);
                }
                principal = authenticated;
                state = State.AUTHENTICATED;
                long lifetimeMs = listener.reauthenticationMs();
                if (lifetimeMs > 0) {
                    expiresAtMs = clock.getAsLong() + lifetimeMs;
                    if (version >= 1) {
                        response.setSessionLifetimeMs(lifetimeMs);
                    }
                }
                dispose();
                LOG.debug("{} authenticated from {} on listener {}", principal, clientHost, listener.listenerName());
            }
            return new Step(response, false, 0);
        } catch (SaslException e) {
            String mechanismName = saslServer.getMechanismName();
            dispose();
            state = State.HANDSHAKE;
            String message =
                    e instanceof AuthenticationException ? e.getMessage() : "Authentication failed: " + e.getMessage();
            LOG.info(
                    "Failed {} authentication from {} on listener {}: {}",
                    mechanismName,
                    clientHost,
                    listener.listenerName(),
                    message);
            return new Step(
                    response.setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code())
                            .setErrorMessage(message),
                    true,
                    listener.failedAuthenticationDelayMs());
        }
    }

    private void dispose() {
        try {
            saslServer.dispose();
        } catch (SaslException ignored) {
            // Sluice's servers hold nothing that could fail to be released.
        }
        saslServer = null;
    }
}
