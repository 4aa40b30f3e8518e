package io.sluice.broker.security;

import java.io.IOException;
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
 * ssl.principal.mapping.rules, else {@code User:ANONYMOUS}. Failures are logged with the user name and mechanism,
 * never a token or password.
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
    public record Step(ApiMessage response, boolean close, long delayMs) {
    }

    private enum State { HANDSHAKE, AUTHENTICATE, AUTHENTICATED }

    private final ListenerSecurity listener;
    private final SSLEngine engine;
    private State state;
    private SaslServer saslServer;
    private KafkaPrincipal principal;

    ConnectionSession(ListenerSecurity listener, SSLEngine engine) {
        this.listener = listener;
        this.engine = engine;
        this.state = listener.usesSasl() ? State.HANDSHAKE : State.AUTHENTICATED;
    }

    /** Whether requests other than ApiVersions, SaslHandshake and SaslAuthenticate may be served. */
    public boolean isAuthenticated() {
        return state == State.AUTHENTICATED;
    }

    /** Whether SaslHandshake and SaslAuthenticate belong to this connection's login (a SASL listener, not yet done). */
    public boolean expectsSasl() {
        return state != State.AUTHENTICATED;
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
            return new KafkaPrincipal(KafkaPrincipal.USER_TYPE, listener.principalMapper().getName(subject));
        } catch (SSLPeerUnverifiedException e) {
            return KafkaPrincipal.ANONYMOUS;
        } catch (IOException e) {
            LOG.warn("No ssl.principal.mapping.rules rule matches the client certificate on listener {}: {}",
                    listener.listenerName(), e.getMessage());
            return KafkaPrincipal.ANONYMOUS;
        }
    }

    /** Answers a SaslHandshake request received before authentication. */
    public Step handshake(SaslHandshakeRequestData request, short version, String clientHost) {
        SaslHandshakeResponseData response = new SaslHandshakeResponseData()
                .setMechanisms(listener.mechanisms());
        if (version == 0) {
            LOG.info("Refusing a v0 SaslHandshake (unframed tokens) from {} on listener {}", clientHost,
                    listener.listenerName());
            return new Step(response.setErrorCode(Errors.ILLEGAL_SASL_STATE.code()), true, 0);
        }
        if (state != State.HANDSHAKE) {
            return new Step(response.setErrorCode(Errors.ILLEGAL_SASL_STATE.code()), true, 0);
        }
        saslServer = listener.newSaslServer(request.mechanism());
        if (saslServer == null) {
            LOG.info("Refusing SASL mechanism '{}' from {} on listener {} (offered: {})", request.mechanism(), clientHost,
                    listener.listenerName(), listener.mechanisms());
            return new Step(response.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()), true, 0);
        }
        state = State.AUTHENTICATE;
        return new Step(response.setErrorCode(Errors.NONE.code()), false, 0);
    }

    /** Answers a SaslAuthenticate request received before authentication. */
    public Step authenticate(SaslAuthenticateRequestData request, String clientHost) {
        SaslAuthenticateResponseData response = new SaslAuthenticateResponseData().setAuthBytes(new byte[0]);
        if (state != State.AUTHENTICATE) {
            return new Step(response.setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                    .setErrorMessage("SaslAuthenticate before SaslHandshake"), true, 0);
        }
        try {
            byte[] challenge = saslServer.evaluateResponse(request.authBytes());
            response.setAuthBytes(challenge == null ? new byte[0] : challenge).setErrorCode(Errors.NONE.code());
            if (saslServer.isComplete()) {
                principal = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, saslServer.getAuthorizationID());
                state = State.AUTHENTICATED;
                dispose();
                LOG.debug("{} authenticated from {} on listener {}", principal, clientHost,
                        listener.listenerName());
            }
            return new Step(response, false, 0);
        } catch (SaslException e) {
            String mechanism = saslServer.getMechanismName();
            dispose();
            state = State.HANDSHAKE;
            String message = e instanceof AuthenticationException ? e.getMessage()
                    : "Authentication failed: " + e.getMessage();
            LOG.info("Failed {} authentication from {} on listener {}: {}", mechanism, clientHost,
                    listener.listenerName(), message);
            return new Step(response.setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code()).setErrorMessage(message),
                    true, listener.failedAuthenticationDelayMs());
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
