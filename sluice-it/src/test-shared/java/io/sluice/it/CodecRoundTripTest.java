package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An idempotent producer with default settings sends 100,000 records over 8 partitions with each codec; an
 * {@code assign()}ed consumer reads every one back in order per partition, with key, value, headers and timestamp.
 */
class CodecRoundTripTest {

    private static final int RECORDS = 100_000;
    private static final int PARTITIONS = 8;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(tempDir);
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, CodecRoundTripTest.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void shouldRoundTripEveryRecordInOrderWithCodec(String codec) throws Exception {
        String topic = "roundtrip-" + codec;
        TestTopics.create(broker.bootstrap(), topic, PARTITIONS);

        AtomicReference<Exception> firstSendFailure = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), codec)) {
            for (long i = 0; i < RECORDS; i++) {
                // A failed send reaches the callback, which keeps it for the assertions below.
                var unused = producer.send(
                        TestRecords.record(topic, (int) (i % PARTITIONS), codec, i), (metadata, error) -> {
                            if (error != null) {
                                firstSendFailure.compareAndSet(null, error);
                            }
                        });
            }
            producer.flush();
        }
        assertNull(
                firstSendFailure.get(),
                () -> "send failed: " + firstSendFailure.get() + "\nbroker log tail:\n" + broker.outputTail());

        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read;
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(broker.bootstrap())) {
            read = PartitionReader.readAll(consumer, PartitionReader.partitions(topic, PARTITIONS), READ_TIMEOUT);
        }
        long total = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            List<ConsumerRecord<byte[], byte[]>> records = read.get(new TopicPartition(topic, p));
            assertEquals(RECORDS / PARTITIONS, records.size(), "records in partition " + p);
            for (int n = 0; n < records.size(); n++) {
                ConsumerRecord<byte[], byte[]> record = records.get(n);
                assertEquals(n, record.offset(), "offsets are dense from 0 in partition " + p);
                TestRecords.assertIntact(record, codec, p + (long) n * PARTITIONS);
            }
            total += records.size();
        }
        assertEquals(RECORDS, total);
    }
}
