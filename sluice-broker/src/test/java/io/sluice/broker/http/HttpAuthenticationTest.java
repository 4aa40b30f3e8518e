package io.sluice.broker.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.testkit.Poll;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice.http.authentication=basic} on a broker whose Kafka listener takes SASL PLAIN (JAAS accounts) and
 * SCRAM (credentials stored in the cluster): the same passwords open the HTTP listener, wrong or missing ones get 401
 * with the Basic challenge, malformed and over-long headers are refused, and the Kafka listener is unaffected.
 */
class HttpAuthenticationTest {
    private static final String PLAIN_JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"admin\" password=\"admin-pw\" user_admin=\"admin-pw\" user_alice=\"alice-pw\";";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dataDir;

    static SluiceBroker broker;
    static HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> props = new HashMap<>();
        props.put("log.dirs", dataDir.toString());
        props.put("listeners", "SASL_PLAINTEXT://127.0.0.1:0");
        props.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        props.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_JAAS);
        props.put("sluice.http.listener", "0");
        props.put("sluice.http.authentication", "basic");
        broker = SluiceBroker.start(BrokerConfig.fromMap(props));
        try (Admin admin = Admin.create(kafkaClient("admin", "admin-pw"))) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            "carol", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), "carol-pw")))
                    .all()
                    .get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    static Properties kafkaClient(String user, String password) {
        Properties p = new Properties();
        p.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.boundAddress().getPort());
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "PLAIN");
        p.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user + "\" password=\""
                        + password + "\";");
        return p;
    }

    private static HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + broker.httpAddress().getPort() + path));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldServeTheJaasAndScramUsersTheirPasswordOpens() throws Exception {
        assertEquals(200, get("/metrics", basic("alice", "alice-pw")).statusCode(), "a PLAIN JAAS account");
        assertEquals(200, get("/api/cluster", basic("admin", "admin-pw")).statusCode());
        assertEquals(
                200,
                Poll.until(
                        "carol's stored SCRAM credential applied",
                        WAIT,
                        () -> get("/metrics", basic("carol", "carol-pw")).statusCode(),
                        status -> status == 200));
        assertEquals(
                200,
                get("/", "basic " + basic("alice", "alice-pw").substring(6)).statusCode(),
                "the scheme is case-insensitive");
    }

    @Test
    void shouldAnswerMissingOrWrongLoginsWith401AndTheBasicChallenge() throws Exception {
        for (String authorization : new String[] {
            null, basic("alice", "wrong"), basic("nobody", "alice-pw"), basic("carol", "wrong"), "Bearer abc"
        }) {
            HttpResponse<String> response = get("/metrics", authorization);
            assertEquals(401, response.statusCode(), String.valueOf(authorization));
            assertEquals(
                    HttpAuthenticator.CHALLENGE,
                    response.headers().firstValue("WWW-Authenticate").orElse(""));
            assertTrue(!response.body().contains("kafka_"), "no metric leaks on a refused request");
        }
    }

    @Test
    void shouldRefuseMalformedAndOverLongAuthorizationHeaders() throws Exception {
        for (String malformed : new String[] {
            "Basic",
            "Basic !!!not-base64!!!",
            "Basic " + Base64.getEncoder().encodeToString("no-colon".getBytes(StandardCharsets.UTF_8)),
            "Basic " + Base64.getEncoder().encodeToString(":empty-user".getBytes(StandardCharsets.UTF_8))
        }) {
            assertEquals(400, rawStatus("Authorization: " + malformed), malformed);
        }
        assertEquals(431, rawStatus("Authorization: Basic " + "A".repeat(HttpAuthenticator.MAX_AUTHORIZATION_CHARS)));
        assertEquals(431, rawStatus("Authorization: Basic " + "A".repeat(20_000)), "over the listener's header bound");
        // the broker is unaffected: its Kafka listener still logs in and answers, its HTTP listener too
        try (Admin admin = Admin.create(kafkaClient("alice", "alice-pw"))) {
            assertEquals(1, admin.describeCluster().nodes().get().size());
        }
        assertEquals(200, get("/metrics", basic("alice", "alice-pw")).statusCode());
    }

    /** The status code answering a raw GET /metrics with {@code header} (what HttpClient refuses to send). */
    private static int rawStatus(String header) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", broker.httpAddress().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /metrics HTTP/1.1\r\nHost: localhost\r\n" + header + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] line = new byte[12];
            int read = 0;
            while (read < line.length) {
                int n = in.read(line, read, line.length - read);
                if (n < 0) {
                    break;
                }
                read += n;
            }
            return Integer.parseInt(new String(line, StandardCharsets.ISO_8859_1).substring(9, 12));
        }
    }
}
