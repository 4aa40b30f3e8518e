package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker is SIGKILLed while an acks=-1 producer streams records; after a restart on the same data directory
 * every acknowledged record is at its acknowledged offset, in order, and the log accepts new writes.
 */
class CrashRecoveryTest {

    private static final String TOPIC = "crash";
    private static final int PARTITIONS = 3;
    private static final long KILL_AFTER_ACKS = 10_000;
    private static final long SENDS_AFTER_KILL = 2_000;
    private static final long PRODUCE_DEADLINE_SECONDS = 120;
    /** Index (and so timestamp offset in ms) of the records written after recovery: past any index sent before. */
    private static final long AFTER_RESTART_INDEX = 900_000;

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
        TestBroker.stopAndKeepLog(broker, CrashRecoveryTest.class);
    }

    /** What the broker acknowledged: record {@code index} is at {@code offset} of {@code partition}. */
    private record Ack(long index, int partition, long offset) {}

    @Test
    void shouldKeepEveryAcknowledgedRecordAcrossSigkill() throws Exception {
        TestTopics.create(broker.bootstrap(), TOPIC, PARTITIONS);
        ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
        AtomicLong ackCount = new AtomicLong();
        AtomicReference<Exception> firstFailureBeforeKill = new AtomicReference<>();
        Properties props = TestClients.producerProps(broker.bootstrap(), "none");
        props.put(ProducerConfig.ACKS_CONFIG, "-1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "2");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "10000");
        long killedAtSend = -1;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PRODUCE_DEADLINE_SECONDS);
            for (long i = 0; killedAtSend < 0 || i < killedAtSend + SENDS_AFTER_KILL; i++) {
                if (killedAtSend < 0 && ackCount.get() >= KILL_AFTER_ACKS) {
                    broker.kill9();
                    killedAtSend = i;
                }
                if (System.nanoTime() > deadline) {
                    fail("only " + ackCount.get() + " of " + KILL_AFTER_ACKS + " records acknowledged after " + i
                            + " sends in " + PRODUCE_DEADLINE_SECONDS + " s; first send failure: "
                            + firstFailureBeforeKill.get() + "; log tail:\n" + broker.outputTail());
                }
                long index = i;
                int partition = (int) (i % PARTITIONS);
                // A failed send reaches the callback: before the kill it is kept for the failure message, after it
                // expected.
                var unused = producer.send(TestRecords.record(TOPIC, partition, "crash", index), (metadata, error) -> {
                    if (error == null) {
                        acks.add(new Ack(index, partition, metadata.offset()));
                        ackCount.incrementAndGet();
                    } else if (broker.isAlive()) {
                        firstFailureBeforeKill.compareAndSet(null, error);
                    }
                });
            }
            producer.close(Duration.ZERO);
        }
        assertTrue(killedAtSend > 0, "the broker was killed mid-stream");

        broker.restart();

        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read;
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(broker.bootstrap())) {
            read = PartitionReader.readAll(consumer, PartitionReader.partitions(TOPIC, PARTITIONS), READ_TIMEOUT);
        }
        assertInOrderWithoutDuplicates(read);
        for (Ack ack : acks) {
            List<ConsumerRecord<byte[], byte[]>> partition = read.get(new TopicPartition(TOPIC, ack.partition()));
            assertTrue(
                    ack.offset() < partition.size(),
                    () -> "acknowledged record " + ack + " is beyond the "
                            + partition.size() + " records left in partition " + ack.partition() + "; log tail:\n"
                            + broker.outputTail());
            ConsumerRecord<byte[], byte[]> record = partition.get((int) ack.offset());
            assertEquals(ack.offset(), record.offset());
            TestRecords.assertIntact(record, "crash", ack.index());
        }

        assertNewWritesAppendAfterRecoveredTail(read);
    }

    private static void assertInOrderWithoutDuplicates(Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read) {
        for (Map.Entry<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> partition : read.entrySet()) {
            long previous = -1;
            List<ConsumerRecord<byte[], byte[]>> records = partition.getValue();
            for (int n = 0; n < records.size(); n++) {
                assertEquals(n, records.get(n).offset(), "dense offsets in " + partition.getKey());
                long index = TestRecords.indexOf(records.get(n));
                assertTrue(
                        index > previous,
                        "record " + index + " after " + previous + " at offset " + n + " of " + partition.getKey()
                                + ": out of order or duplicated");
                TestRecords.assertIntact(records.get(n), "crash", index);
                previous = index;
            }
        }
    }

    private static void assertNewWritesAppendAfterRecoveredTail(
            Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> recovered) throws Exception {
        List<RecordMetadata> written = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "zstd")) {
            for (int p = 0; p < PARTITIONS; p++) {
                written.add(producer.send(TestRecords.record(TOPIC, p, "crash", AFTER_RESTART_INDEX + p))
                        .get(30, TimeUnit.SECONDS));
            }
        }
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> after;
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(broker.bootstrap())) {
            after = PartitionReader.readAll(consumer, PartitionReader.partitions(TOPIC, PARTITIONS), READ_TIMEOUT);
        }
        for (int p = 0; p < PARTITIONS; p++) {
            TopicPartition partition = new TopicPartition(TOPIC, p);
            int recoveredCount = recovered.get(partition).size();
            assertEquals(recoveredCount, written.get(p).offset(), "new write lands right after the recovered tail");
            ConsumerRecord<byte[], byte[]> last = after.get(partition).get(recoveredCount);
            assertNotNull(last);
            TestRecords.assertIntact(last, "crash", AFTER_RESTART_INDEX + p);
        }
    }
}
