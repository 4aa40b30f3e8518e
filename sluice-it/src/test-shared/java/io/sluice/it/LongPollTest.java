package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fetch parked by {@code fetch.max.wait.ms} wakes when a record arrives instead of running out its wait.
 *
 * <p>Functional, not a timing measurement: the bound (4 s) only separates "woke on data" (milliseconds) from "sat out
 * the 5 s max wait".
 */
class LongPollTest {

    private static final int MAX_WAIT_MS = 5_000;
    private static final long WOKE_BOUND_NANOS = TimeUnit.SECONDS.toNanos(4);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(tempDir);
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, LongPollTest.class);
    }

    @Test
    void shouldAnswerParkedFetchSoonAfterRecordIsProduced() throws Exception {
        String topic = "long-poll";
        TestTopics.create(broker.bootstrap(), topic, 1);
        TopicPartition partition = new TopicPartition(topic, 0);
        Properties props = TestClients.consumerProps(broker.bootstrap());
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, Integer.toString(MAX_WAIT_MS));
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "1");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
                KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "none")) {
            producer.send(TestRecords.record(topic, 0, "warmup", 0)).get(30, TimeUnit.SECONDS);
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            assertEquals(1, consumer.position(partition), "end offset after the warm-up record");
            // Connect and park the first fetch: an empty poll returns, leaving a fetch in flight at the broker.
            assertTrue(consumer.poll(Duration.ofMillis(300)).isEmpty());

            CompletableFuture<Long> acknowledgedAt = CompletableFuture.supplyAsync(() -> {
                try {
                    producer.send(TestRecords.record(topic, 0, "long-poll", 1)).get(30, TimeUnit.SECONDS);
                    return System.nanoTime();
                } catch (Exception e) {
                    throw new IllegalStateException("produce failed", e);
                }
            });
            ConsumerRecords<byte[], byte[]> received = ConsumerRecords.empty();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (received.isEmpty() && System.nanoTime() < deadline) {
                received = consumer.poll(Duration.ofSeconds(10));
            }
            long receivedAt = System.nanoTime();
            long producedAt = acknowledgedAt.get(30, TimeUnit.SECONDS);

            assertEquals(1, received.count(), "one record received");
            ConsumerRecord<byte[], byte[]> record = received.iterator().next();
            TestRecords.assertIntact(record, "long-poll", 1);
            long waitedNanos = receivedAt - producedAt;
            assertTrue(
                    waitedNanos < WOKE_BOUND_NANOS,
                    "the parked fetch answered "
                            + TimeUnit.NANOSECONDS.toMillis(waitedNanos)
                            + " ms after the produce was acknowledged; a fetch"
                            + " that sits out fetch.max.wait.ms=" + MAX_WAIT_MS + " would take up to that long");
        }
    }
}
