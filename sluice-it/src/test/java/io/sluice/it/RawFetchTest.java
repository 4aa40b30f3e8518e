package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SluiceBrokerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.Records;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetch requests sent raw, to see what a client library hides: max wait and min bytes are honoured (the broker
 * holds a fetch it cannot satisfy instead of answering at once, which would make consumers spin), and an offset
 * beyond the log end gets OFFSET_OUT_OF_RANGE.
 *
 * <p>The hold checks are lower bounds (at least 2/3 of the max wait), which a slow machine cannot make fail.
 */
class RawFetchTest {

    private static final String TOPIC = "raw-fetch";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final int MAX_WAIT_MS = 1_500;
    private static final long HELD_AT_LEAST_NANOS = TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MS * 2 / 3);
    private static final int PARTITION_MAX_BYTES = 1 << 20;

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;
    static Uuid topicId;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(tempDir);
        TestTopics.create(broker.bootstrap(), TOPIC, 1);
        try (Admin admin = TestClients.admin(broker.bootstrap())) {
            topicId = admin.describeTopics(List.of(TOPIC))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(TOPIC)
                    .topicId();
        }
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, RawFetchTest.class);
    }

    /** One partition's part of a fetch response, with how long the broker took to send it. */
    private record Fetched(FetchResponseData.PartitionData partition, long elapsedNanos) {}

    @Test
    void shouldHoldAnEmptyFetchUntilMaxWait() throws Exception {
        long end = produceOne(0) + 1;
        Fetched fetched = fetch(end, 1);

        assertEquals(Errors.NONE, Errors.forCode(fetched.partition().errorCode()));
        assertEquals(end, fetched.partition().highWatermark());
        assertEquals(0, FetchResponse.recordsOrFail(fetched.partition()).sizeInBytes(), "no records at the end");
        assertTrue(
                fetched.elapsedNanos() >= HELD_AT_LEAST_NANOS,
                "a fetch with nothing to return answered after " + TimeUnit.NANOSECONDS.toMillis(fetched.elapsedNanos())
                        + " ms; max wait was " + MAX_WAIT_MS + " ms");
    }

    @Test
    void shouldHoldAFetchBelowMinBytesUntilMaxWaitThenReturnWhatThereIs() throws Exception {
        long offset = produceOne(1);
        Fetched fetched = fetch(offset, PARTITION_MAX_BYTES);

        assertEquals(Errors.NONE, Errors.forCode(fetched.partition().errorCode()));
        Records records = FetchResponse.recordsOrFail(fetched.partition());
        int count = 0;
        for (RecordBatch batch : records.batches()) {
            for (Record record : batch) {
                if (record.offset() >= offset) {
                    count++;
                }
            }
        }
        assertEquals(1, count, "the one record past the fetch offset");
        assertTrue(
                fetched.elapsedNanos() >= HELD_AT_LEAST_NANOS,
                "a fetch below fetch.min.bytes answered after " + TimeUnit.NANOSECONDS.toMillis(fetched.elapsedNanos())
                        + " ms; max wait was " + MAX_WAIT_MS + " ms");
    }

    @Test
    void shouldAnswerFetchBeyondLogEndWithOffsetOutOfRange() throws Exception {
        long end = produceOne(2) + 1;
        Fetched fetched = fetch(end + 10, 1);

        assertEquals(
                Errors.OFFSET_OUT_OF_RANGE,
                Errors.forCode(fetched.partition().errorCode()),
                fetched.partition()::toString);
    }

    /** Appends one record and returns its offset. */
    private static long produceOne(long index) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "none")) {
            return producer.send(TestRecords.record(TOPIC, 0, "raw-fetch", index))
                    .get(30, TimeUnit.SECONDS)
                    .offset();
        }
    }

    private static Fetched fetch(long offset, int minBytes) throws IOException {
        try (RawProtocolClient client = RawProtocolClient.connect(broker.bootstrap())) {
            short version = client.version(ApiKeys.FETCH);
            FetchRequest.Builder request = FetchRequest.Builder.forConsumer(
                    version,
                    MAX_WAIT_MS,
                    minBytes,
                    Map.of(
                            PARTITION,
                            new FetchRequest.PartitionData(
                                    topicId, offset, -1L, PARTITION_MAX_BYTES, Optional.empty())));
            long start = System.nanoTime();
            FetchResponse response = client.send(request, ApiKeys.FETCH, version);
            long elapsed = System.nanoTime() - start;
            assertEquals(Errors.NONE, Errors.forCode(response.data().errorCode()), response.data()::toString);
            FetchResponseData.PartitionData partition =
                    response.responseData(Map.of(topicId, TOPIC), version).get(PARTITION);
            assertNotNull(partition, () -> "no data for " + PARTITION + " in " + response.data());
            return new Fetched(partition, elapsed);
        }
    }
}
