package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.PartitionDirectory;
import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.DefaultRecordBatch;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Garbage appended to the newest segment and its index files while the broker is stopped: the broker starts,
 * truncates and rebuilds, serves every record that was valid, and appends new records right after them.
 */
class CorruptionRecoveryTest {

    private static final int RECORDS = 3_000;
    /** Small segments, so the topic has several and the damaged one is not the only one. */
    private static final int SEGMENT_BYTES = 65_536;

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(tempDir, "log.segment.bytes=" + SEGMENT_BYTES);
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, CorruptionRecoveryTest.class);
    }

    /** Garbage after a clean stop: disk damage the broker cannot know about from a shutdown marker. */
    @Test
    void shouldServeEverythingValidAfterGarbageAppendedWhileCleanlyStopped() throws Exception {
        String randomTail = "stopped-random";
        String forgedTail = "stopped-forged";
        writeRecords(randomTail, forgedTail);
        assertTrue(broker.stop(), () -> "clean stop; log tail:\n" + broker.outputTail());
        damageAndRestartAndVerify(randomTail, forgedTail);
    }

    /** Garbage after SIGKILL: a torn tail as a crash mid-write leaves it, plus a damaged index. */
    @Test
    void shouldServeEverythingValidAfterGarbageAppendedAfterSigkill() throws Exception {
        String randomTail = "killed-random";
        String forgedTail = "killed-forged";
        writeRecords(randomTail, forgedTail);
        broker.kill9();
        damageAndRestartAndVerify(randomTail, forgedTail);
    }

    private static void writeRecords(String... topics) throws Exception {
        for (String topic : topics) {
            TestTopics.create(broker.bootstrap(), topic, 1);
            try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "none")) {
                List<Future<RecordMetadata>> acks = new ArrayList<>();
                for (long i = 0; i < RECORDS; i++) {
                    acks.add(producer.send(TestRecords.record(topic, 0, topic, i)));
                }
                producer.flush();
                Acks.awaitAll(acks);
            }
        }
    }

    private static void damageAndRestartAndVerify(String randomTail, String forgedTail) throws Exception {
        Random random = new Random(42);
        PartitionDirectory randomPartition = new PartitionDirectory(broker.dataDir(), randomTail, 0);
        assertTrue(randomPartition.segments().size() > 1, () -> "several segments of " + SEGMENT_BYTES + " bytes");
        Path segment = randomPartition.newestSegment();
        PartitionDirectory.appendGarbage(segment, randomBytes(random, 64));
        PartitionDirectory.appendGarbage(
                PartitionDirectory.sibling(segment, PartitionDirectory.INDEX_SUFFIX), randomBytes(random, 13));
        PartitionDirectory.appendGarbage(
                PartitionDirectory.sibling(segment, PartitionDirectory.TIME_INDEX_SUFFIX), randomBytes(random, 7));

        Path forgedSegment = new PartitionDirectory(broker.dataDir(), forgedTail, 0).newestSegment();
        PartitionDirectory.appendGarbage(forgedSegment, forgedBatchHeader(random));
        PartitionDirectory.appendGarbage(
                PartitionDirectory.sibling(forgedSegment, PartitionDirectory.INDEX_SUFFIX),
                ByteBuffer.allocate(16)
                        .putInt(Integer.MAX_VALUE)
                        .putInt(Integer.MAX_VALUE)
                        .array());

        broker.restart();

        for (String topic : List.of(randomTail, forgedTail)) {
            assertRecords(topic, RECORDS);
            try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "gzip")) {
                RecordMetadata appended = producer.send(TestRecords.record(topic, 0, topic, RECORDS))
                        .get(30, TimeUnit.SECONDS);
                assertEquals(RECORDS, appended.offset(), "new record goes right after the last valid one");
            }
            assertRecords(topic, RECORDS + 1);
        }
    }

    /** A batch header that claims ~2 GiB follow: recovery must not trust (or allocate) it. */
    private static byte[] forgedBatchHeader(Random random) {
        ByteBuffer header = ByteBuffer.allocate(DefaultRecordBatch.RECORD_BATCH_OVERHEAD);
        header.putLong(RECORDS);
        header.putInt(Integer.MAX_VALUE - Long.BYTES - Integer.BYTES);
        header.putInt(0);
        header.put(RecordBatch.MAGIC_VALUE_V2);
        while (header.hasRemaining()) {
            header.put((byte) random.nextInt());
        }
        return header.array();
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static void assertRecords(String topic, int expected) {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read;
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(broker.bootstrap())) {
            read = PartitionReader.readAll(consumer, PartitionReader.partitions(topic, 1), READ_TIMEOUT);
        }
        List<ConsumerRecord<byte[], byte[]>> records = read.get(new TopicPartition(topic, 0));
        assertEquals(expected, records.size(), () -> "records of " + topic + "; log tail:\n" + broker.outputTail());
        for (int n = 0; n < records.size(); n++) {
            assertEquals(n, records.get(n).offset());
            TestRecords.assertIntact(records.get(n), topic, n);
        }
    }
}
