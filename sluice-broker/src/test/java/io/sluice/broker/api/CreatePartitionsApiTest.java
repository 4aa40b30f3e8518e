package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CreatePartitions and CreateTopics' manual assignments through kafka-clients' Admin against one broker: partitions
 * added (placed or assigned), their logs created and led here, produced to and consumed from; validateOnly changes
 * nothing; Kafka's errors for counts that are no increase, unknown topics, bad assignments and the offsets topic.
 */
class CreatePartitionsApiTest {
    @TempDir
    static Path dataDir;

    static InProcessBroker broker;
    static Admin admin;
    static int self;

    @BeforeAll
    static void start() throws Exception {
        broker = new InProcessBroker(dataDir, Map.of("auto.create.topics.enable", "false"));
        admin = broker.admin();
        self = broker.broker.cluster().self().id();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    private static TopicDescription describe(String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
    }

    private static Throwable refusal(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(ExecutionException.class, call).getCause();
    }

    @Test
    void shouldAddPartitionsThatAreLedHereAndServeRecords() throws Exception {
        admin.createTopics(List.of(new NewTopic("grow", 1, (short) 1))).all().get();
        admin.createPartitions(Map.of("grow", NewPartitions.increaseTo(4)))
                .all()
                .get();
        TopicDescription grown = describe("grow");
        assertEquals(4, grown.partitions().size());
        for (int p = 0; p < 4; p++) {
            assertEquals(self, grown.partitions().get(p).leader().id());
            assertTrue(Files.isDirectory(dataDir.resolve("grow-" + p)), "the log of grow-" + p);
        }
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        RecordMetadata written;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            written = producer.send(new ProducerRecord<>("grow", 3, "k", "in the new partition"))
                    .get();
        }
        assertEquals(3, written.partition());
        assertEquals(0, written.offset());
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            TopicPartition tp = new TopicPartition("grow", 3);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<ConsumerRecord<String, String>> read = new ArrayList<>();
            Poll.until(
                    "a record of the new partition",
                    Duration.ofSeconds(60),
                    () -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(read::add);
                        return read;
                    },
                    r -> !r.isEmpty());
            assertEquals("in the new partition", read.get(0).value());
        }
    }

    @Test
    void shouldTakeManualAssignmentsAndValidateOnlyWithoutChanging() throws Exception {
        admin.createTopics(List.of(new NewTopic("assigned", 2, (short) 1)))
                .all()
                .get();
        admin.createPartitions(
                        Map.of("assigned", NewPartitions.increaseTo(5)),
                        new CreatePartitionsOptions().validateOnly(true))
                .all()
                .get();
        assertEquals(2, describe("assigned").partitions().size(), "validateOnly changes nothing");
        admin.createPartitions(Map.of("assigned", NewPartitions.increaseTo(3, List.of(List.of(self)))))
                .all()
                .get();
        assertEquals(
                List.of(self),
                describe("assigned").partitions().get(2).replicas().stream()
                        .map(n -> n.id())
                        .toList());
    }

    @Test
    void shouldRefuseWithTheErrorsKafkaReturnsAndChangeNothing() throws Exception {
        admin.createTopics(List.of(new NewTopic("fixed", 3, (short) 1))).all().get();
        Throwable same = refusal(() -> admin.createPartitions(Map.of("fixed", NewPartitions.increaseTo(3)))
                .all()
                .get());
        assertInstanceOf(InvalidPartitionsException.class, same);
        assertEquals("Topic already has 3 partitions.", same.getMessage());
        assertInstanceOf(
                InvalidPartitionsException.class,
                refusal(() -> admin.createPartitions(Map.of("fixed", NewPartitions.increaseTo(2)))
                        .all()
                        .get()));
        assertInstanceOf(
                UnknownTopicOrPartitionException.class,
                refusal(() -> admin.createPartitions(Map.of("missing", NewPartitions.increaseTo(2)))
                        .all()
                        .get()));
        assertInstanceOf(
                InvalidReplicaAssignmentException.class,
                refusal(() -> admin.createPartitions(
                                Map.of("fixed", NewPartitions.increaseTo(5, List.of(List.of(self)))))
                        .all()
                        .get()));
        assertInstanceOf(
                InvalidReplicaAssignmentException.class,
                refusal(() -> admin.createPartitions(
                                Map.of("fixed", NewPartitions.increaseTo(4, List.of(List.of(self + 100)))))
                        .all()
                        .get()));
        assertInstanceOf(
                InvalidReplicaAssignmentException.class,
                refusal(() -> admin.createPartitions(
                                Map.of("fixed", NewPartitions.increaseTo(4, List.of(List.of(self, self)))))
                        .all()
                        .get()));
        assertEquals(3, describe("fixed").partitions().size());
        assertFalse(Files.exists(dataDir.resolve("fixed-3")));
    }

    @Test
    void shouldRefuseToChangeTheOffsetsTopic() throws Exception {
        // Any group operation creates __consumer_offsets; the coordinator look-up is enough.
        admin.listConsumerGroupOffsets("g").partitionsToOffsetAndMetadata().get();
        Throwable refused =
                refusal(() -> admin.createPartitions(Map.of("__consumer_offsets", NewPartitions.increaseTo(1000)))
                        .all()
                        .get());
        assertInstanceOf(InvalidRequestException.class, refused);
    }

    @Test
    void shouldCreateTopicsOnManualAssignments() throws Exception {
        NewTopic manual = new NewTopic("manual", Map.of(0, List.of(self), 1, List.of(self)));
        admin.createTopics(List.of(manual), new CreateTopicsOptions().validateOnly(true))
                .all()
                .get();
        assertFalse(admin.listTopics().names().get().contains("manual"));
        admin.createTopics(List.of(manual)).all().get();
        assertEquals(2, describe("manual").partitions().size());
        assertInstanceOf(
                InvalidReplicaAssignmentException.class,
                refusal(() -> admin.createTopics(List.of(new NewTopic("nobody", Map.of(0, List.of(self + 100)))))
                        .all()
                        .get()));
        assertInstanceOf(
                InvalidReplicaAssignmentException.class,
                refusal(() -> admin.createTopics(
                                List.of(new NewTopic("gap", Map.of(0, List.of(self), 2, List.of(self)))))
                        .all()
                        .get()));
        assertInstanceOf(
                InvalidReplicaAssignmentException.class,
                refusal(() -> admin.createTopics(List.of(new NewTopic("empty", Map.of(0, List.<Integer>of()))))
                        .all()
                        .get()));
        assertFalse(admin.listTopics().names().get().contains("nobody"));
        assertTrue(new String(
                        Files.readAllBytes(dataDir.resolve("manual-1").resolve("partition.metadata")),
                        StandardCharsets.UTF_8)
                .contains("topic_id"));
    }
}
