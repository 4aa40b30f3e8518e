package io.sluice.broker.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.broker.api.InProcessBroker;
import io.sluice.broker.group.GroupLag;
import io.sluice.broker.metrics.ConsumerLagMetrics;
import io.sluice.testkit.Poll;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group with a known backlog on a real broker, through kafka-clients: records produced to three partitions, the
 * group commits known offsets, more records arrive. The coordinator's lag, the JMX gauges, the Prometheus samples and
 * the {@code /api/groups} JSON must all equal what kafka-consumer-groups.sh computes: the ListOffsets "latest" end
 * (high watermark) minus the committed offset, partition by partition.
 */
class ConsumerLagEndToEndTest {
    private static final String TOPIC = "backlog";
    private static final String GROUP = "lagging-readers";
    private static final int PARTITIONS = 3;
    private static final Duration SETTLE = Duration.ofSeconds(60);
    /** Records per partition produced, and offsets the group commits: lag is 40, 25 and 5. */
    private static final long[] PRODUCED = {50, 30, 5};

    private static final long[] COMMITTED = {10, 5, 0};
    private static final String LAG_SUM_SAMPLE =
            "kafka_consumergroup_lag_sum{consumergroup=\"" + GROUP + "\",topic=\"" + TOPIC + "\"}";

    @TempDir
    static Path dataDir;

    static InProcessBroker broker;
    static Map<TopicPartition, Long> expectedLag;

