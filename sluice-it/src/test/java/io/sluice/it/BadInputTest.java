package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.testkit.Poll;
import io.sluice.testkit.RawKafkaSocket;
import io.sluice.testkit.SluiceBrokerProcess;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input over the wire: broken frames, unknown APIs, corrupt or oversized batches, unknown topics, offsets
 * beyond the log. Each ends in Kafka's error behaviour (an error code or a closed connection), never a hang, and
 * after each one the broker still serves a normal produce and consume ({@link #brokerStillServes()}).
 */
class BadInputTest {

    private static final int SOCKET_REQUEST_MAX_BYTES = 1_048_576;
    private static final int MESSAGE_MAX_BYTES = 10_000;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(15);
    private static final long TIMEOUT_SECONDS = 30;
    private static final String TARGET = "bad-input-target";
    private static final String HEALTHY = "bad-input-healthy";
    /** An api key no Kafka version defines. */
    private static final short UNKNOWN_API_KEY = 32_000;
    /** A version no Kafka API has reached. */
    private static final short UNSUPPORTED_VERSION = 99;

    private static final int FUZZ_ROUNDS = 40;
    /** Request header v2 (client id plus tagged fields) goes with flexible request versions. */
    private static final short FLEXIBLE_REQUEST_HEADER_VERSION = 2;

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(
                tempDir,
                "auto.create.topics.enable=false",
                "socket.request.max.bytes=" + SOCKET_REQUEST_MAX_BYTES,
                "message.max.bytes=" + MESSAGE_MAX_BYTES);
        TestTopics.create(broker.bootstrap(), TARGET, 1);
        TestTopics.create(broker.bootstrap(), HEALTHY, 1);
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, BadInputTest.class);
    }

    @AfterEach
    void brokerStillServes() throws Exception {
        assertTrue(broker.isAlive(), () -> "broker died; log tail:\n" + broker.outputTail());
        RecordMetadata written;
        try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), "none")) {
            written =
                    producer.send(TestRecords.record(HEALTHY, 0, "healthy", 7)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(broker.bootstrap())) {
            TopicPartition partition = new TopicPartition(HEALTHY, 0);
            consumer.assign(List.of(partition));
            consumer.seek(partition, written.offset());
            ConsumerRecords<byte[], byte[]> read = Poll.until(
                    "the record just written at offset " + written.offset() + " consumed",
                    Duration.ofSeconds(TIMEOUT_SECONDS),
                    () -> consumer.poll(Duration.ofMillis(200)),
                    records -> !records.isEmpty());
            TestRecords.assertIntact(read.iterator().next(), "healthy", 7);
        }
    }

    @Test
    void shouldCloseConnectionOnNegativeFrameSize() throws IOException {
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendDeclaredFrame(-5, new byte[] {1, 2, 3, 4, 5});
            assertTrue(socket.awaitClosedByPeer(CLOSE_TIMEOUT), "connection closed after a negative frame size");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {SOCKET_REQUEST_MAX_BYTES + 1, Integer.MAX_VALUE})
    void shouldCloseConnectionOnFrameSizeAboveSocketRequestMaxBytes(int declaredSize) throws IOException {
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendDeclaredFrame(declaredSize, new byte[64]);
            assertTrue(
                    socket.awaitClosedByPeer(CLOSE_TIMEOUT),
                    "connection closed after frame size " + declaredSize + " > " + SOCKET_REQUEST_MAX_BYTES);
        }
    }

    @Test
    void shouldServeOthersWhileOneFrameIsTruncatedAndCloseItAtEndOfStream() throws IOException {
        try (RawKafkaSocket truncated = RawKafkaSocket.connect(broker.bootstrap())) {
            truncated.sendDeclaredFrame(100, new byte[10]);
            try (RawProtocolClient other = RawProtocolClient.connect(broker.bootstrap())) {
                assertTrue(other.version(ApiKeys.PRODUCE) >= 3, "another connection negotiates versions meanwhile");
            }
            truncated.shutdownOutput();
            assertTrue(truncated.awaitClosedByPeer(CLOSE_TIMEOUT), "connection closed after a truncated frame + EOF");
        }
    }

    @Test
    void shouldCloseConnectionOnUnknownApiKey() throws IOException {
        ByteBuffer header = ByteBuffer.allocate(Short.BYTES * 2 + Integer.BYTES + Short.BYTES);
        header.putShort(UNKNOWN_API_KEY)
                .putShort((short) 0)
                .putInt(42)
                .putShort((short) -1)
                .flip();
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendFrame(header);
            assertTrue(socket.awaitClosedByPeer(CLOSE_TIMEOUT), "connection closed after api key " + UNKNOWN_API_KEY);
        }
    }

    /**
     * Kafka answers an unsupported version of ApiVersions (KIP-511, below) but closes the connection on an
     * unsupported version of any other API (its request parsing fails before a handler runs).
     */
    @Test
    void shouldCloseConnectionOnUnsupportedVersionOfKnownApi() throws IOException {
        RequestHeader header = new RequestHeader(
                new RequestHeaderData()
                        .setRequestApiKey(ApiKeys.METADATA.id)
                        .setRequestApiVersion(UNSUPPORTED_VERSION)
                        .setCorrelationId(77)
                        .setClientId("sluice-it"),
                FLEXIBLE_REQUEST_HEADER_VERSION);
        ByteBuffer request = concat(
                serialize(header.data(), header.headerVersion()),
                serialize(new MetadataRequestData(), ApiKeys.METADATA.latestVersion()));
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendFrame(request);
            assertTrue(
                    socket.awaitClosedByPeer(CLOSE_TIMEOUT),
                    "connection closed after Metadata v" + UNSUPPORTED_VERSION);
        }
    }

    @Test
    void shouldAnswerUnsupportedApiVersionsVersionWithItsRangeAndV0Header() throws IOException {
        int correlationId = 4711;
        RequestHeader header = new RequestHeader(
                new RequestHeaderData()
                        .setRequestApiKey(ApiKeys.API_VERSIONS.id)
                        .setRequestApiVersion(UNSUPPORTED_VERSION)
                        .setCorrelationId(correlationId)
                        .setClientId("sluice-it"),
                FLEXIBLE_REQUEST_HEADER_VERSION);
        ByteBuffer v3Request = concat(
                serialize(header.data(), header.headerVersion()),
                serialize(
                        new ApiVersionsRequestData()
                                .setClientSoftwareName("sluice-it")
                                .setClientSoftwareVersion("1"),
                        (short) 3));
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendFrame(v3Request);
            ByteBuffer response = socket.readFrame(RawProtocolClient.MAX_RESPONSE_BYTES);
            assertEquals(correlationId, response.getInt(), "v0 response header: just the correlation id");
            ApiVersionsResponse parsed = ApiVersionsResponse.parse(response, (short) 0);
            assertEquals(Errors.UNSUPPORTED_VERSION.code(), parsed.data().errorCode());
            ApiVersionsResponseData.ApiVersion range = parsed.data().apiKeys().find(ApiKeys.API_VERSIONS.id);
            assertTrue(range != null, () -> "the error response carries the ApiVersions range: " + parsed.data());
            assertEquals(0, range.minVersion());
            assertTrue(range.maxVersion() >= 3 && range.maxVersion() < UNSUPPORTED_VERSION, range::toString);
            assertFalse(response.hasRemaining(), "nothing after the v0 body");
        }
    }

    @Test
    void shouldCloseConnectionOnForgedCollectionCountWithoutAllocatingIt() throws IOException {
        short version;
        try (RawProtocolClient client = RawProtocolClient.connect(broker.bootstrap())) {
            version = client.version(ApiKeys.METADATA);
        }
        RequestHeader header = new RequestHeader(ApiKeys.METADATA, version, "sluice-it", 9);
        ByteBuffer forgedCount = header.headerVersion() >= FLEXIBLE_REQUEST_HEADER_VERSION
                ? ByteBuffer.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07})
                : ByteBuffer.allocate(Integer.BYTES).putInt(0, Integer.MAX_VALUE);
        ByteBuffer forged = concat(serialize(header.data(), header.headerVersion()), forgedCount);
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendFrame(forged);
            assertTrue(
                    socket.awaitClosedByPeer(CLOSE_TIMEOUT),
                    "connection closed after a Metadata v" + version + " body claiming 2^31-1 topics");
        }
    }

    @Test
    void shouldEndEveryGarbageBodyInAResponseOrACloseNeverAHang() throws IOException {
        Random random = new Random(20_261_121L);
        ApiKeys[] apis = {
            ApiKeys.PRODUCE,
            ApiKeys.FETCH,
            ApiKeys.METADATA,
            ApiKeys.LIST_OFFSETS,
            ApiKeys.CREATE_TOPICS,
            ApiKeys.INIT_PRODUCER_ID,
            ApiKeys.API_VERSIONS,
            ApiKeys.ALTER_USER_SCRAM_CREDENTIALS,
            ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS,
            ApiKeys.ALTER_CLIENT_QUOTAS,
            ApiKeys.DESCRIBE_CLIENT_QUOTAS
        };
        Map<ApiKeys, Short> versions = new EnumMap<>(ApiKeys.class);
        try (RawProtocolClient client = RawProtocolClient.connect(broker.bootstrap())) {
            for (ApiKeys api : apis) {
                versions.put(api, client.version(api));
            }
        }
        for (int round = 0; round < FUZZ_ROUNDS; round++) {
            ApiKeys api = apis[random.nextInt(apis.length)];
            short version = versions.get(api);
            int correlationId = 1000 + round;
            RequestHeader header = new RequestHeader(api, version, "sluice-it-fuzz", correlationId);
            byte[] body = new byte[random.nextInt(200)];
            random.nextBytes(body);
            ByteBuffer frame = concat(serialize(header.data(), header.headerVersion()), ByteBuffer.wrap(body));
            try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
                socket.sendFrame(frame);
                String what =
                        api + " v" + version + " with " + body.length + " garbage body bytes (round " + round + ")";
                try {
                    ByteBuffer response = socket.readFrame(RawProtocolClient.MAX_RESPONSE_BYTES);
                    assertEquals(correlationId, response.getInt(), "correlation id of the response to " + what);
                } catch (EOFException | SocketException closed) {
                    // Closing the connection is Kafka's answer to a body it cannot parse.
                } catch (SocketTimeoutException hang) {
                    fail("no response and no close within " + RawKafkaSocket.DEFAULT_READ_TIMEOUT + " after " + what);
                }
            }
        }
        assertTrue(broker.isAlive());
    }

    @Test
    void shouldRejectBatchWithCrcMismatchAndAppendNothing() throws Exception {
        MemoryRecords records = MemoryRecords.withRecords(
                Compression.NONE,
                new SimpleRecord(
                        TestRecords.timestamp(1),
                        "k".getBytes(StandardCharsets.UTF_8),
                        "corrupt-me".getBytes(StandardCharsets.UTF_8)));
        ByteBuffer batch = records.buffer();
        int last = batch.limit() - 1;
        batch.put(last, (byte) (batch.get(last) ^ 0x5A));
        long endBefore = endOffset(TARGET);

        assertEquals(Errors.CORRUPT_MESSAGE, produce(TARGET, records));
        assertEquals(endBefore, endOffset(TARGET), "nothing appended after CORRUPT_MESSAGE");
    }

    @Test
    void shouldRejectBatchAboveMessageMaxBytes() throws Exception {
        MemoryRecords records = MemoryRecords.withRecords(
                Compression.NONE,
                new SimpleRecord(
                        TestRecords.timestamp(1),
                        "k".getBytes(StandardCharsets.UTF_8),
                        new byte[MESSAGE_MAX_BYTES * 2]));
        long endBefore = endOffset(TARGET);

        assertEquals(Errors.MESSAGE_TOO_LARGE, produce(TARGET, records));
        assertEquals(endBefore, endOffset(TARGET), "nothing appended after MESSAGE_TOO_LARGE");
    }

    @Test
    void shouldRejectProduceToUnknownTopicWhenAutoCreationIsOff() throws Exception {
        MemoryRecords records = MemoryRecords.withRecords(
                Compression.NONE,
                new SimpleRecord(
                        TestRecords.timestamp(1),
                        "k".getBytes(StandardCharsets.UTF_8),
                        "v".getBytes(StandardCharsets.UTF_8)));

        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, produce("bad-input-no-such-topic", records));
        try (Admin admin = TestClients.admin(broker.bootstrap())) {
            assertFalse(
                    admin.listTopics()
                            .names()
                            .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                            .contains("bad-input-no-such-topic"),
                    "the topic was not created");
        }
    }

    @Test
    void shouldAnswerFetchBeyondLogEndWithOffsetOutOfRange() throws Exception {
        long end = endOffset(TARGET);
        Properties props = TestClients.consumerProps(broker.bootstrap());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        TopicPartition partition = new TopicPartition(TARGET, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, end + 100);
            OffsetOutOfRangeException failure = Poll.until(
                    "the consumer told the offset is out of range",
                    Duration.ofSeconds(TIMEOUT_SECONDS),
                    () -> {
                        try {
                            ConsumerRecords<byte[], byte[]> none = consumer.poll(Duration.ofMillis(200));
                            assertTrue(none.isEmpty(), "records from beyond the log end");
                            return null;
                        } catch (OffsetOutOfRangeException e) {
                            return e;
                        }
                    },
                    Objects::nonNull);
            assertEquals(Map.of(partition, end + 100), failure.offsetOutOfRangePartitions());
        }
    }

    private static ByteBuffer serialize(Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(buffer), cache, version);
        return buffer.flip();
    }

    private static ByteBuffer concat(ByteBuffer first, ByteBuffer second) {
        return ByteBuffer.allocate(first.remaining() + second.remaining())
                .put(first)
                .put(second)
                .flip();
    }

    private static Errors produce(String topic, MemoryRecords records) throws IOException {
        ProduceRequestData data = new ProduceRequestData()
                .setAcks((short) -1)
                .setTimeoutMs(10_000)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(
                        List.of(new ProduceRequestData.TopicProduceData()
                                        .setName(topic)
                                        .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                                                .setIndex(0)
                                                .setRecords(records))))
                                .iterator()));
        try (RawProtocolClient client = RawProtocolClient.connect(broker.bootstrap())) {
            ProduceResponse response = client.send(ProduceRequest.forCurrentMagic(data), ApiKeys.PRODUCE);
            ProduceResponseData.TopicProduceResponse topicResponse =
                    response.data().responses().find(topic);
            assertTrue(topicResponse != null, () -> "no response for topic " + topic + ": " + response.data());
            assertEquals(1, topicResponse.partitionResponses().size(), topicResponse::toString);
            return Errors.forCode(topicResponse.partitionResponses().get(0).errorCode());
        }
    }

    private static long endOffset(String topic) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        try (Admin admin = TestClients.admin(broker.bootstrap())) {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> offsets = admin.listOffsets(
                            Map.of(partition, OffsetSpec.latest()))
                    .all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return offsets.get(partition).offset();
        }
    }
}
