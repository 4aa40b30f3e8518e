package io.sluice.it.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offsets committed by a consumer group survive a clean broker restart and a SIGKILL: the admin client reads them
 * back with their metadata and leader epoch, and a consumer rejoining the group resumes exactly there.
 */
class CommittedOffsetsDurabilityTest {
    private static final String TOPIC = "durable";
    private static final String GROUP = "durable-group";
    private static final int PARTITIONS = 3;
    private static final int RECORDS_PER_PARTITION = 20;
    private static final long TIMEOUT_MS = 60_000;

    @TempDir
    Path tempDir;

    SluiceBrokerProcess broker;

    @BeforeEach
    void startBroker() throws Exception {
        broker = GroupIt.startBroker(tempDir);
        GroupIt.createTopic(broker.bootstrap(), TOPIC, PARTITIONS);
        try (KafkaProducer<String, String> producer = GroupIt.producer(broker.bootstrap())) {
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < RECORDS_PER_PARTITION; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, p, "k", "p" + p + "-" + i))
                            .get();
                }
            }
        }
    }

    @AfterEach
    void stopBroker() {
        GroupIt.stopAndKeepLog(broker, CommittedOffsetsDurabilityTest.class);
    }

    /** Subscribes and polls (which joins the group) until this only member owns every partition. */
    private static Set<TopicPartition> awaitEveryPartition(KafkaConsumer<String, String> consumer)
            throws InterruptedException {
        consumer.subscribe(List.of(TOPIC));
        return Poll.until(
                "the only member owns every partition",
                Duration.ofMillis(TIMEOUT_MS),
                () -> {
                    ConsumerRecords<String, String> ignored = consumer.poll(Duration.ofMillis(200));
                    return consumer.assignment();
                },
                assigned -> assigned.size() == PARTITIONS);
    }

    private Map<TopicPartition, OffsetAndMetadata> commitThroughGroup() throws InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> commits = Map.of(
                new TopicPartition(TOPIC, 0), new OffsetAndMetadata(5, "first"),
                new TopicPartition(TOPIC, 1), new OffsetAndMetadata(11, "second"),
                new TopicPartition(TOPIC, 2), new OffsetAndMetadata(RECORDS_PER_PARTITION, ""));
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(GroupIt.consumerProps(broker.bootstrap(), GROUP))) {
            awaitEveryPartition(consumer);
            consumer.commitSync(commits);
        }
        return commits;
    }

    private Map<TopicPartition, OffsetAndMetadata> committedByAdmin() throws Exception {
        try (Admin admin = GroupIt.admin(broker.bootstrap())) {
            return admin.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata()
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void assertCommitted(Map<TopicPartition, OffsetAndMetadata> expected, String when) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> actual = committedByAdmin();
        assertEquals(expected.keySet(), actual.keySet(), when);
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : expected.entrySet()) {
            assertEquals(e.getValue().offset(), actual.get(e.getKey()).offset(), when + " " + e.getKey());
            assertEquals(e.getValue().metadata(), actual.get(e.getKey()).metadata(), when + " " + e.getKey());
        }
    }

    /** A new member of the group starts each partition at its committed offset. */
    private void assertConsumerResumesAt(Map<TopicPartition, OffsetAndMetadata> committed) throws InterruptedException {
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(GroupIt.consumerProps(broker.bootstrap(), GROUP))) {
            Set<TopicPartition> assigned = awaitEveryPartition(consumer);
            Map<TopicPartition, OffsetAndMetadata> seen = consumer.committed(assigned);
            for (TopicPartition tp : assigned) {
                assertEquals(committed.get(tp).offset(), seen.get(tp).offset(), "committed() of " + tp);
                assertTrue(consumer.position(tp) >= committed.get(tp).offset(), "position of " + tp);
            }
            Optional<Integer> epoch = seen.get(new TopicPartition(TOPIC, 0)).leaderEpoch();
            assertTrue(epoch.isEmpty() || epoch.get() >= 0, "leader epoch is absent or valid: " + epoch);
        }
    }

    @Test
    void shouldKeepCommittedOffsetsAcrossCleanRestart() throws Exception {
        Map<TopicPartition, OffsetAndMetadata> commits = commitThroughGroup();
        assertCommitted(commits, "before restart");
        broker.restart();
        assertCommitted(commits, "after restart");
        assertConsumerResumesAt(commits);
    }

    @Test
    void shouldKeepCommittedOffsetsAcrossSigkill() throws Exception {
        Map<TopicPartition, OffsetAndMetadata> commits = commitThroughGroup();
        broker.kill9();
        broker.restart();
        assertCommitted(commits, "after SIGKILL and restart");
        assertConsumerResumesAt(commits);
        // The store keeps accepting commits after recovery.
        Map<TopicPartition, OffsetAndMetadata> again =
                Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(7, "again"));
        try (Admin admin = GroupIt.admin(broker.bootstrap())) {
            admin.alterConsumerGroupOffsets(GROUP, again).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
        broker.kill9();
        broker.restart();
        assertEquals(7L, committedByAdmin().get(new TopicPartition(TOPIC, 0)).offset());
    }
}
