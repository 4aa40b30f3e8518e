package io.sluice.broker.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.broker.api.InProcessBroker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page's paths on the HTTP listener against bad input over raw sockets: other methods, unknown and
 * look-alike paths, undecodable URIs and queries, bodies and forged lengths, oversized lines and headers, pipelined
 * requests, random bytes. Each gets its status code (or a closed connection), and the broker keeps serving the page,
 * its JSON and Kafka clients.
 */
class StatusHttpBadInputTest {
    private static final int SOCKET_TIMEOUT_MS = 30_000;
    private static final List<String> PAGE_PATHS = List.of(
            "/",
            "/index.html",
            "/static/status.css",
            "/static/status.js",
            "/api/cluster",
            "/api/topics",
            "/api/groups",
            "/api/moves",
            "/api/throughput");

    @TempDir
    static Path dataDir;

    static InProcessBroker broker;
    static InetSocketAddress http;

    @BeforeAll
    static void start() throws Exception {
        broker = new InProcessBroker(dataDir, Map.of("sluice.http.listener", "0"));
        http = broker.broker.httpAddress();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** Sends {@code request} as is and ends the output, reads until the server closes, returns what it sent back. */
    private static String exchange(byte[] request) throws IOException {
        try (Socket socket = new Socket(http.getAddress(), http.getPort())) {
            socket.setSoTimeout(SOCKET_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
                // Nothing more comes: a request cut short is then ended by the server, not by the idle timeout.
                socket.shutdownOutput();
            } catch (IOException e) {
                // The server may answer and close before taking every byte; read the answer.
            }
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    answer.write(buffer, 0, n);
                }
            } catch (SocketException e) {
                // A reset after the answer (unread request bytes) still leaves the answer read so far.
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static String exchange(String request) throws IOException {
        return exchange(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String get(String path) throws IOException {
        return exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    }

    private static String statusLine(String answer) {
        int end = answer.indexOf("\r\n");
        assertTrue(end > 0, "an HTTP answer, got: " + answer);
        return answer.substring(0, end);
    }

    private static String body(String answer) {
        return answer.substring(answer.indexOf("\r\n\r\n") + 4);
    }

    @Test
    void shouldServeThePageItsFilesAndJsonWithSafeHeaders() throws IOException {
        String page = get("/");
        assertEquals("HTTP/1.1 200 OK", statusLine(page));
        assertTrue(page.toLowerCase(Locale.ROOT).contains("content-type: text/html; charset=utf-8"), page);
        assertTrue(page.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"), page);
        assertTrue(page.toLowerCase(Locale.ROOT).contains("x-content-type-options: nosniff"), page);
        assertTrue(get("/static/status.js").toLowerCase(Locale.ROOT).contains("content-type: text/javascript"));
        for (String path : PAGE_PATHS) {
            assertEquals("HTTP/1.1 200 OK", statusLine(get(path)), path);
        }
        for (String path : List.of(
                "/api/cluster",
                "/api/topics",
                "/api/groups",
                "/api/moves",
                "/api/throughput",
                "/api/groups?scope=cluster",
                "/api/moves?scope=cluster",
                "/api/throughput?scope=cluster",
                "/api/topics?scope=cluster")) {
            String answer = get(path);
            assertTrue(answer.toLowerCase(Locale.ROOT).contains("content-type: application/json; charset=utf-8"), path);
            new ObjectMapper().readTree(body(answer));
        }
    }

    @Test
    void shouldAnswer405ToEveryOtherMethodOnEveryPath() throws IOException {
        for (String path : PAGE_PATHS) {
            for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")) {
                String answer = exchange(method + " " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertEquals("HTTP/1.1 405 Method Not Allowed", statusLine(answer), method + " " + path);
                assertTrue(answer.contains("allow: GET, HEAD"), answer);
            }
        }
    }

    @Test
    void shouldAnswer404ToUnknownAndLookAlikePaths() throws IOException {
        for (String path : List.of(
                "/api",
                "/api/",
                "/api/nope",
                "/api/cluster/",
                "/api/CLUSTER",
                "/static/",
                "/static/../index.html",
                "/static/status.js/",
                "/static/other.js",
                "/index.htm",
                "/status",
                "//api/cluster",
                "/%2e%2e/etc/passwd",
                "/static/%2e%2e/status.js")) {
            assertEquals("HTTP/1.1 404 Not Found", statusLine(get(path)), path);
        }
    }

    @Test
    void shouldAnswer400ToUndecodableUrisAndBadScopes() throws IOException {
        for (String path : List.of(
                "/api/groups?scope=%zz",
                "/api/groups?scope=%",
                "/api/groups?scope=bogus",
                "/api/groups?scope=local&scope=cluster",
                "/api/throughput?scope=",
                "/api/cluster?scope=everything")) {
            assertEquals("HTTP/1.1 400 Bad Request", statusLine(get(path)), path);
        }
    }

    @Test
    void shouldAnswerHeadWithTheLengthAndNoBody() throws IOException {
        String answer = exchange("HEAD /api/cluster HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK", statusLine(answer));
        assertTrue(answer.toLowerCase(Locale.ROOT).contains("content-length: "), answer);
        assertEquals("", body(answer));
    }

    @Test
    void shouldRefuseBodiesAndForgedLengthsWithoutReadingThem() throws IOException {
        assertEquals(
                "HTTP/1.1 413 Request Entity Too Large",
                statusLine(exchange("GET /api/cluster HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")));
        assertEquals(
                "HTTP/1.1 413 Request Entity Too Large",
                statusLine(exchange("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\n")));
        String chunked = exchange("POST /api/topics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "10000000\r\n" + "z".repeat(1000));
        assertEquals("HTTP/1.1 413 Request Entity Too Large", statusLine(chunked));
    }

    @Test
    void shouldAnswer414And431ForOversizedLinesAndHeaders() throws IOException {
        assertEquals(
                "HTTP/1.1 414 Request-URI Too Long",
                statusLine(get("/api/groups?scope=" + "c".repeat(MetricsHttpServer.MAX_INITIAL_LINE_BYTES))));
        StringBuilder manyHeaders = new StringBuilder("GET / HTTP/1.1\r\nHost: x\r\n");
        for (int i = 0; i < 2_000; i++) {
            manyHeaders.append("X-").append(i).append(": y\r\n");
        }
        assertEquals(
                "HTTP/1.1 431 Request Header Fields Too Large",
                statusLine(exchange(manyHeaders.append("\r\n").toString())));
    }

    @Test
    void shouldAnswerPipelinedRequestsInOrder() throws IOException {
        String answers = exchange("GET /api/cluster HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api/topics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        int first = answers.indexOf("\"clusterId\"");
        int second = answers.indexOf("HTTP/1.1 404 Not Found");
        int third = answers.indexOf("{\"topics\":", second);
        assertTrue(first > 0 && second > first && third > second, answers);
    }

    @Test
    void shouldSurviveRandomBytesAndKeepServingPageJsonAndKafka() throws Exception {
        Random random = new Random(16);
        for (int i = 0; i < 50; i++) {
            byte[] garbage = new byte[1 + random.nextInt(3000)];
            random.nextBytes(garbage);
            String answer = exchange(garbage);
            assertTrue(answer.isEmpty() || answer.startsWith("HTTP/1.1 4"), "garbage " + i + " answered " + answer);
        }
        for (String cut : List.of("GET /api/clu", "GET /api/cluster HTTP/1.1\r\nHo", "GET / HTTP/1.1\r\nHost: x\r\n")) {
            try (Socket socket = new Socket(http.getAddress(), http.getPort())) {
                socket.getOutputStream().write(cut.getBytes(StandardCharsets.US_ASCII));
            }
        }
        assertEquals("HTTP/1.1 200 OK", statusLine(get("/api/cluster")));
        assertEquals("HTTP/1.1 200 OK", statusLine(get("/")));
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            assertEquals(
                    0,
                    producer.send(new ProducerRecord<>("after-bad-status-http", new byte[] {1}))
                            .get()
                            .offset());
        }
    }
}
