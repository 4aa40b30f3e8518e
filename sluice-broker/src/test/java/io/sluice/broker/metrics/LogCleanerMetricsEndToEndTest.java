package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.api.InProcessBroker;
import io.sluice.testkit.Poll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log cleaner's Kafka gauges after a known clean, and its live reconfiguration. A topic is written with cleanup
 * policy delete (so nothing is cleaned while it is written): {@value #ROUNDS} rounds over {@value #KEYS} keys, one
 * equal-sized batch per record, in small segments. Then cleanup.policy=compact is set and the one cleaner thread,
 * whose offset map holds 1024 keys (log.cleaner.dedupe.buffer.size=24576, 24 bytes a key), cleans every closed segment
 * at once: it maps the {@value #KEYS} keys (0.977% of the map) and keeps one batch per key of the R batches it reads,
 * so cleaner-recopy-percent is 1000 / R. Then log.cleaner.threads goes from 1 to 2 through IncrementalAlterConfigs, as
 * {@code kafka-configs.sh --entity-type brokers --alter --add-config log.cleaner.threads=2} sends it, and the broker
 * runs two cleaner threads; tripling is refused as Kafka refuses it.
 */
class LogCleanerMetricsEndToEndTest {
    private static final String TOPIC = "cleaned";
    private static final int KEYS = 10;
    private static final int ROUNDS = 20;
    private static final int SEGMENT_BYTES = 1024;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CLEANER = "kafka.log:type=LogCleaner,name=";
    private static final String MANAGER = "kafka.log:type=LogCleanerManager,name=";

    @TempDir
    Path dataDir;

    InProcessBroker broker;
    JmxTestConnection jmx;

    @BeforeEach
    void start() throws Exception {
        broker = new InProcessBroker(
                dataDir,
                Map.of(
                        "log.cleaner.dedupe.buffer.size",
                        "24576",
                        "log.cleaner.backoff.ms",
                        "50",
                        "auto.create.topics.enable",
                        "false"));
        jmx = new JmxTestConnection();
    }

    @AfterEach
    void stop() throws Exception {
        jmx.close();
        broker.close();
    }

    private double gauge(String name) throws Exception {
        return jmx.number(name, "Value");
    }

    private String logGauge(String name) {
        return "kafka.log:type=Log,name=" + name + ",topic=" + TOPIC + ",partition=0";
    }

    @Test
    void shouldReportWhatTheCleanerDidUnderKafkasNames() throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1)
                            .configs(Map.of(
                                    "cleanup.policy",
                                    "delete",
                                    "segment.bytes",
                                    Integer.toString(SEGMENT_BYTES),
                                    "min.cleanable.dirty.ratio",
                                    "0.01"))))
                    .all()
                    .get();
            writeRounds();
            int records = KEYS * ROUNDS;
            double batchBytes = Poll.until("the Log gauges", WAIT, () -> gauge(logGauge("Size")), s -> s > 0) / records;
            long segments = (long) gauge(logGauge("NumLogSegments"));
            long perSegment = (long) (SEGMENT_BYTES / batchBytes);
            long closedRecords = (segments - 1) * perSegment;
            assertTrue(closedRecords >= KEYS, "every key is in the closed segments: " + closedRecords);

            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, TOPIC),
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET))))
                    .all()
                    .get();

            Poll.until("one clean", WAIT, () -> gauge(CLEANER + "max-clean-time-secs"), secs -> secs > 0);
            assertEquals(100.0 * KEYS / 1024, gauge(CLEANER + "max-buffer-utilization-percent"), 1e-9);
            assertEquals((int) (100.0 * KEYS / closedRecords), (int) gauge(CLEANER + "cleaner-recopy-percent"));
            assertEquals(0, gauge(CLEANER + "max-compaction-delay-secs"), "max.compaction.lag.ms is never reached");
            assertEquals(0, gauge(CLEANER + "DeadThreadCount"));
            Poll.until(
                    "nothing dirty left below the active segment",
                    WAIT,
                    () -> gauge(MANAGER + "max-dirty-percent"),
                    percent -> percent == 0);
            assertTrue(gauge(MANAGER + "time-since-last-run-ms") >= 0);
            String dir = ",logDirectory=" + dataDir.toAbsolutePath();
            assertEquals(0, gauge(MANAGER + "uncleanable-partitions-count" + dir));
            assertEquals(0, gauge(MANAGER + "uncleanable-bytes" + dir));
            assertEquals(records - closedRecords + KEYS, recordsLeft(), "one record per key below the active segment");
        }
    }

    @Test
    void shouldResizeTheCleanerPoolLiveAndRefuseMoreThanDoubling() throws Exception {
        assertEquals(1, cleanerThreads());
        try (Admin admin = broker.admin()) {
            ConfigResource thisBroker = new ConfigResource(ConfigResource.Type.BROKER, "0");
            admin.incrementalAlterConfigs(Map.of(
                            thisBroker,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("log.cleaner.threads", "2"), AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
            Poll.until("two cleaner threads", WAIT, LogCleanerMetricsEndToEndTest::cleanerThreads, n -> n == 2);
            ConfigEntry threads = admin.describeConfigs(List.of(thisBroker))
                    .all()
                    .get()
                    .get(thisBroker)
                    .get("log.cleaner.threads");
            assertEquals("2", threads.value());
            assertEquals(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG, threads.source());

            ConfigResource clusterDefault = new ConfigResource(ConfigResource.Type.BROKER, "");
            admin.incrementalAlterConfigs(Map.of(
                            clusterDefault,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("log.cleaner.io.max.bytes.per.second", "1048576"),
                                    AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
            ConfigEntry rate = Poll.until(
                    "the default I/O rate",
                    WAIT,
                    () -> admin.describeConfigs(List.of(thisBroker))
                            .all()
                            .get()
                            .get(thisBroker)
                            .get("log.cleaner.io.max.bytes.per.second"),
                    e -> Double.parseDouble(e.value()) == 1048576);
            assertEquals(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, rate.source());
            assertEquals(2, cleanerThreads(), "a rate change alone does not restart the threads");

            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> admin.incrementalAlterConfigs(Map.of(
                                    thisBroker,
                                    List.of(new AlterConfigOp(
                                            new ConfigEntry("log.cleaner.threads", "5"), AlterConfigOp.OpType.SET))))
                            .all()
                            .get());
            assertInstanceOf(InvalidConfigurationException.class, refused.getCause());
            assertTrue(
                    refused.getCause()
                            .getMessage()
                            .contains(
                                    "Log cleaner threads cannot be increased to more than double the current value 2"),
                    refused.getCause().getMessage());
        }
        assertEquals(2, cleanerThreads());
    }

    private static long cleanerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sluice-log-cleaner-"))
                .count();
    }

    private void writeRounds() throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int round = 0; round < ROUNDS; round++) {
                for (int key = 0; key < KEYS; key++) {
                    // equal sizes: every batch is one record of the same key and value lengths
                    producer.send(new ProducerRecord<>(
                                    TOPIC,
                                    ("key-" + key).getBytes(StandardCharsets.UTF_8),
                                    String.format(java.util.Locale.ROOT, "value-%02d", round)
                                            .getBytes(StandardCharsets.UTF_8)))
                            .get();
                }
            }
        }
    }

    private long recordsLeft() throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", broker.bootstrap());
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                props,
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            var partition = new org.apache.kafka.common.TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            long count = 0;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                count += consumer.poll(Duration.ofMillis(200)).count();
            }
            return count;
        }
    }
}
