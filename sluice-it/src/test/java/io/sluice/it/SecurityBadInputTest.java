package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.RawKafkaSocket;
import io.sluice.testkit.SluiceBrokerProcess;
import io.sluice.testkit.security.TestSecurity;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an unauthenticated or non-TLS peer can do to a secured broker: nothing but ApiVersions, SaslHandshake and
 * SaslAuthenticate before login; frames (and so SASL tokens) capped at sasl.server.max.receive.size before anything is
 * allocated for them; wrong passwords and unknown mechanisms refused with Kafka's error codes and the connection
 * closed; a plain-text client or a truncated TLS record on a TLS port closed. After each test, a proper client is
 * still served.
 */
class SecurityBadInputTest {
    private static final int SASL_CAP = 524_288;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    @TempDir
    static Path tempDir;

    static TestSecurity security;
    static SluiceBrokerProcess sasl;
    static SluiceBrokerProcess tls;

    @BeforeAll
    static void startBrokers() throws Exception {
        security = TestSecurity.create(tempDir.resolve("tls"));
        sasl = TestBroker.start(
                tempDir.resolve("sasl"),
                security.brokerSettings("SASL_PLAINTEXT", "PLAIN").toArray(new String[0]));
        tls = TestBroker.start(
                tempDir.resolve("ssl"), security.brokerSettings("SSL", "PLAIN").toArray(new String[0]));
    }

    @AfterAll
    static void stopBrokers() {
        TestBroker.stopAndKeepLog(sasl, SecurityBadInputTest.class);
        TestBroker.stopAndKeepLog(tls, SecurityBadInputTest.class);
    }

    @AfterEach
    void brokersStillServeProperClients() throws Exception {
        assertAdminWorks(
                sasl.bootstrap(),
                security.clientProperties("SASL_PLAINTEXT", "SCRAM-SHA-256", TestSecurity.PASSWORD, false));
        assertAdminWorks(tls.bootstrap(), security.clientProperties("SSL", null, null, true));
    }

    @Test
    void shouldCloseAConnectionThatSendsMetadataBeforeAuthenticating() throws Exception {
        try (RawProtocolClient client = RawProtocolClient.connect(sasl.bootstrap())) {
            client.sendOnly(new MetadataRequest.Builder(new MetadataRequestData()), ApiKeys.METADATA, (short) 12);
            assertTrue(client.socket().awaitClosedByPeer(CLOSE_WAIT), "closed after Metadata before login");
        }
    }

    @Test
    void shouldCloseOnAFrameAboveTheSaslCapWithoutWaitingForItsBody() throws Exception {
        try (RawKafkaSocket socket = RawKafkaSocket.connect(sasl.bootstrap())) {
            // 100 MB is below socket.request.max.bytes: only the pre-authentication cap refuses it, before any body
            // byte.
            socket.sendDeclaredFrame(100 * 1024 * 1024, new byte[16]);
            assertTrue(socket.awaitClosedByPeer(CLOSE_WAIT), "closed on a frame declared over the cap");
        }
        try (RawKafkaSocket socket = RawKafkaSocket.connect(sasl.bootstrap())) {
            socket.sendDeclaredFrame(SASL_CAP + 1, new byte[16]);
            assertTrue(socket.awaitClosedByPeer(CLOSE_WAIT), "closed one byte over the cap");
        }
    }

    @Test
    void shouldCloseOnGarbage() throws Exception {
        byte[] garbage = new byte[64];
        new java.util.Random(42).nextBytes(garbage);
        ByteBuffer.wrap(garbage).putInt(0, 60).putShort(4, (short) 0x7F7F);
        try (RawKafkaSocket socket = RawKafkaSocket.connect(sasl.bootstrap())) {
            socket.sendRaw(garbage);
            assertTrue(socket.awaitClosedByPeer(CLOSE_WAIT), "closed on garbage");
        }
    }

