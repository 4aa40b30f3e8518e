package io.sluice.codec.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EndpointTest {

    @Test
    void shouldCompareAndHashByBytesNotIdentity() {
        byte[] host = "broker-1.example".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Endpoint a = Endpoint.copyOf(host, 0, host.length, 9092);
        Endpoint b = Endpoint.of("broker-1.example", 9092);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(0, a.compareTo(b));
        assertNotEquals(a, Endpoint.of("broker-1.example", 9093));
        assertNotEquals(a, Endpoint.of("broker-2.example", 9092));
        assertTrue(Endpoint.of("a", 1).compareTo(Endpoint.of("b", 1)) < 0);
        assertTrue(Endpoint.of("a", 2).compareTo(Endpoint.of("a", 10)) < 0);
        assertTrue(Endpoint.of("\u00e9", 1).compareTo(Endpoint.of("z", 1)) > 0, "unsigned byte order");
    }

    @Test
    void shouldParseAndPrintAtTheEdges() {
        assertEquals(Endpoint.of("10.0.0.1", 9092), Endpoint.parse("10.0.0.1:9092"));
        Endpoint v6 = Endpoint.parse("[::1]:9093");
        assertEquals("::1", v6.host());
        assertEquals("[::1]:9093", v6.toString());
        assertEquals("h:1", Endpoint.of("h", 1).toString());
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("nohost"));
        assertThrows(IllegalArgumentException.class, () -> Endpoint.parse("h:x"));
        assertThrows(IllegalArgumentException.class, () -> Endpoint.of("h", 70000));
        assertThrows(IllegalArgumentException.class, () -> Endpoint.of("", 1));
    }

    @Test
    void shouldGiveIndependentOrdersForDifferentSeeds() {
        Endpoint a = Endpoint.of("a", 1);
        Endpoint b = Endpoint.of("b", 1);
        int agree = 0;
        for (int seed = 0; seed < 64; seed++) {
            if (Long.compare(a.seededHash(seed), b.seededHash(seed)) < 0) {
                agree++;
            }
        }
        assertTrue(agree > 10 && agree < 54, "seeds reorder the pair " + agree + "/64 times");
        assertEquals(a.seededHash(5), Endpoint.of("a", 1).seededHash(5));
    }
}
