package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.api.InProcessBroker;
import io.sluice.testkit.Poll;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's client quota metrics end to end: a client id held to a produce rate (and given a generous request quota)
 * produces a known number of bytes well past its quota while another client id produces a little, through
 * kafka-clients against an in-process broker; then the MBeans are read over a real JMX connection and the Prometheus
 * scrape checked with promtool. As in Kafka, a client-id quota gives MBeans tagged by client-id only (no user key),
 * every client is measured once its quota type has a quota, and only the throttled client has a throttle-time.
 */
class QuotaMetricsEndToEndTest {
    private static final String TOPIC = "quota-metrics";
    private static final String THROTTLED = "throttled-app";
    private static final String FREE = "free-app";
    private static final long QUOTA_BYTES_PER_SECOND = 50_000;
    private static final int RECORD_BYTES = 10_000;
    /** 1.5 x what the quota lets through in its ten whole windows: the last third is throttled. */
    private static final int THROTTLED_RECORDS = 75;

    private static final int FREE_RECORDS = 5;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dataDir;

    @TempDir
    static Path scratch;

    static InProcessBroker broker;
    static JmxTestConnection jmx;
    static double throttledTimeSeenMs;

    @BeforeAll
    static void produceWithAndWithoutQuota() throws Exception {
        broker =
                new InProcessBroker(dataDir, Map.of("sluice.http.listener", "0", "auto.create.topics.enable", "false"));
        jmx = new JmxTestConnection();
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, THROTTLED));
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                            entity,
                            List.of(
                                    new ClientQuotaAlteration.Op("producer_byte_rate", (double) QUOTA_BYTES_PER_SECOND),
                                    new ClientQuotaAlteration.Op("request_percentage", 10_000.0)))))
                    .all()
                    .get();
            Poll.until(
                    "the quota applied",
                    WAIT,
                    () -> admin.describeClientQuotas(org.apache.kafka.common.quota.ClientQuotaFilter.all())
                            .entities()
                            .get(),
                    e -> e.containsKey(entity));
        }
        produce(THROTTLED, THROTTLED_RECORDS);
        throttledTimeSeenMs = jmx.number(produceBean(THROTTLED), "throttle-time");
        produce(FREE, FREE_RECORDS);
    }

    private static void produce(String clientId, int records) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(TOPIC, new byte[RECORD_BYTES]))
                        .get();
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (jmx != null) {
            jmx.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static String produceBean(String clientId) {
        return "kafka.server:type=Produce,client-id=" + clientId;
    }

    @Test
    void shouldShowTheThrottledClientsByteRateAndThrottleTimeUnderKafkasName() throws Exception {
        assertTrue(throttledTimeSeenMs > 0, "throttle-time of the throttled client: " + throttledTimeSeenMs);
        double rate = jmx.number(produceBean(THROTTLED), "byte-rate");
        // The rate is measured over at least ten whole windows of 1 s, over request bytes (records plus framing).
        double sentBytes = (double) THROTTLED_RECORDS * RECORD_BYTES;
        assertTrue(rate > 0 && rate < sentBytes * 1.1 / 10, "byte-rate " + rate);
        assertFalse(
                jmx.exists("kafka.server:type=Produce,user=ANONYMOUS,client-id=" + THROTTLED),
                "a client-id quota's metrics carry no user tag");
    }

    @Test
    void shouldMeasureUnthrottledClientsOnceTheirQuotaTypeHasAQuota() throws Exception {
        double rate = jmx.number(produceBean(FREE), "byte-rate");
        assertTrue(rate > 0 && rate < (double) FREE_RECORDS * RECORD_BYTES * 1.1 / 10, "byte-rate " + rate);
        assertTrue(Double.isNaN(jmx.number(produceBean(FREE), "throttle-time")), "never throttled: no average");
    }

    @Test
    void shouldShowRequestTimeForTheClientWithARequestQuota() throws Exception {
        String bean = "kafka.server:type=Request,client-id=" + THROTTLED;
        assertTrue(jmx.number(bean, "request-time") >= 0);
        assertTrue(
                jmx.beans.getMBeanInfo(new javax.management.ObjectName(bean)).getAttributes().length == 2,
                "request-time and throttle-time");
        assertFalse(jmx.exists("kafka.server:type=Fetch,client-id=" + THROTTLED), "no fetch quota, no fetch metrics");
    }

    @Test
    void shouldServeTheQuotaMetricsInAScrapeThatPromtoolAccepts() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + broker.broker.httpAddress().getPort() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        String scrape = response.body();
        BrokerMetricsEndToEndTest.assertPromtoolAccepts(scrape, scratch);
        assertTrue(
                BrokerMetricsEndToEndTest.sample(
                                scrape, "kafka_server_produce_byte_rate{client_id=\"" + THROTTLED + "\"}")
                        > 0,
                scrape);
        assertTrue(scrape.contains("kafka_server_produce_throttle_time{client_id=\"" + THROTTLED + "\"}"), scrape);
        assertTrue(scrape.contains("kafka_server_request_request_time{client_id=\"" + THROTTLED + "\"}"), scrape);
    }
}