    @Test
    void shouldCloseOnASaslTokenOverTheCap() throws Exception {
        try (RawProtocolClient client = RawProtocolClient.connect(sasl.bootstrap())) {
            SaslHandshakeResponse handshake = client.send(
                    new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("PLAIN")),
                    ApiKeys.SASL_HANDSHAKE,
                    (short) 1);
            assertEquals(Errors.NONE, handshake.error());
            // The broker closes on the size prefix, so the write of the token's body may itself see the close.
            boolean closedWhileSending = false;
            try {
                client.sendOnly(
                        new SaslAuthenticateRequest.Builder(
                                new SaslAuthenticateRequestData().setAuthBytes(new byte[SASL_CAP + 1])),
                        ApiKeys.SASL_AUTHENTICATE,
                        (short) 2);
            } catch (SocketException closedByPeer) {
                closedWhileSending = true;
            }
            assertTrue(
                    closedWhileSending || client.socket().awaitClosedByPeer(CLOSE_WAIT),
                    "closed on a token over the cap");
        }
    }

    @Test
    void shouldRefuseAnUnknownMechanismAndClose() throws Exception {
        try (RawProtocolClient client = RawProtocolClient.connect(sasl.bootstrap())) {
            SaslHandshakeResponse handshake = client.send(
                    new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("GSSAPI")),
                    ApiKeys.SASL_HANDSHAKE,
                    (short) 1);
            assertEquals(Errors.UNSUPPORTED_SASL_MECHANISM, handshake.error());
            assertEquals(
                    List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"),
                    handshake.data().mechanisms());
            assertTrue(client.socket().awaitClosedByPeer(CLOSE_WAIT), "closed after an unknown mechanism");
        }
    }

    @Test
    void shouldRefuseAWrongPasswordAfterTheDelayAndClose() throws Exception {
        try (RawProtocolClient client = RawProtocolClient.connect(sasl.bootstrap())) {
            client.send(
                    new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("PLAIN")),
                    ApiKeys.SASL_HANDSHAKE,
                    (short) 1);
            long start = System.nanoTime();
            SaslAuthenticateResponse response = client.send(
                    new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
                            .setAuthBytes(
                                    ("\u0000" + TestSecurity.USER + "\u0000wrong").getBytes(StandardCharsets.UTF_8))),
                    ApiKeys.SASL_AUTHENTICATE,
                    (short) 2);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(Errors.SASL_AUTHENTICATION_FAILED, response.error());
            assertTrue(
                    tookMs >= 90,
                    "failed login answered after connection.failed.authentication.delay.ms, took " + tookMs);
            assertTrue(client.socket().awaitClosedByPeer(CLOSE_WAIT), "closed after a failed login");
        }
        for (String mechanism : List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")) {
            ExecutionException failed = assertThrows(
                    ExecutionException.class,
                    () -> assertAdminWorks(
                            sasl.bootstrap(), security.clientProperties("SASL_PLAINTEXT", mechanism, "wrong", false)));
            assertInstanceOf(SaslAuthenticationException.class, failed.getCause(), mechanism);
        }
    }

    @Test
    void shouldCloseAPlainTextClientOnATlsPort() throws Exception {
        try (RawKafkaSocket socket = RawKafkaSocket.connect(tls.bootstrap())) {
            socket.sendFrame(ByteBuffer.wrap(new byte[] {0, 18, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0}));
            assertTrue(socket.awaitClosedByPeer(CLOSE_WAIT), "closed a plain-text client");
        }
    }

    @Test
    void shouldCloseOnATruncatedTlsRecord() throws Exception {
        try (RawKafkaSocket socket = RawKafkaSocket.connect(tls.bootstrap())) {
            // A handshake record header claiming 16 KiB, 10 bytes of it, then end of stream.
            socket.sendRaw(new byte[] {0x16, 0x03, 0x03, 0x40, 0x00, 1, 0, 0x3F, (byte) 0xFC, 3, 3, 0, 0, 0, 0});
            socket.shutdownOutput();
            assertTrue(socket.awaitClosedByPeer(CLOSE_WAIT), "closed after a truncated TLS record");
        }
    }

    private static void assertAdminWorks(String bootstrap, Map<String, String> secured) throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        props.putAll(secured);
        try (Admin admin = Admin.create(props)) {
            admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
        }
    }
}
