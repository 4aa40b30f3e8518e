package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeletedRecords;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeleteRecords and DescribeProducers through kafka-clients' Admin against one broker: the log start advances (kept
 * through a restart), offsets below it answer OFFSET_OUT_OF_RANGE, whole segments below it leave the disk; Kafka's
 * errors beyond the high watermark and for compacted topics (unknown partitions: {@link AdminRequestsWireTest}); the idempotent producer that wrote
 * is described with its epoch and last sequence.
 */
class RecordsAdminApiTest {
    private static final int RECORDS = 200;

    @TempDir
    Path dataDir;

    private static void produce(String bootstrap, String topic, int count) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "value-" + i + "-padding-padding"))
                        .get();
            }
        }
    }

    private static long earliest(Admin admin, TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.earliest()))
                .partitionResult(tp)
                .get()
                .offset();
    }

    private static List<Path> segmentFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log"))
                    .sorted()
                    .toList();
        }
    }

    private static long baseOffset(Path segment) {
        String name = segment.getFileName().toString();
        return Long.parseLong(name.substring(0, name.length() - ".log".length()));
    }

    @Test
    void shouldAdvanceTheLogStartDeleteSegmentsBelowAndKeepItThroughARestart() throws Exception {
        TopicPartition tp = new TopicPartition("purged", 0);
        Map<String, String> overrides =
                Map.of("auto.create.topics.enable", "false", "log.segment.delete.delay.ms", "0");
        try (InProcessBroker broker = new InProcessBroker(dataDir, overrides);
                Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("purged", 1, (short) 1).configs(Map.of("segment.bytes", "1024"))))
                    .all()
                    .get();
            produce(broker.bootstrap(), "purged", RECORDS);
            Path dir = dataDir.resolve("purged-0");
            assertTrue(segmentFiles(dir).size() > 4, "several segments to delete");

            DeletedRecords deleted = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(120)))
                    .lowWatermarks()
                    .get(tp)
                    .get();
            assertEquals(120, deleted.lowWatermark());
            assertEquals(120, earliest(admin, tp));
            List<Path> left = Poll.until(
                    "segments entirely below 120 gone",
                    Duration.ofSeconds(30),
                    () -> segmentFiles(dir),
                    files -> files.size() > 0
                            && files.stream().skip(1).allMatch(f -> baseOffset(f) > 120)
                            && baseOffset(files.get(0)) <= 120);
            assertTrue(baseOffset(left.get(0)) <= 120);

            Properties c = new Properties();
            c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
            c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
            c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
            c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
                consumer.assign(List.of(tp));
                consumer.seek(tp, 10);
                assertThrows(OffsetOutOfRangeException.class, () -> consumer.poll(Duration.ofSeconds(30)));
                consumer.seek(tp, 120);
                var records = Poll.until(
                        "the first record kept",
                        Duration.ofSeconds(30),
                        () -> consumer.poll(Duration.ofMillis(100)),
                        r -> !r.isEmpty());
                assertEquals(120, records.iterator().next().offset());
                assertEquals(
                        "value-120-padding-padding", records.iterator().next().value());
            }

            // -1 means the high watermark; an offset at or below the start changes nothing.
            assertEquals(
                    RECORDS,
                    admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(-1)))
                            .lowWatermarks()
                            .get(tp)
                            .get()
                            .lowWatermark());
            assertEquals(
                    RECORDS,
                    admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(5)))
                            .lowWatermarks()
                            .get(tp)
                            .get()
                            .lowWatermark());
        }
        try (InProcessBroker again = new InProcessBroker(dataDir, overrides);
                Admin admin = again.admin()) {
            assertEquals(
                    RECORDS,
                    Poll.until(
                            "the restarted broker leads purged-0",
                            Duration.ofSeconds(30),
                            () -> earliest(admin, tp),
                            offset -> offset >= 0),
                    "the log start survives a restart");
        }
    }

    @Test
    void shouldRefuseWithKafkasErrorsAndChangeNothing() throws Exception {
        try (InProcessBroker broker = new InProcessBroker(dataDir, Map.of("auto.create.topics.enable", "false"));
                Admin admin = broker.admin()) {
            admin.createTopics(List.of(
                            new NewTopic("kept", 1, (short) 1),
                            new NewTopic("compacted", 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                    .all()
                    .get();
            produce(broker.bootstrap(), "kept", 10);
            TopicPartition kept = new TopicPartition("kept", 0);
            ExecutionException beyond = assertThrows(
                    ExecutionException.class,
                    () -> admin.deleteRecords(Map.of(kept, RecordsToDelete.beforeOffset(11)))
                            .lowWatermarks()
                            .get(kept)
                            .get());
            assertInstanceOf(org.apache.kafka.common.errors.OffsetOutOfRangeException.class, beyond.getCause());
            TopicPartition compacted = new TopicPartition("compacted", 0);
            ExecutionException policy = assertThrows(
                    ExecutionException.class,
                    () -> admin.deleteRecords(Map.of(compacted, RecordsToDelete.beforeOffset(0)))
                            .lowWatermarks()
                            .get(compacted)
                            .get());
            assertInstanceOf(PolicyViolationException.class, policy.getCause());
            assertEquals(0, earliest(admin, kept));
        }
    }

    @Test
    void shouldDescribeTheIdempotentProducerThatWrote() throws Exception {
        try (InProcessBroker broker = new InProcessBroker(dataDir, Map.of("auto.create.topics.enable", "false"));
                Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("produced", 2, (short) 1)))
                    .all()
                    .get();
            produce(broker.bootstrap(), "produced", 7);
            TopicPartition tp = new TopicPartition("produced", 0);
            List<ProducerState> producers = admin.describeProducers(List.of(tp))
                    .partitionResult(tp)
                    .get()
                    .activeProducers();
            assertEquals(1, producers.size(), producers::toString);
            ProducerState p = producers.get(0);
            assertTrue(p.producerId() >= 0);
            assertEquals(0, p.producerEpoch());
            assertEquals(6, p.lastSequence());
            assertTrue(p.lastTimestamp() > 0);
            assertTrue(p.coordinatorEpoch().isEmpty());
            assertTrue(p.currentTransactionStartOffset().isEmpty());
            TopicPartition idle = new TopicPartition("produced", 1);
            assertTrue(admin.describeProducers(List.of(idle))
                    .partitionResult(idle)
                    .get()
                    .activeProducers()
                    .isEmpty());
        }
    }
}
