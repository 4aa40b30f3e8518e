package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Idempotent produce as the Java client relies on it, with batches built by hand so the test controls producer id,
 * epoch and sequence: a retried batch is answered with its original offset and not appended twice (also after a
 * restart: producer state is restored), a sequence gap gets OUT_OF_ORDER_SEQUENCE_NUMBER and an older epoch gets
 * INVALID_PRODUCER_EPOCH, with nothing appended.
 */
class IdempotentProduceTest {

    private static final int TRANSACTION_TIMEOUT_MS = 60_000;
    private static final long INIT_RETRY_SECONDS = 30;

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(tempDir);
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, IdempotentProduceTest.class);
    }

    /** A producer id and epoch granted by InitProducerId. */
    private record ProducerIdentity(long id, short epoch) {}

    /** The broker's answer to one produced batch. */
    private record Outcome(Errors error, long baseOffset) {}

    @Test
    void shouldAnswerRetriedBatchWithItsOriginalOffsetAndAppendItOnce() throws Exception {
        String topic = "idempotent-retry";
        TestTopics.create(broker.bootstrap(), topic, 1);
        ProducerIdentity producer = initProducerId();

        Outcome first = produce(topic, producer, producer.epoch(), 0, 3);
        Outcome second = produce(topic, producer, producer.epoch(), 3, 3);
        Outcome retriedFirst = produce(topic, producer, producer.epoch(), 0, 3);

        assertEquals(new Outcome(Errors.NONE, 0), first);
        assertEquals(new Outcome(Errors.NONE, 3), second);
        assertEquals(new Outcome(Errors.NONE, 0), retriedFirst, "a retry gets the original offset");
        assertEquals(6, endOffset(topic), "the retry was not appended again");
    }

    @Test
    void shouldRejectSequenceGapWithOutOfOrderSequenceAndAppendNothing() throws Exception {
        String topic = "idempotent-gap";
        TestTopics.create(broker.bootstrap(), topic, 1);
        ProducerIdentity producer = initProducerId();

        assertEquals(
                Errors.NONE, produce(topic, producer, producer.epoch(), 0, 2).error());
        assertEquals(
                Errors.OUT_OF_ORDER_SEQUENCE_NUMBER,
                produce(topic, producer, producer.epoch(), 5, 1).error());
        assertEquals(2, endOffset(topic));
    }

    @Test
    void shouldRejectOlderEpochWithInvalidProducerEpochAndAppendNothing() throws Exception {
        String topic = "idempotent-epoch";
        TestTopics.create(broker.bootstrap(), topic, 1);
        ProducerIdentity producer = initProducerId();
        short bumped = (short) (producer.epoch() + 1);

        assertEquals(
                Errors.NONE, produce(topic, producer, producer.epoch(), 0, 1).error());
        assertEquals(Errors.NONE, produce(topic, producer, bumped, 0, 1).error(), "a new epoch starts at sequence 0");
        assertEquals(
                Errors.INVALID_PRODUCER_EPOCH,
                produce(topic, producer, producer.epoch(), 1, 1).error());
        assertEquals(2, endOffset(topic));
    }

    @Test
    void shouldRecogniseRetriedBatchAfterRestart() throws Exception {
        String topic = "idempotent-restart";
        TestTopics.create(broker.bootstrap(), topic, 1);
        ProducerIdentity producer = initProducerId();
        assertEquals(new Outcome(Errors.NONE, 0), produce(topic, producer, producer.epoch(), 0, 2));

        assertTrue(broker.stop(), () -> "clean stop; log tail:\n" + broker.outputTail());
        broker.restart();

        assertEquals(
                new Outcome(Errors.NONE, 0),
                produce(topic, producer, producer.epoch(), 0, 2),
                "the retried last batch is known after the restart");
        assertEquals(
                new Outcome(Errors.NONE, 2),
                produce(topic, producer, producer.epoch(), 2, 2),
                "the sequence continues after the restart");
        assertEquals(4, endOffset(topic));
    }

    /** InitProducerId, retried while the broker answers with a retriable error (as Kafka's does while loading). */
    private static ProducerIdentity initProducerId() throws IOException, InterruptedException {
        try (RawProtocolClient client = RawProtocolClient.connect(broker.bootstrap())) {
            InitProducerIdResponse response = Poll.<InitProducerIdResponse>until(
                    "an InitProducerId answer that is not a retriable error",
                    Duration.ofSeconds(INIT_RETRY_SECONDS),
                    () -> client.send(
                            new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
                                    .setTransactionalId(null)
                                    .setTransactionTimeoutMs(TRANSACTION_TIMEOUT_MS)),
                            ApiKeys.INIT_PRODUCER_ID),
                    answer -> !(Errors.forCode(answer.data().errorCode()).exception() instanceof RetriableException));
            assertEquals(Errors.NONE, Errors.forCode(response.data().errorCode()), response.data()::toString);
            return new ProducerIdentity(
                    response.data().producerId(), response.data().producerEpoch());
        }
    }

    /** Produces {@code count} records as one batch from sequence {@code baseSequence}, with acks=-1. */
    private static Outcome produce(String topic, ProducerIdentity producer, short epoch, int baseSequence, int count)
            throws IOException {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            int sequence = baseSequence + i;
            records[i] = new SimpleRecord(
                    TestRecords.timestamp(sequence), TestRecords.key(topic, sequence), TestRecords.value(sequence));
        }
        MemoryRecords batch =
                MemoryRecords.withIdempotentRecords(Compression.NONE, producer.id(), epoch, baseSequence, records);
        ProduceRequestData data = new ProduceRequestData()
                .setAcks((short) -1)
                .setTimeoutMs(10_000)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(
                        List.of(new ProduceRequestData.TopicProduceData()
                                        .setName(topic)
                                        .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                                                .setIndex(0)
                                                .setRecords(batch))))
                                .iterator()));
        try (RawProtocolClient client = RawProtocolClient.connect(broker.bootstrap())) {
            ProduceResponse response = client.send(ProduceRequest.forCurrentMagic(data), ApiKeys.PRODUCE);
            ProduceResponseData.PartitionProduceResponse partition =
                    response.data().responses().find(topic).partitionResponses().get(0);
            Errors error = Errors.forCode(partition.errorCode());
            return new Outcome(error, error == Errors.NONE ? partition.baseOffset() : -1);
        }
    }

    private static long endOffset(String topic) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        try (Admin admin = TestClients.admin(broker.bootstrap())) {
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest()))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(partition)
                    .offset();
        }
    }
}
