package io.sluice.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kafka's quota arithmetic with explicit times (no clock): the windowed rate, the throttle time
 * {@code (rate - bound) / bound x window}, the request-time bound of one window, take-backs, the fetch cap, and the
 * precedence of quota entities with the groups that share a rate.
 */
class ClientQuotaManagerTest {
    private static final int SAMPLES = 11;
    private static final long WINDOW_MS = 1000;

    private static QuotaTable table(Map<String, Map<String, String>> configs) {
        return QuotaTable.of(configs);
    }

    @Test
    void shouldMeasureOverAtLeastTenWholeWindowsAsKafkaDoes() {
        RateSamples rate = new RateSamples(SAMPLES, WINDOW_MS);
        rate.record(10_000, 0);
        assertEquals(10_000, rate.windowSizeMs(0), "a fresh rate is taken over samples - 1 whole windows");
        assertEquals(1_000.0, rate.ratePerSecond(0), 1e-9);
        rate.record(10_000, 15_000);
        assertEquals(10_000.0 / 10.0, rate.ratePerSecond(15_000), 1e-9, "the first sample expired after 11 s");
        for (long t = 16_000; t <= 30_000; t += 1000) {
            rate.record(1000, t);
        }
        // 11 samples of the last 11 s are kept: 1000 bytes each, the oldest started at 20 s.
        assertEquals(10_000, rate.windowSizeMs(30_000));
        assertEquals(11_000 / 10.0, rate.ratePerSecond(30_000), 1e-9);
        assertEquals(11_000 / 10.5, rate.ratePerSecond(30_500), 1e-9, "the window grows within the current sample");
    }

    @Test
    void shouldThrottleByTheExcessOverTheBoundTimesTheWindow() {
        ClientQuotaManager produce = new ClientQuotaManager(QuotaType.PRODUCE, SAMPLES, WINDOW_MS, Integer.MAX_VALUE);
        QuotaTable quotas = table(Map.of("clients/app-1", Map.of("producer_byte_rate", "1000")));
        assertEquals(
                0,
                produce.recordAndGetThrottleTimeMs(quotas, "ANONYMOUS", "app-1", 10_000, 0),
                "10000 bytes over 10 s is 1000/s: at the bound, not above it");
        // 20000 bytes over 10 s = 2000/s, twice the bound: throttled for one more window's worth, (2000-1000)/1000 x 10
        // s.
        assertEquals(10_000, produce.recordAndGetThrottleTimeMs(quotas, "ANONYMOUS", "app-1", 10_000, 0));
        assertEquals(
                0,
                produce.recordAndGetThrottleTimeMs(quotas, "ANONYMOUS", "app-2", 1_000_000, 0),
                "another client id has no quota and records nothing");
        assertEquals(
                0,
                produce.recordAndGetThrottleTimeMs(quotas, "ANONYMOUS", "app-1", 0, 21_000),
                "every sample of the burst has expired");
    }

    @Test
    void shouldBoundARequestTimeThrottleByOneWindowAndTakeBackFetches() {
        ClientQuotaManager request = new ClientQuotaManager(QuotaType.REQUEST, SAMPLES, WINDOW_MS, WINDOW_MS);
        QuotaTable quotas = table(Map.of("clients/<default>", Map.of("request_percentage", "1.0")));
        assertEquals(WINDOW_MS, request.recordAndGetThrottleTimeMs(quotas, "ANONYMOUS", "any", 500.0, 0));

        ClientQuotaManager fetch = new ClientQuotaManager(QuotaType.FETCH, SAMPLES, WINDOW_MS, Integer.MAX_VALUE);
        QuotaTable fetchQuota = table(Map.of("clients/c", Map.of("consumer_byte_rate", "100")));
        assertEquals(9000, fetch.recordAndGetThrottleTimeMs(fetchQuota, "ANONYMOUS", "c", 1900, 0));
        fetch.unrecord(fetchQuota, "ANONYMOUS", "c", 1900, 0);
        assertEquals(
                0,
                fetch.recordAndGetThrottleTimeMs(fetchQuota, "ANONYMOUS", "c", 1000, 0),
                "the throttled fetch was taken back");
        assertEquals(100.0 * 10, fetch.maxValueInQuotaWindow(fetchQuota, "ANONYMOUS", "c"), 1e-9);
        assertEquals(Double.MAX_VALUE, fetch.maxValueInQuotaWindow(fetchQuota, "ANONYMOUS", "other"));
    }

    @Test
    void shouldPickQuotaEntitiesInKafkasOrderAndShareRatesByTheEntityFound() {
        Map<String, Map<String, String>> all = Map.of(
                "users/alice/clients/app", Map.of("producer_byte_rate", "1"),
                "users/alice/clients/<default>", Map.of("producer_byte_rate", "2"),
                "users/alice", Map.of("producer_byte_rate", "3"),
                "users/<default>/clients/app", Map.of("producer_byte_rate", "4"),
                "users/<default>/clients/<default>", Map.of("producer_byte_rate", "5"),
                "users/<default>", Map.of("producer_byte_rate", "6"),
                "clients/app", Map.of("producer_byte_rate", "7"),
                "clients/<default>", Map.of("producer_byte_rate", "8"));
        assertEquals(
                new QuotaTable.Resolution("alice", "app", 1), table(all).resolve(QuotaType.PRODUCE, "alice", "app"));
        assertEquals(
                new QuotaTable.Resolution("alice", "other", 2),
                table(all).resolve(QuotaType.PRODUCE, "alice", "other"));
        String[] order = {
            "users/alice/clients/app",
            "users/alice/clients/<default>",
            "users/alice",
            "users/<default>/clients/app",
            "users/<default>/clients/<default>",
            "users/<default>",
            "clients/app",
            "clients/<default>"
        };
        String[][] groups = {
            {"alice", "app"},
            {"alice", "app"},
            {"alice", ""},
            {"alice", "app"},
            {"alice", "app"},
            {"alice", ""},
            {"", "app"},
            {"", "app"}
        };
        Map<String, Map<String, String>> remaining = new java.util.TreeMap<>(all);
        for (int i = 0; i < order.length; i++) {
            QuotaTable.Resolution r = table(remaining).resolve(QuotaType.PRODUCE, "alice", "app");
            assertEquals(new QuotaTable.Resolution(groups[i][0], groups[i][1], i + 1), r, order[i]);
            remaining.remove(order[i]);
        }
        assertNull(table(remaining).resolve(QuotaType.PRODUCE, "alice", "app"));
        assertNull(table(all).resolve(QuotaType.FETCH, "alice", "app"), "a produce quota does not bound fetches");
        assertEquals(
                new QuotaTable.Resolution("a%2Fb", "", 9),
                table(Map.of("users/a%2Fb", Map.of("consumer_byte_rate", "9"))).resolve(QuotaType.FETCH, "a/b", "x y"),
                "names are sanitized");
    }
}
