package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records written, broker stopped with SIGTERM and started again on the same data directory: all readable. */
class RestartTest {

    private static final String TOPIC = "restart";
    private static final int PARTITIONS = 4;
    private static final int RECORDS = 20_000;
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
        TestBroker.stopAndKeepLog(broker, RestartTest.class);
    }

    @Test
    void shouldServeEveryRecordAfterCleanRestartAndKeepAppending() throws Exception {
        TestTopics.create(broker.bootstrap(), TOPIC, PARTITIONS);
        try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "lz4")) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (long i = 0; i < RECORDS; i++) {
                acks.add(producer.send(TestRecords.record(TOPIC, (int) (i % PARTITIONS), "before", i)));
            }
            producer.flush();
            Acks.awaitAll(acks);
        }

        assertTrue(broker.stop(), () -> "broker exits by itself on SIGTERM; log tail:\n" + broker.outputTail());
        broker.restart();

        assertAllRecords(RECORDS / PARTITIONS);
        try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "none")) {
            for (int p = 0; p < PARTITIONS; p++) {
                RecordMetadata appended = producer.send(TestRecords.record(TOPIC, p, "before", RECORDS + p))
                        .get(30, TimeUnit.SECONDS);
                assertEquals(RECORDS / PARTITIONS, appended.offset(), "next offset after restart, partition " + p);
            }
        }
        assertAllRecords(RECORDS / PARTITIONS + 1);
    }

    private static void assertAllRecords(int perPartition) {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read;
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(broker.bootstrap())) {
            read = PartitionReader.readAll(consumer, PartitionReader.partitions(TOPIC, PARTITIONS), READ_TIMEOUT);
        }
        for (int p = 0; p < PARTITIONS; p++) {
            List<ConsumerRecord<byte[], byte[]>> records = read.get(new TopicPartition(TOPIC, p));
            assertEquals(perPartition, records.size(), "records in partition " + p);
            for (int n = 0; n < records.size(); n++) {
                assertEquals(n, records.get(n).offset());
                long index = n < RECORDS / PARTITIONS ? p + (long) n * PARTITIONS : RECORDS + p;
                TestRecords.assertIntact(records.get(n), "before", index);
            }
        }
    }
}
