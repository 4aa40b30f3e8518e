package io.sluice.broker.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The status JSON's parts on their own: peer documents cut at every byte or spliced with garbage are refused whole,
 * never half-copied; a peer that answers garbage, an error status, too much or nothing shows as an error beside the
 * others; the throughput ring keeps its newest samples and turns counters into rates.
 */
class StatusJsonPartsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final byte[] DOCUMENT =
            "{\"groups\":[{\"group\":\"g\",\"lag\":[1,2,3],\"x\":null}]}".getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldCopyOneWellFormedValueAndRefuseEveryTruncationOrSplice() throws IOException {
        byte[] copied = JsonBody.of(json -> {
            json.writeStartObject();
            JsonBody.copyField("data", DOCUMENT, json);
            json.writeEndObject();
        });
        assertEquals(MAPPER.readTree(DOCUMENT), MAPPER.readTree(copied).get("data"));
        for (int cut = 0; cut < DOCUMENT.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(DOCUMENT, cut);
            assertRefusedWhole(truncated);
        }
        assertRefusedWhole("{\"a\":1}{\"b\":2}".getBytes(StandardCharsets.UTF_8));
        assertRefusedWhole("{\"a\":1} garbage".getBytes(StandardCharsets.UTF_8));
        assertRefusedWhole(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertRefusedWhole("[".repeat(100_000).getBytes(StandardCharsets.UTF_8));
    }

    private static void assertRefusedWhole(byte[] document) throws IOException {
        byte[] written = JsonBody.of(json -> {
            json.writeStartObject();
            assertThrows(IOException.class, () -> JsonBody.copyField("data", document, json));
            json.writeStringField("error", "refused");
            json.writeEndObject();
        });
        assertEquals("{\"error\":\"refused\"}", new String(written, StandardCharsets.UTF_8));
    }

    @Test
    void shouldShowEachBadPeerAsAnErrorBesideTheGoodOnes() throws Exception {
        HttpServer peers = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        peers.createContext("/good/api/groups", exchange -> reply(exchange, 200, "{\"groups\":[]}"));
        peers.createContext("/garbage/api/groups", exchange -> reply(exchange, 200, "{\"groups\":[}"));
        peers.createContext("/failing/api/groups", exchange -> reply(exchange, 500, "{}"));
        peers.createContext("/huge/api/groups", exchange -> {
            exchange.sendResponseHeaders(200, PeerFanOut.MAX_PEER_BODY_BYTES + 1);
            exchange.close();
        });
        peers.start();
        String base = "http://127.0.0.1:" + peers.getAddress().getPort();
        Map<Integer, String> bases = new TreeMap<>(Map.of(
                1,
                "http://self.invalid",
                2,
                base + "/good",
                3,
                base + "/garbage",
                4,
                base + "/failing",
                5,
                base + "/huge",
                6,
                "http://127.0.0.1:1"));
        try (PeerFanOut fanOut = new PeerFanOut(1, () -> bases)) {
            JsonNode answer = MAPPER.readTree(fanOut.gather("/api/groups", json -> {
                        json.writeStartObject();
                        json.writeStringField("self", "yes");
                        json.writeEndObject();
                    })
                    .get());
            assertEquals("cluster", answer.get("scope").asText());
            JsonNode brokers = answer.get("brokers");
            assertEquals(6, brokers.size(), answer.toString());
            assertEquals("yes", brokers.get(0).get("data").get("self").asText(), "self answered locally");
            assertTrue(brokers.get(1).get("data").get("groups").isArray(), answer.toString());
            for (int i = 2; i < 6; i++) {
                assertTrue(
                        brokers.get(i).has("error") && !brokers.get(i).has("data"),
                        brokers.get(i).toString());
                assertEquals(i + 1, brokers.get(i).get("broker").asInt());
            }
        } finally {
            peers.stop(0);
        }
    }

    private static void reply(com.sun.net.httpserver.HttpExchange exchange, int status, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Test
    void shouldKeepTheNewestSamplesAndReportRates() throws IOException {
        AtomicLong clock = new AtomicLong(0);
        AtomicLong bytesIn = new AtomicLong();
        ThroughputHistory history =
                new ThroughputHistory(bytesIn::get, () -> 0, () -> bytesIn.get() / 10, clock::get, 1000, 3);
        assertEquals(
                0, MAPPER.readTree(JsonBody.of(history::write)).get("samples").size());
        for (int i = 0; i < 5; i++) {
            history.sample();
            clock.addAndGet(1000);
            bytesIn.addAndGet(1000L * (i + 1));
        }
        JsonNode samples = MAPPER.readTree(JsonBody.of(history::write)).get("samples");
        assertEquals(2, samples.size(), "three kept samples make two rates: " + samples);
        assertEquals(3000.0, samples.get(0).get("bytesInPerSec").asDouble());
        assertEquals(4000.0, samples.get(1).get("bytesInPerSec").asDouble());
        assertEquals(400.0, samples.get(1).get("messagesInPerSec").asDouble());
        assertEquals(4000, samples.get(1).get("timeMs").asLong());
        assertThrows(
                IllegalArgumentException.class,
                () -> new ThroughputHistory(() -> 0, () -> 0, () -> 0, clock::get, 1000, 1));
    }
}