    @BeforeAll
    static void startWithBacklog() throws Exception {
        broker = new InProcessBroker(dataDir, Map.of("sluice.http.listener", "0", "offsets.topic.num.partitions", "3"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < PRODUCED[p]; i++) {
                    acks.add(producer.send(new ProducerRecord<>(TOPIC, p, null, new byte[] {(byte) i})));
                }
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(30, TimeUnit.SECONDS);
            }
        }
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                commits.put(new TopicPartition(TOPIC, p), new OffsetAndMetadata(COMMITTED[p]));
            }
            consumer.commitSync(commits, Duration.ofSeconds(30));
        }
        expectedLag = lagAsKafkaToolComputesIt();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** What kafka-consumer-groups.sh --describe does: committed offsets, ListOffsets latest, subtract. */
    private static Map<TopicPartition, Long> lagAsKafkaToolComputesIt() throws Exception {
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            committed.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, Long> lag = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
            committed.forEach((tp, offset) -> lag.put(tp, ends.get(tp).offset() - offset.offset()));
            return lag;
        }
    }

    @Test
    void shouldComputeLagAsLogEndOffsetMinusCommittedOffset() {
        assertEquals(
                Map.of(
                        new TopicPartition(TOPIC, 0),
                        40L,
                        new TopicPartition(TOPIC, 1),
                        25L,
                        new TopicPartition(TOPIC, 2),
                        5L),
                expectedLag,
                "the tool's view of the backlog made");
        List<GroupLag> groups = broker.broker.status().consumerLag().groups();
        assertEquals(1, groups.size(), groups.toString());
        GroupLag group = groups.get(0);
        assertEquals(GROUP, group.groupId());
        assertEquals(70, group.totalLag());
        for (GroupLag.PartitionLag p : group.partitions()) {
            assertEquals(expectedLag.get(new TopicPartition(p.topic(), p.partition())), p.lag(), p.toString());
            assertEquals(PRODUCED[p.partition()], p.logEndOffset(), p.toString());
            assertEquals(COMMITTED[p.partition()], p.committedOffset(), p.toString());
        }
    }

    @Test
    void shouldExportLagThroughJmxWithKafkaExporterNames() throws Exception {
        var beans = ManagementFactory.getPlatformMBeanServer();
        for (Map.Entry<TopicPartition, Long> e : expectedLag.entrySet()) {
            ObjectName lag =
                    ConsumerLagMetrics.lag(GROUP, TOPIC, e.getKey().partition()).objectName();
            assertEquals(
                    "kafka:type=consumergroup,name=lag,consumergroup=" + GROUP + ",topic=" + TOPIC + ",partition="
                            + e.getKey().partition(),
                    lag.toString());
            Poll.until(lag + " registered", SETTLE, () -> beans.isRegistered(lag), registered -> registered);
            assertEquals(e.getValue(), ((Number) beans.getAttribute(lag, "Value")).longValue(), lag.toString());
            ObjectName committed = ConsumerLagMetrics.currentOffset(
                            GROUP, TOPIC, e.getKey().partition())
                    .objectName();
            Poll.until(
                    committed + " registered", SETTLE, () -> beans.isRegistered(committed), registered -> registered);
            assertEquals(
                    COMMITTED[e.getKey().partition()], ((Number) beans.getAttribute(committed, "Value")).longValue());
        }
        ObjectName sum = ConsumerLagMetrics.lagSum(GROUP, TOPIC).objectName();
        Poll.until(sum + " registered", SETTLE, () -> beans.isRegistered(sum), registered -> registered);
        assertEquals(70L, ((Number) beans.getAttribute(sum, "Value")).longValue());
    }

    @Test
    void shouldScrapeLagOnPrometheus() throws Exception {
        String scrape = Poll.until(
                "lag gauges on /metrics",
                SETTLE,
                () -> get("/metrics").body(),
                // the gauges are registered one by one: wait until every partition's and the sum's are there
                body -> body.contains(LAG_SUM_SAMPLE)
                        && expectedLag.keySet().stream()
                                .allMatch(tp -> lagSample(tp, body).find()));
        for (Map.Entry<TopicPartition, Long> e : expectedLag.entrySet()) {
            Matcher sample = lagSample(e.getKey(), scrape);
            assertTrue(sample.find(), "a lag sample for " + e.getKey() + " in\n" + scrape);
            assertEquals(
                    e.getValue().doubleValue(),
                    Double.parseDouble(sample.group(1)),
                    e.getKey().toString());
        }
        assertTrue(scrape.contains(LAG_SUM_SAMPLE + " 70.0"), scrape);
    }

    private static Matcher lagSample(TopicPartition partition, String scrape) {
        return Pattern.compile("(?m)^kafka_consumergroup_lag\\{consumergroup=\"" + GROUP + "\",partition=\""
                        + partition.partition() + "\",topic=\"" + TOPIC + "\"} (\\S+)$")
                .matcher(scrape);
    }

    @Test
    void shouldServeLagAsJson() throws Exception {
        HttpResponse<String> answer = get("/api/groups");
        assertEquals(200, answer.statusCode());
        assertEquals(
                "application/json; charset=utf-8",
                answer.headers().firstValue("content-type").orElse(""));
        JsonNode groups = new ObjectMapper().readTree(answer.body()).get("groups");
        assertEquals(1, groups.size(), answer.body());
        JsonNode group = groups.get(0);
        assertEquals(GROUP, group.get("group").asText());
        assertEquals(70, group.get("totalLag").asLong());
        for (JsonNode p : group.get("partitions")) {
            TopicPartition tp = new TopicPartition(
                    p.get("topic").asText(), p.get("partition").asInt());
            assertEquals(expectedLag.get(tp), p.get("lag").asLong(), p.toString());
            assertEquals(
                    p.get("logEndOffset").asLong() - p.get("committedOffset").asLong(),
                    p.get("lag").asLong());
        }
        JsonNode cluster =
                new ObjectMapper().readTree(get("/api/groups?scope=cluster").body());
        assertEquals("cluster", cluster.get("scope").asText());
        assertEquals(
                70,
                cluster.get("brokers")
                        .get(0)
                        .get("data")
                        .get("groups")
                        .get(0)
                        .get("totalLag")
                        .asLong(),
                cluster.toString());
    }

    static HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + broker.broker.httpAddress().getPort() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }
}
