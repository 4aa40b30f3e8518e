package io.sluice.broker.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.api.InProcessBroker;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP listener of a running broker against bad input over raw sockets: unknown paths, other methods, an
 * oversized request line, oversized headers, a body, bytes that are not HTTP. Each gets its status code, and the
 * broker goes on serving scrapes and Kafka clients afterwards.
 */
class MetricsHttpListenerTest {
    private static final int SOCKET_TIMEOUT_MS = 30_000;

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

    /** Sends {@code request} as is and returns the response's status line and headers. */
    private static List<String> exchange(byte[] request) throws IOException {
        try (Socket socket = new Socket(http.getAddress(), http.getPort())) {
            socket.setSoTimeout(SOCKET_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // The server may answer and close before taking every byte of an oversized request; read the answer.
            }
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            List<String> head = new ArrayList<>();
            String line;
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                head.add(line);
            }
            return head;
        }
    }

    private static List<String> exchange(String request) throws IOException {
        return exchange(request.getBytes(StandardCharsets.US_ASCII));
    }

    private static String status(List<String> head) {
        assertTrue(!head.isEmpty(), "an HTTP answer");
        return head.get(0);
    }

    @Test
    void shouldAnswer404ForAnUnknownPath() throws IOException {
        assertEquals(
                "HTTP/1.1 404 Not Found",
                status(exchange("GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")));
        assertEquals(
                "HTTP/1.1 404 Not Found",
                status(exchange("GET /metrics/../etc HTTP/1.1\r\nConnection: close\r\n\r\n")));
    }

    @Test
    void shouldAnswer405WithAllowForOtherMethods() throws IOException {
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
            List<String> head = exchange(method + " /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertEquals("HTTP/1.1 405 Method Not Allowed", status(head), method);
            assertTrue(head.stream().anyMatch(h -> h.equalsIgnoreCase("allow: GET, HEAD")), head.toString());
        }
    }

    @Test
    void shouldAnswer414ForAnOversizedRequestLine() throws IOException {
        String path = "/" + "a".repeat(MetricsHttpServer.MAX_INITIAL_LINE_BYTES * 2);
        assertEquals(
                "HTTP/1.1 414 Request-URI Too Long",
                status(exchange("GET " + path + " HTTP/1.1\r\nConnection: close\r\n\r\n")));
    }

    @Test
    void shouldAnswer414ForALineThatNeverEnds() throws IOException {
        byte[] endless = new byte[1 << 20];
        Arrays.fill(endless, (byte) 'A');
        assertEquals("HTTP/1.1 414 Request-URI Too Long", status(exchange(endless)));
    }

    @Test
    void shouldAnswer431ForOversizedHeaders() throws IOException {
        String header = "X-Padding: " + "b".repeat(MetricsHttpServer.MAX_HEADER_BYTES * 2) + "\r\n";
        assertEquals(
                "HTTP/1.1 431 Request Header Fields Too Large",
                status(exchange("GET /metrics HTTP/1.1\r\n" + header + "Connection: close\r\n\r\n")));
    }

    @Test
    void shouldAnswer413ForARequestWithABody() throws IOException {
        String body = "x".repeat(100);
        assertEquals(
                "HTTP/1.1 413 Request Entity Too Large",
                status(exchange("POST /metrics HTTP/1.1\r\nHost: x\r\n" + "Content-Length: " + body.length()
                        + "\r\nConnection: close\r\n\r\n" + body)));
    }

    @Test
    void shouldAnswer400ForBytesThatAreNotHttp() throws IOException {
        assertEquals("HTTP/1.1 400 Bad Request", status(exchange(new byte[] {
            'G', 'E', 'T', ' ', '/', 0, 1, 2, ' ', 'H', '\r', '\n', 1, 2, 3, ':', '\r', '\n', '\r', '\n'
        })));
    }

    @Test
    void shouldKeepServingScrapesAndKafkaClientsAfterBadInput() throws Exception {
        exchange("BREW /metrics HTCPCP/1.0\r\n\r\n");
        exchange("GET /" + "c".repeat(100_000) + " HTTP/1.1\r\n\r\n");
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> scrape = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.getPort() + "/metrics?name[]=ignored"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, scrape.statusCode());
        assertTrue(scrape.body().contains("kafka_controller_kafkacontroller_activecontrollercount"), "a full scrape");
        HttpResponse<Void> head = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.getPort() + "/metrics"))
                        .method("HEAD", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        assertEquals(200, head.statusCode());

        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            assertEquals(
                    0,
                    producer.send(new ProducerRecord<>("after-bad-http", new byte[] {1}))
                            .get()
                            .offset());
        }
    }

    @Test
    void shouldBindToLoopbackByDefaultAndOnlyWhenConfigured() throws Exception {
        assertEquals("127.0.0.1", http.getAddress().getHostAddress(), "a bare port binds 127.0.0.1");
        try (InProcessBroker plain = new InProcessBroker(dataDir.resolve("plain"), Map.of())) {
            assertNull(plain.broker.httpAddress(), "no HTTP listener without sluice.http.listener");
        }
    }
}
