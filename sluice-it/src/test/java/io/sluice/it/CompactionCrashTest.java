package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker is SIGKILLed while its log cleaner rewrites a big compacted topic (throttled so the clean lasts, caught
 * in the act by its {@code .cleaned} file); after a restart on the same directory a consumer reads every key's latest
 * value at its original offset, and the cleaner finishes the job.
 */
class CompactionCrashTest {
    private static final String TOPIC = "compacted-crash";
    private static final int KEYS = 300;
    private static final int WRITES = 24_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(tempDir, "log.cleaner.io.max.bytes.per.second=3000000", "log.cleaner.backoff.ms=100");
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, CompactionCrashTest.class);
    }

    @Test
    void shouldKeepTheLatestValueOfEveryKeyAcrossASigkillDuringCleaning() throws Exception {
        Map<String, String> latestValue = new HashMap<>();
        Map<String, Long> latestOffset = new HashMap<>();
        try (Admin admin = TestClients.admin(broker.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1)
                            .configs(Map.of("segment.bytes", "1048576", "min.cleanable.dirty.ratio", "0.01"))))
                    .all()
                    .get();
            try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "none")) {
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                String padding = "x".repeat(900);
                for (int i = 0; i < WRITES; i++) {
                    String key = "key-" + (i % KEYS);
                    String value = "value-" + i + "-" + padding;
                    latestValue.put(key, value);
                    sent.add(producer.send(new ProducerRecord<>(TOPIC, bytes(key), bytes(value))));
                }
                for (int i = 0; i < WRITES; i++) {
                    latestOffset.put("key-" + (i % KEYS), sent.get(i).get().offset());
                }
            }
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, TOPIC),
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
        }
        Path partitionDir = broker.dataDir().resolve(TOPIC + "-0");
        Poll.until(
                "the cleaner is writing a .cleaned segment",
                TIMEOUT,
                () -> hasFileEndingWith(partitionDir, ".cleaned"),
                found -> found);
        broker.kill9();
        broker.restart();

        List<ConsumerRecord<byte[], byte[]>> afterRestart = readAll();
        assertLatest(afterRestart, latestValue, latestOffset);
        List<ConsumerRecord<byte[], byte[]>> cleaned = Poll.until(
                "the cleaner finishes after the restart",
                TIMEOUT,
                CompactionCrashTest::readAll,
                records -> records.size() < WRITES / 4);
        assertLatest(cleaned, latestValue, latestOffset);
    }

    private static void assertLatest(
            List<ConsumerRecord<byte[], byte[]>> records,
            Map<String, String> latestValue,
            Map<String, Long> latestOffset) {
        Map<String, ConsumerRecord<byte[], byte[]>> last = new HashMap<>();
        long previous = -1;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            assertTrue(record.offset() > previous, "offsets increase");
            previous = record.offset();
            last.put(new String(record.key(), StandardCharsets.UTF_8), record);
        }
        assertEquals(KEYS, last.size(), "every key is readable");
        for (Map.Entry<String, ConsumerRecord<byte[], byte[]>> e : last.entrySet()) {
            assertEquals(
                    latestValue.get(e.getKey()), new String(e.getValue().value(), StandardCharsets.UTF_8), e.getKey());
            assertEquals(latestOffset.get(e.getKey()), e.getValue().offset(), e.getKey() + " at its original offset");
        }
    }

    private static boolean hasFileEndingWith(Path dir, String suffix) throws Exception {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(suffix));
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll() {
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(broker.bootstrap())) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (consumer.position(partition) < end) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("not within " + TIMEOUT + ": reading " + partition + " to its end offset "
                            + end + "; stuck at position " + consumer.position(partition) + " after " + records.size()
                            + " records");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
