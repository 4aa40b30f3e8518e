package io.sluice.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.junit.jupiter.api.Test;

/** KIP-368 on one connection: the session lifetime, its expiry, and what a new login may and may not change. */
class ReauthenticationTest {
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "user_alice=\"a-pw\" user_bob=\"b-pw\";";
    private final AtomicLong now = new AtomicLong(1_000);

    private ConnectionSession session(long reauthMs) {
        BrokerConfig config = BrokerConfig.fromMap(Map.of(
                "listeners",
                "SASL_PLAINTEXT://127.0.0.1:0",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                JAAS,
                "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config",
                JAAS.replace("plain.Plain", "scram.Scram"),
                "connections.max.reauth.ms",
                Long.toString(reauthMs)));
        ListenerSecurity listener =
                ListenerSecurity.of(config, config.listeners().get(0));
        return new ConnectionSession(listener, null, now::get);
    }

    private static ConnectionSession.Step login(
            ConnectionSession session, String mechanism, String user, String password) {
        ConnectionSession.Step handshake =
                session.handshake(new SaslHandshakeRequestData().setMechanism(mechanism), (short) 1, "h");
        if (handshake.close()) {
            return handshake;
        }
        byte[] token = ("\u0000" + user + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
        return session.authenticate(new SaslAuthenticateRequestData().setAuthBytes(token), (short) 2, "h");
    }

    @Test
    void shouldTellTheLifetimeExpireAndRenewOnANewLoginAsTheSameUser() {
        ConnectionSession session = session(5_000);
        ConnectionSession.Step first = login(session, "PLAIN", "alice", "a-pw");
        assertEquals(5_000, ((SaslAuthenticateResponseData) first.response()).sessionLifetimeMs());
        assertEquals(new KafkaPrincipal("User", "alice"), session.principal());
        assertTrue(session.handlesSasl());
        now.addAndGet(4_999);
        assertFalse(session.isExpired());
        now.addAndGet(1);
        assertTrue(session.isExpired());
        ConnectionSession.Step again = login(session, "PLAIN", "alice", "a-pw");
        assertFalse(again.close());
        assertEquals(Errors.NONE.code(), ((SaslAuthenticateResponseData) again.response()).errorCode());
        assertFalse(session.isExpired());
        assertTrue(session.isAuthenticated());
    }

    @Test
    void shouldRefuseANewLoginAsAnotherUserOrWithAnotherMechanism() {
        ConnectionSession session = session(5_000);
        login(session, "PLAIN", "alice", "a-pw");
        ConnectionSession.Step other = login(session, "PLAIN", "bob", "b-pw");
        assertTrue(other.close());
        assertEquals(
                Errors.SASL_AUTHENTICATION_FAILED.code(),
                ((SaslAuthenticateResponseData) other.response()).errorCode());

        ConnectionSession second = session(5_000);
        login(second, "PLAIN", "alice", "a-pw");
        assertTrue(login(second, "SCRAM-SHA-256", "alice", "a-pw").close());
    }

    @Test
    void shouldNeitherExpireNorAcceptNewLoginsWhenReauthenticationIsOff() {
        ConnectionSession session = session(0);
        ConnectionSession.Step first = login(session, "PLAIN", "alice", "a-pw");
        assertEquals(0, ((SaslAuthenticateResponseData) first.response()).sessionLifetimeMs());
        now.addAndGet(Long.MAX_VALUE / 2);
        assertFalse(session.isExpired());
        assertFalse(session.handlesSasl());
    }
}
