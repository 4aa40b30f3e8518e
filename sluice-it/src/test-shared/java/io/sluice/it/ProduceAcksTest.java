package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Produce with acks 0, 1 and all (idempotence off for 0 and 1, as the Java client requires): every record lands once,
 * in order. With acks=0 the broker must send no response at all: the client does not expect one, and an unexpected
 * response makes it drop the connection (and with it, records in flight).
 */
class ProduceAcksTest {

    private static final int RECORDS = 5_000;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(tempDir);
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, ProduceAcksTest.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1", "all"})
    void shouldAppendEveryRecordOnceInOrderWithAcks(String acks) throws Exception {
        String topic = "acks-" + acks;
        String run = "acks" + acks;
        TestTopics.create(broker.bootstrap(), topic, 1);
        Properties props = TestClients.producerProps(broker.bootstrap(), "snappy");
        props.put(ProducerConfig.ACKS_CONFIG, acks);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, Boolean.toString(acks.equals("all")));
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        AtomicReference<Exception> firstFailure = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (long i = 0; i < RECORDS; i++) {
                // A failed send reaches the callback, which keeps it for the assertions below.
                var unused = producer.send(TestRecords.record(topic, 0, run, i), (metadata, error) -> {
                    if (error != null) {
                        firstFailure.compareAndSet(null, error);
                    }
                });
            }
            producer.flush();
        }
        assertNull(firstFailure.get(), () -> "send failed with acks=" + acks + ": " + firstFailure.get());

        List<ConsumerRecord<byte[], byte[]>> records = readAllOnceWritten(topic);
        assertEquals(RECORDS, records.size(), "records with acks=" + acks);
        for (int n = 0; n < records.size(); n++) {
            assertEquals(n, records.get(n).offset());
            TestRecords.assertIntact(records.get(n), run, n);
        }
    }

    /** acks=0 gives no acknowledgement to wait for: poll the end offset until every record is there. */
    private static List<ConsumerRecord<byte[], byte[]>> readAllOnceWritten(String topic) throws InterruptedException {
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(broker.bootstrap())) {
            Poll.until(
                    "all " + RECORDS + " records written",
                    READ_TIMEOUT,
                    () -> consumer.endOffsets(List.of(partition)).get(partition),
                    end -> end >= RECORDS);
            return PartitionReader.readAll(consumer, List.of(partition), READ_TIMEOUT)
                    .get(partition);
        }
    }
}
