package io.sluice.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.config.BrokerConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The principal of a TLS connection: the client certificate's subject mapped by ssl.principal.mapping.rules, or
 * ANONYMOUS without a certificate. Engines from {@link TlsSettings} shake hands in memory; stores are made with keytool.
 */
class CertificatePrincipalTest {
    private static final String PASSWORD = "store-secret";

    @TempDir
    static Path dir;

    @BeforeAll
    static void makeStores() throws Exception {
        keytool(
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "2",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-keystore",
                dir.resolve("broker.p12").toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD);
        keytool(
                "-genkeypair",
                "-alias",
                "client",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "2",
                "-dname",
                "CN=Client-1,OU=Payments,O=Sluice",
                "-keystore",
                dir.resolve("client.p12").toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD);
        for (String alias : List.of("broker", "client")) {
            keytool(
                    "-exportcert",
                    "-rfc",
                    "-alias",
                    alias,
                    "-keystore",
                    dir.resolve(alias + ".p12").toString(),
                    "-storepass",
                    PASSWORD,
                    "-file",
                    dir.resolve(alias + ".pem").toString());
            keytool(
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    alias,
                    "-file",
                    dir.resolve(alias + ".pem").toString(),
                    "-keystore",
                    dir.resolve("trust.p12").toString(),
                    "-storetype",
                    "PKCS12",
                    "-storepass",
                    PASSWORD);
        }
    }

    @Test
    void shouldMapTheClientCertificateSubjectWithTheRules() throws Exception {
        assertEquals(
                new KafkaPrincipal("User", "client-1"),
                principal("RULE:^CN=([^,]*),OU=Payments,.*$/$1/L,DEFAULT", true));
        assertEquals(new KafkaPrincipal("User", "CN=Client-1,OU=Payments,O=Sluice"), principal("DEFAULT", true));
    }

    @Test
    void shouldBeAnonymousWithoutACertificate() throws Exception {
        assertEquals(KafkaPrincipal.ANONYMOUS, principal("DEFAULT", false));
    }

    private static KafkaPrincipal principal(String rules, boolean clientCertificate) throws Exception {
        BrokerConfig serverConfig = BrokerConfig.fromMap(stores(
                "broker",
                Map.of(
                        "listeners",
                        "SSL://127.0.0.1:0",
                        "ssl.client.auth",
                        "requested",
                        "ssl.principal.mapping.rules",
                        rules)));
        ListenerSecurity server =
                ListenerSecurity.of(serverConfig, serverConfig.listeners().get(0));
        BrokerConfig clientConfig = clientCertificate
                ? BrokerConfig.fromMap(stores("client", Map.of("listeners", "SSL://127.0.0.1:0")))
                : trustOnly();
        SSLEngine serverEngine = server.newServerEngine();
        handshake(TlsSettings.forListener(clientConfig, "SSL").clientEngine("127.0.0.1", 9093), serverEngine);
        return server.newSession(serverEngine).principal();
    }

    private static BrokerConfig trustOnly() {
        return BrokerConfig.fromMap(Map.of(
                "listeners",
                "PLAINTEXT://127.0.0.1:0",
                "ssl.truststore.location",
                dir.resolve("trust.p12").toString(),
                "ssl.truststore.type",
                "PKCS12",
                "ssl.truststore.password",
                PASSWORD));
    }

    private static Map<String, String> stores(String key, Map<String, String> base) {
        Map<String, String> props = new HashMap<>(base);
        props.put("ssl.keystore.location", dir.resolve(key + ".p12").toString());
        props.put("ssl.keystore.type", "PKCS12");
        props.put("ssl.keystore.password", PASSWORD);
        props.put("ssl.truststore.location", dir.resolve("trust.p12").toString());
        props.put("ssl.truststore.type", "PKCS12");
        props.put("ssl.truststore.password", PASSWORD);
        return props;
    }

    /** Runs both engines' handshakes against each other through two in-memory buffers. */
    private static void handshake(SSLEngine client, SSLEngine server) throws Exception {
        ByteBuffer toServer = ByteBuffer.allocate(client.getSession().getPacketBufferSize() * 4);
        ByteBuffer toClient = ByteBuffer.allocate(server.getSession().getPacketBufferSize() * 4);
        ByteBuffer app = ByteBuffer.allocate(server.getSession().getApplicationBufferSize() * 2);
        ByteBuffer empty = ByteBuffer.allocate(0);
        client.beginHandshake();
        server.beginHandshake();
        for (int round = 0; round < 100 && !(done(client) && done(server)); round++) {
            step(client, empty, toServer, toClient, app);
            step(server, empty, toClient, toServer, app);
        }
        assertEquals(true, done(client) && done(server), "handshake finished");
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus status = engine.getHandshakeStatus();
        return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }

    private static void step(SSLEngine engine, ByteBuffer empty, ByteBuffer out, ByteBuffer in, ByteBuffer app)
            throws Exception {
        while (true) {
            HandshakeStatus status = engine.getHandshakeStatus();
            if (status == HandshakeStatus.NEED_TASK) {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            } else if (status == HandshakeStatus.NEED_WRAP) {
                engine.wrap(empty, out);
            } else if (status == HandshakeStatus.NEED_UNWRAP || status == HandshakeStatus.NEED_UNWRAP_AGAIN) {
                in.flip();
                int before = in.remaining();
                engine.unwrap(in, app);
                boolean progressed = in.remaining() < before || engine.getHandshakeStatus() != status;
                in.compact();
                app.clear();
                if (!progressed) {
                    return;
                }
            } else {
                return;
            }
        }
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + new String(output, StandardCharsets.UTF_8));
        }
    }
}
