package io.sluice.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.metrics.KafkaMetrics;
import io.sluice.broker.network.RequestContext;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Kafka's quota metric tags (DefaultQuotaCallback.quotaMetricTags), on a private MBean server with an injected clock:
 * client-id quotas give {@code client-id} only; user quotas {@code user} only; user and client-id quotas both; a client
 * no quota names is measured under the same rule; the throttle-time average counts only throttled requests; an idle
 * group's MBean goes after an hour.
 */
class QuotaMetricsTest {
    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private final KafkaMetrics metrics = new KafkaMetrics(server);
    private final AtomicLong now = new AtomicLong(1_000_000);

    @AfterEach
    void close() {
        metrics.close();
    }

    private ClientQuotas quotas(Map<String, Map<String, String>> configs) {
        return new ClientQuotas(() -> configs, 11, 1000, now::get, new QuotaMetrics(metrics, now::get));
    }

    private static RequestContext produce(String clientId) {
        return new RequestContext(
                new RequestHeader(ApiKeys.PRODUCE, ApiKeys.PRODUCE.latestVersion(), clientId, 1), "127.0.0.1", "c1");
    }

    private Set<String> beans() throws Exception {
        Set<String> names = new TreeSet<>();
        for (ObjectName name : server.queryNames(new ObjectName("kafka.server:*"), null)) {
            names.add(name.toString());
        }
        return names;
    }

    private double attribute(String bean, String attribute) throws Exception {
        return (Double) server.getAttribute(new ObjectName(bean), attribute);
    }

    @Test
    void shouldTagClientIdQuotasByClientIdOnly() throws Exception {
        ClientQuotas quotas = quotas(Map.of("clients/app", Map.of("producer_byte_rate", "1000")));
        quotas.account(produce("app"), false, 10_000, 0, new ProduceResponseData());
        quotas.account(produce("other"), false, 500, 0, new ProduceResponseData());
        assertEquals(
                Set.of("kafka.server:type=Produce,client-id=app", "kafka.server:type=Produce,client-id=other"),
                beans());
        assertEquals(
                1000.0,
                attribute("kafka.server:type=Produce,client-id=app", "byte-rate"),
                1e-9,
                "10000 bytes over ten whole windows of a second");
        assertTrue(Double.isNaN(attribute("kafka.server:type=Produce,client-id=app", "throttle-time")));

        assertTrue(quotas.account(produce("app"), false, 10_000, 0, new ProduceResponseData())
                        .throttleMs()
                > 0);
        assertEquals(10_000.0, attribute("kafka.server:type=Produce,client-id=app", "throttle-time"), 1e-9);
        assertEquals(
                0.0,
                quotas.account(produce("other"), false, 500, 0, new ProduceResponseData())
                        .throttleMs());
        assertTrue(
                Double.isNaN(attribute("kafka.server:type=Produce,client-id=other", "throttle-time")),
                "a client no quota names is measured but never throttled");
    }

    @Test
    void shouldTagUserQuotasByUserOnlyAndUserClientQuotasByBoth() throws Exception {
        quotas(Map.of("users/ANONYMOUS", Map.of("producer_byte_rate", "1000")))
                .account(produce("app"), false, 10, 0, new ProduceResponseData());
        quotas(Map.of("users/<default>/clients/<default>", Map.of("request_percentage", "50")))
                .account(produce("app"), false, 10, 1_000_000, new ProduceResponseData());
        assertEquals(
                Set.of(
                        "kafka.server:type=Produce,user=ANONYMOUS",
                        "kafka.server:type=Request,user=ANONYMOUS,client-id=app"),
                beans());
        assertEquals(
                0.01,
                attribute("kafka.server:type=Request,user=ANONYMOUS,client-id=app", "request-time"),
                1e-9,
                "1 ms of handler time (0.1 percent of a second) over ten seconds");
    }

    @Test
    void shouldDropAnIdleGroupsMetricsWithItsRate() throws Exception {
        ClientQuotas quotas = quotas(Map.of("clients/<default>", Map.of("producer_byte_rate", "1000")));
        quotas.account(produce("app"), false, 10, 0, new ProduceResponseData());
        assertFalse(beans().isEmpty());
        now.addAndGet(ClientQuotaManager.IDLE_EXPIRY_MS + 1);
        quotas.expireIdle();
        assertEquals(Set.of(), beans());
    }
}
