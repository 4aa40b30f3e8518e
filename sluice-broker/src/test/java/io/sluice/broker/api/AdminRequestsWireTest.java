package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.testkit.Poll;
import io.sluice.testkit.RawKafkaSocket;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.message.AlterClientQuotasResponseData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsAssignment;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData.DeleteRecordsPartition;
import org.apache.kafka.common.message.DeleteRecordsRequestData.DeleteRecordsTopic;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CreatePartitions, DeleteRecords, DescribeProducers, AlterUserScramCredentials, DescribeUserScramCredentials,
 * AlterClientQuotas and DescribeClientQuotas on the wire, every version the broker advertises: unknown topics and
 * partitions, negative counts and offsets, unacceptable or duplicated credentials, unknown users, unknown quota entity
 * types and keys, bad quota values and filters answer Kafka's error codes; a body cut at every byte, spliced with
 * garbage or claiming a huge collection ends in a response or a closed connection, never a hang or a big allocation;
 * afterwards the broker still serves, the target topic is unchanged and the client quota set up is untouched.
 */
class AdminRequestsWireTest {
    private static final String TOPIC = "wire-target";
    private static final int PARTITIONS = 2;
    private static final int MAX_RESPONSE_BYTES = 1 << 20;
    private static final int GARBAGE_ROUNDS = 60;
    private static final ClientQuotaEntity QUOTA_ENTITY =
            new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "wired"));
    private static final Map<ClientQuotaEntity, Map<String, Double>> QUOTAS =
            Map.of(QUOTA_ENTITY, Map.of("producer_byte_rate", 1e9));

    @TempDir
    static Path dataDir;

    static InProcessBroker broker;
    static Admin admin;
    private static int correlation = 100;

    @BeforeAll
    static void start() throws Exception {
        broker = new InProcessBroker(dataDir, Map.of("auto.create.topics.enable", "false"));
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1)))
                .all()
                .get();
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                        QUOTA_ENTITY, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1e9)))))
                .all()
                .get();
        Poll.until(
                "the broker applied the quota", Duration.ofSeconds(30), AdminRequestsWireTest::quotas, QUOTAS::equals);
    }

    private static Map<ClientQuotaEntity, Map<String, Double>> quotas() throws Exception {
        return admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    @AfterEach
    void targetUnchangedAndBrokerServes() throws Exception {
        assertEquals(
                PARTITIONS,
                admin.describeTopics(List.of(TOPIC))
                        .allTopicNames()
                        .get()
                        .get(TOPIC)
                        .partitions()
                        .size());
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        assertEquals(
                0,
                admin.listOffsets(Map.of(tp, OffsetSpec.earliest()))
                        .partitionResult(tp)
                        .get()
                        .offset());
        assertEquals(QUOTAS.get(QUOTA_ENTITY), quotas().get(QUOTA_ENTITY), "the quota set up is untouched");
    }

    private static ByteBuffer frame(ApiKeys api, short version, Message body, int correlationId) {
        RequestHeader header = new RequestHeader(api, version, "wire-test", correlationId);
        ByteBuffer h = serialize(header.data(), header.headerVersion());
        ByteBuffer b = serialize(body, version);
        return ByteBuffer.allocate(h.remaining() + b.remaining()).put(h).put(b).flip();
    }

    private static ByteBuffer serialize(Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(buffer), cache, version);
        return buffer.flip();
    }

    /** Sends {@code request} and returns the response body, positioned after the response header. */
    private static ByteBuffer exchange(ApiKeys api, short version, Message request) throws IOException {
        int id = correlation++;
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendFrame(frame(api, version, request, id));
            ByteBuffer response = socket.readFrame(MAX_RESPONSE_BYTES);
            ResponseHeader header = ResponseHeader.parse(response, api.responseHeaderVersion(version));
            assertEquals(id, header.correlationId());
            return response;
        }
    }

    /** Sends {@code bytes} as a request body: a response with its correlation id or a close, never silence. */
    private static void sendGarbage(ApiKeys api, short version, byte[] body, String what) throws IOException {
        int id = correlation++;
        RequestHeader header = new RequestHeader(api, version, "wire-test", id);
        ByteBuffer h = serialize(header.data(), header.headerVersion());
        ByteBuffer frame = ByteBuffer.allocate(h.remaining() + body.length)
                .put(h)
                .put(body)
                .flip();
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendFrame(frame);
            try {
                ByteBuffer response = socket.readFrame(MAX_RESPONSE_BYTES);
                assertEquals(id, response.getInt(), "correlation id of the answer to " + what);
            } catch (EOFException | SocketException closed) {
                // Kafka closes the connection on a body it cannot parse.
            } catch (SocketTimeoutException hang) {
                fail("neither an answer nor a close after " + what);
            }
        }
    }

    private static CreatePartitionsRequestData createPartitions(String topic, int count) {
        CreatePartitionsRequestData data = new CreatePartitionsRequestData().setTimeoutMs(10_000);
        data.topics().add(new CreatePartitionsTopic().setName(topic).setCount(count));
        return data;
    }

    private static DeleteRecordsRequestData deleteRecords(String topic, int partition, long offset) {
        return new DeleteRecordsRequestData()
                .setTimeoutMs(10_000)
                .setTopics(List.of(new DeleteRecordsTopic()
                        .setName(topic)
                        .setPartitions(List.of(new DeleteRecordsPartition()
                                .setPartitionIndex(partition)
                                .setOffset(offset)))));
    }

    private static DescribeProducersRequestData describeProducers(String topic, int partition) {
        return new DescribeProducersRequestData()
                .setTopics(List.of(new DescribeProducersRequestData.TopicRequest()
                        .setName(topic)
                        .setPartitionIndexes(List.of(partition))));
    }

    private static List<ApiMessage> validRequests() {
        CreatePartitionsRequestData assigned = createPartitions(TOPIC + "-absent", 3);
        assigned.topics()
                .iterator()
                .next()
                .setAssignments(List.of(
                        new CreatePartitionsAssignment().setBrokerIds(List.of(1, 2)),
                        new CreatePartitionsAssignment().setBrokerIds(List.of(3))));
        return List.of(
                assigned,
                deleteRecords(TOPIC, 0, 1_000_000),
                describeProducers(TOPIC, 0),
                alterScram(upsertion("wire-user", (byte) 1, 100))
                        .setDeletions(List.of(new ScramCredentialDeletion()
                                .setName("wire-other")
                                .setMechanism((byte) 2))),
                describeScram("wire-user", "absent"),
                alterQuota("client-id", "other", "producer_byte_rate", -1).setValidateOnly(true),
                describeQuotas("client-id", (byte) 0, "wired"));
    }

    private static ScramCredentialUpsertion upsertion(String user, byte mechanism, int iterations) {
        return new ScramCredentialUpsertion()
                .setName(user)
                .setMechanism(mechanism)
                .setIterations(iterations)
                .setSalt(new byte[] {1, 2, 3})
                .setSaltedPassword(new byte[32]);
    }

    private static AlterUserScramCredentialsRequestData alterScram(ScramCredentialUpsertion... upsertions) {
        return new AlterUserScramCredentialsRequestData().setUpsertions(List.of(upsertions));
    }

    private static DescribeUserScramCredentialsRequestData describeScram(String... users) {
        return new DescribeUserScramCredentialsRequestData()
                .setUsers(Arrays.stream(users)
                        .map(u -> new DescribeUserScramCredentialsRequestData.UserName().setName(u))
                        .toList());
    }

    private static short alterScramError(AlterUserScramCredentialsRequestData request) throws IOException {
        AlterUserScramCredentialsResponseData r = new AlterUserScramCredentialsResponseData(
                new ByteBufferAccessor(exchange(ApiKeys.ALTER_USER_SCRAM_CREDENTIALS, (short) 0, request)), (short) 0);
        assertEquals(1, r.results().size(), "one result per user");
        return r.results().get(0).errorCode();
    }

    @Test
    void shouldAnswerBadCredentialsWithKafkasErrorCodes() throws IOException {
        assertEquals(
                Errors.UNACCEPTABLE_CREDENTIAL.code(), alterScramError(alterScram(upsertion("u", (byte) 1, 4095))));
        assertEquals(
                Errors.UNACCEPTABLE_CREDENTIAL.code(), alterScramError(alterScram(upsertion("u", (byte) 1, 16385))));
        assertEquals(Errors.UNACCEPTABLE_CREDENTIAL.code(), alterScramError(alterScram(upsertion("", (byte) 1, 4096))));
        assertEquals(
                Errors.UNACCEPTABLE_CREDENTIAL.code(),
                alterScramError(alterScram(upsertion("u", (byte) 1, 4096).setSalt(new byte[0]))));
        assertEquals(
                Errors.UNSUPPORTED_SASL_MECHANISM.code(), alterScramError(alterScram(upsertion("u", (byte) 0, 4096))));
        assertEquals(
                Errors.UNSUPPORTED_SASL_MECHANISM.code(), alterScramError(alterScram(upsertion("u", (byte) 9, 4096))));
        assertEquals(
                Errors.DUPLICATE_RESOURCE.code(),
                alterScramError(alterScram(upsertion("u", (byte) 1, 4096), upsertion("u", (byte) 1, 8192))));
        assertEquals(
                Errors.RESOURCE_NOT_FOUND.code(),
                alterScramError(new AlterUserScramCredentialsRequestData()
                        .setDeletions(List.of(
                                new ScramCredentialDeletion().setName("nobody").setMechanism((byte) 2)))));
        DescribeUserScramCredentialsResponseData described = new DescribeUserScramCredentialsResponseData(
                new ByteBufferAccessor(exchange(
                        ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS,
                        (short) 0,
                        describeScram("nobody", "twice", "twice", ""))),
                (short) 0);
        assertEquals(
                List.of("nobody", "twice", ""),
                described.results().stream().map(r -> r.user()).toList());
        assertEquals(
                List.of(
                        Errors.RESOURCE_NOT_FOUND.code(),
                        Errors.DUPLICATE_RESOURCE.code(),
                        Errors.RESOURCE_NOT_FOUND.code()),
                described.results().stream().map(r -> r.errorCode()).toList());
    }

    private static AlterClientQuotasRequestData alterQuota(String type, String name, String key, double value) {
        AlterClientQuotasRequestData data = new AlterClientQuotasRequestData();
        data.entries()
                .add(new AlterClientQuotasRequestData.EntryData()
                        .setEntity(List.of(new AlterClientQuotasRequestData.EntityData()
                                .setEntityType(type)
                                .setEntityName(name)))
                        .setOps(List.of(new AlterClientQuotasRequestData.OpData()
                                .setKey(key)
                                .setValue(value))));
        return data;
    }

    private static DescribeClientQuotasRequestData describeQuotas(String type, byte matchType, String match) {
        return new DescribeClientQuotasRequestData()
                .setComponents(List.of(new DescribeClientQuotasRequestData.ComponentData()
                        .setEntityType(type)
                        .setMatchType(matchType)
                        .setMatch(match)));
    }

    private static short[] versions(ApiKeys api) {
        return switch (api) {
            case CREATE_PARTITIONS -> new short[] {0, 1, 2, 3};
            case DELETE_RECORDS -> new short[] {0, 1, 2};
            case ALTER_CLIENT_QUOTAS, DESCRIBE_CLIENT_QUOTAS -> new short[] {0, 1};
            default -> new short[] {0};
        };
    }

    @Test
    void shouldAnswerBadInputWithKafkasErrorCodes() throws IOException {
        for (short v : versions(ApiKeys.CREATE_PARTITIONS)) {
            CreatePartitionsResponseData unknown = new CreatePartitionsResponseData(
                    new ByteBufferAccessor(exchange(ApiKeys.CREATE_PARTITIONS, v, createPartitions("absent", 3))), v);
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    unknown.results().get(0).errorCode());
            CreatePartitionsResponseData negative = new CreatePartitionsResponseData(
                    new ByteBufferAccessor(exchange(ApiKeys.CREATE_PARTITIONS, v, createPartitions(TOPIC, -5))), v);
            assertEquals(
                    Errors.INVALID_PARTITIONS.code(), negative.results().get(0).errorCode());
            CreatePartitionsRequestData twice = createPartitions(TOPIC, 3);
            twice.topics().add(new CreatePartitionsTopic().setName(TOPIC).setCount(4));
            CreatePartitionsResponseData duplicated = new CreatePartitionsResponseData(
                    new ByteBufferAccessor(exchange(ApiKeys.CREATE_PARTITIONS, v, twice)), v);
            assertEquals(
                    Errors.INVALID_REQUEST.code(), duplicated.results().get(0).errorCode());
        }
        for (short v : versions(ApiKeys.DELETE_RECORDS)) {
            for (long offset : new long[] {1_000_000, -7}) {
                DeleteRecordsResponseData beyond = new DeleteRecordsResponseData(
                        new ByteBufferAccessor(exchange(ApiKeys.DELETE_RECORDS, v, deleteRecords(TOPIC, 0, offset))),
                        v);
                var p = beyond.topics()
                        .iterator()
                        .next()
                        .partitions()
                        .iterator()
                        .next();
                assertEquals(Errors.OFFSET_OUT_OF_RANGE.code(), p.errorCode(), "offset " + offset);
                assertEquals(-1, p.lowWatermark());
            }
            for (DeleteRecordsRequestData unknown : List.of(
                    deleteRecords("absent", 0, 0), deleteRecords(TOPIC, PARTITIONS, 0), deleteRecords(TOPIC, -1, 0))) {
                DeleteRecordsResponseData r = new DeleteRecordsResponseData(
                        new ByteBufferAccessor(exchange(ApiKeys.DELETE_RECORDS, v, unknown)), v);
                assertEquals(
                        Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                        r.topics()
                                .iterator()
                                .next()
                                .partitions()
                                .iterator()
                                .next()
                                .errorCode());
            }
        }
        for (DescribeProducersRequestData unknown :
                List.of(describeProducers("absent", 0), describeProducers(TOPIC, PARTITIONS))) {
            DescribeProducersResponseData r = new DescribeProducersResponseData(
                    new ByteBufferAccessor(exchange(ApiKeys.DESCRIBE_PRODUCERS, (short) 0, unknown)), (short) 0);
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    r.topics().get(0).partitions().get(0).errorCode());
        }
    }

    @Test
    void shouldAnswerBadQuotaInputWithKafkasErrorCodes() throws IOException {
        for (short v : versions(ApiKeys.ALTER_CLIENT_QUOTAS)) {
            for (AlterClientQuotasRequestData bad : List.of(
                    alterQuota("group", "g", "producer_byte_rate", 1),
                    alterQuota("client-id", "wired", "producer_rate", 1),
                    alterQuota("client-id", "wired", "producer_byte_rate", -1),
                    alterQuota("client-id", "wired", "producer_byte_rate", 0.5),
                    alterQuota("client-id", "", "producer_byte_rate", 1),
                    alterQuota("ip", "wired.invalid.", "connection_creation_rate", 1))) {
                AlterClientQuotasResponseData r = new AlterClientQuotasResponseData(
                        new ByteBufferAccessor(exchange(ApiKeys.ALTER_CLIENT_QUOTAS, v, bad)), v);
                assertEquals(Errors.INVALID_REQUEST.code(), r.entries().get(0).errorCode(), bad + " v" + v);
            }
        }
        for (short v : versions(ApiKeys.DESCRIBE_CLIENT_QUOTAS)) {
            for (Map.Entry<DescribeClientQuotasRequestData, Errors> bad : Map.of(
                            describeQuotas("group", (byte) 2, null), Errors.UNSUPPORTED_VERSION,
                            describeQuotas("", (byte) 2, null), Errors.INVALID_REQUEST,
                            describeQuotas("client-id", (byte) 7, null), Errors.UNKNOWN_SERVER_ERROR)
                    .entrySet()) {
                DescribeClientQuotasResponseData r = new DescribeClientQuotasResponseData(
                        new ByteBufferAccessor(exchange(ApiKeys.DESCRIBE_CLIENT_QUOTAS, v, bad.getKey())), v);
                assertEquals(bad.getValue().code(), r.errorCode(), bad.getKey() + " v" + v);
            }
            DescribeClientQuotasResponseData exact = new DescribeClientQuotasResponseData(
                    new ByteBufferAccessor(exchange(
                            ApiKeys.DESCRIBE_CLIENT_QUOTAS, v, describeQuotas("client-id", (byte) 0, "wired"))),
                    v);
            assertEquals(1, exact.entries().size());
            assertEquals(1e9, exact.entries().get(0).values().get(0).value());
        }
    }

    @Test
    void shouldAnswerOrCloseOnEveryTruncation() throws IOException {
        for (ApiMessage request : validRequests()) {
            ApiKeys api = ApiKeys.forId(request.apiKey());
            for (short v : versions(api)) {
                byte[] body = serialize(request, v).array();
                for (int len = 0; len < body.length; len++) {
                    sendGarbage(api, v, Arrays.copyOf(body, len), api + " v" + v + " cut at " + len);
                }
            }
        }
    }

    @Test
    void shouldAnswerOrCloseOnGarbageAndForgedCounts() throws IOException {
        Random random = new Random(20_261_127L);
        List<ApiMessage> requests = validRequests();
        for (int round = 0; round < GARBAGE_ROUNDS; round++) {
            ApiMessage request = requests.get(random.nextInt(requests.size()));
            ApiKeys api = ApiKeys.forId(request.apiKey());
            short[] versions = versions(api);
            short v = versions[random.nextInt(versions.length)];
            byte[] body = serialize(request, v).array();
            int at = random.nextInt(body.length);
            byte[] garbage = new byte[1 + random.nextInt(8)];
            random.nextBytes(garbage);
            for (int i = 0; i < garbage.length && at + i < body.length; i++) {
                body[at + i] = garbage[i];
            }
            sendGarbage(api, v, body, api + " v" + v + " with garbage at " + at + " (round " + round + ")");
        }
        for (ApiMessage request : requests) {
            ApiKeys api = ApiKeys.forId(request.apiKey());
            for (short v : versions(api)) {
                byte[] body = serialize(request, v).array();
                // Every 4-byte window (a non-flexible count) and every 5-byte window (a flexible varint) forged huge.
                for (int at = 0; at + 4 <= body.length; at++) {
                    byte[] forged = body.clone();
                    ByteBuffer.wrap(forged, at, 4).putInt(Integer.MAX_VALUE);
                    sendGarbage(api, v, forged, api + " v" + v + " with a forged int at " + at);
                    if (at + 5 <= body.length) {
                        byte[] varint = body.clone();
                        System.arraycopy(
                                new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07},
                                0,
                                varint,
                                at,
                                5);
                        sendGarbage(api, v, varint, api + " v" + v + " with a forged varint at " + at);
                    }
                }
            }
        }
        assertTrue(broker.broker.boundAddress().getPort() > 0);
    }
}
