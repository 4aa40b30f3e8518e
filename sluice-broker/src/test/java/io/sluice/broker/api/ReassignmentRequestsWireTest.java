package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.testkit.RawKafkaSocket;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData.ReassignablePartition;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData.ReassignableTopic;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterPartitionReassignments and ListPartitionReassignments against one broker (its own controller), on the wire and
 * through Kafka's admin client: every refusal answers Kafka's error code per partition (a whole-request error too,
 * so the admin client sees it), a target equal to the current replicas succeeds and changes nothing, a list filter
 * naming unknown topics and partitions answers nothing for them, and a body cut at every byte, spliced with garbage
 * or claiming a huge collection ends in a response or a closed connection. Afterwards the topic is as it was.
 */
class ReassignmentRequestsWireTest {
    private static final String TOPIC = "wire-moves";
    private static final int MAX_RESPONSE_BYTES = 1 << 20;
    private static final int GARBAGE_ROUNDS = 40;

    @TempDir
    static Path dataDir;

    static InProcessBroker broker;
    static Admin admin;
    static int self;
    private static int correlation = 100;

    @BeforeAll
    static void start() throws Exception {
        broker = new InProcessBroker(dataDir, Map.of("auto.create.topics.enable", "false"));
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get();
        self = replicas(0).get(0);
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    private static List<Integer> replicas(int partition) throws Exception {
        TopicPartitionInfo info = admin.describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get()
                .get(TOPIC)
                .partitions()
                .get(partition);
        return info.replicas().stream().map(n -> n.id()).toList();
    }

    @AfterEach
    void nothingMovesAndTheBrokerServes() throws Exception {
        assertEquals(
                Map.of(), admin.listPartitionReassignments().reassignments().get());
        assertEquals(List.of(self), replicas(0));
        assertEquals(List.of(self), replicas(1));
    }

    @Test
    void shouldAnswerEachBadTargetWithKafkasErrorCode() throws IOException {
        AlterPartitionReassignmentsRequestData request = new AlterPartitionReassignmentsRequestData();
        List<ReassignablePartition> partitions = new ArrayList<>();
        partitions.add(target(0, List.of()));
        partitions.add(target(1, List.of(self, self)));
        request.topics().add(new ReassignableTopic().setName(TOPIC).setPartitions(partitions));
        request.topics()
                .add(new ReassignableTopic()
                        .setName(TOPIC + "-absent")
                        .setPartitions(List.of(target(0, List.of(self)))));
        AlterPartitionReassignmentsResponseData r = alter(request);
        assertEquals(Errors.NONE.code(), r.errorCode());
        assertEquals(
                List.of(Errors.INVALID_REPLICA_ASSIGNMENT.code(), Errors.INVALID_REPLICA_ASSIGNMENT.code()),
                codes(r, TOPIC));
        assertEquals(List.of(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()), codes(r, TOPIC + "-absent"));

        for (List<Integer> bad : List.of(List.of(-1), List.of(self, 42), List.of(42, 42))) {
            assertEquals(
                    List.of(Errors.INVALID_REPLICA_ASSIGNMENT.code()),
                    codes(alter(one(TOPIC, target(0, bad))), TOPIC),
                    bad.toString());
        }
        for (int p : new int[] {-1, 2, Integer.MAX_VALUE}) {
            assertEquals(
                    List.of(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()),
                    codes(alter(one(TOPIC, target(p, List.of(self)))), TOPIC),
                    "partition " + p);
        }
        assertEquals(
                List.of(Errors.NO_REASSIGNMENT_IN_PROGRESS.code()),
                codes(
                        alter(one(
                                TOPIC,
                                new ReassignablePartition().setPartitionIndex(0).setReplicas(null))),
                        TOPIC));
        assertEquals(List.of(Errors.NONE.code()), codes(alter(one(TOPIC, target(0, List.of(self)))), TOPIC));
    }

    @Test
    void shouldSetAWholeRequestErrorOnEveryPartitionItNames() throws IOException {
        AlterPartitionReassignmentsRequestData twice = one(TOPIC, target(0, List.of(self)));
        twice.topics().add(new ReassignableTopic().setName(TOPIC).setPartitions(List.of(target(0, List.of(self)))));
        AlterPartitionReassignmentsResponseData r = alter(twice);
        assertEquals(Errors.INVALID_REQUEST.code(), r.errorCode());
        assertEquals(2, r.responses().size(), "as Kafka's error response: every partition named, with the error");
        for (var topic : r.responses()) {
            assertEquals(List.of(Errors.INVALID_REQUEST.code()), codes(topic.partitions()));
            assertTrue(topic.partitions().get(0).errorMessage().contains("more than once"));
        }
    }

    @Test
    void shouldAnswerTheAdminClientWithKafkasExceptions() throws Exception {
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        assertInstanceOf(
                UnknownTopicOrPartitionException.class,
                alterFailure(
                        new TopicPartition(TOPIC + "-absent", 0),
                        Optional.of(new NewPartitionReassignment(List.of(self)))));
        assertInstanceOf(
                InvalidReplicaAssignmentException.class,
                alterFailure(tp, Optional.of(new NewPartitionReassignment(List.of(-3)))));
        assertInstanceOf(NoReassignmentInProgressException.class, alterFailure(tp, Optional.empty()));
        admin.alterPartitionReassignments(Map.of(tp, Optional.of(new NewPartitionReassignment(List.of(self)))))
                .all()
                .get();
        assertEquals(
                Map.of(),
                admin.listPartitionReassignments(
                                Set.of(tp, new TopicPartition(TOPIC, 9), new TopicPartition("absent", 0)))
                        .reassignments()
                        .get());
    }

    private static Throwable alterFailure(TopicPartition tp, Optional<NewPartitionReassignment> target) {
        ExecutionException e = assertThrows(
                ExecutionException.class,
                () -> admin.alterPartitionReassignments(Map.of(tp, target))
                        .all()
                        .get());
        return e.getCause();
    }

    @Test
    void shouldListNothingForUnknownTopicsAndPartitions() throws IOException {
        ListPartitionReassignmentsRequestData request = new ListPartitionReassignmentsRequestData()
                .setTopics(List.of(
                        new ListPartitionReassignmentsTopics()
                                .setName(TOPIC)
                                .setPartitionIndexes(List.of(-1, 0, 2, 99)),
                        new ListPartitionReassignmentsTopics().setName("absent").setPartitionIndexes(List.of(0))));
        ListPartitionReassignmentsResponseData r = new ListPartitionReassignmentsResponseData(
                new ByteBufferAccessor(exchange(ApiKeys.LIST_PARTITION_REASSIGNMENTS, request)), (short) 0);
        assertEquals(Errors.NONE.code(), r.errorCode());
        assertEquals(List.of(), r.topics());
    }

    @Test
    void shouldAnswerOrCloseOnEveryTruncation() throws IOException {
        for (ApiMessage request : validRequests()) {
            byte[] body = serialize(request).array();
            for (int len = 0; len < body.length; len++) {
                sendGarbage(request, Arrays.copyOf(body, len), "cut at " + len);
            }
        }
    }

    @Test
    void shouldAnswerOrCloseOnGarbageAndForgedCounts() throws IOException {
        Random random = new Random(20_261_208L);
        List<ApiMessage> requests = validRequests();
        for (int round = 0; round < GARBAGE_ROUNDS; round++) {
            ApiMessage request = requests.get(random.nextInt(requests.size()));
            byte[] body = serialize(request).array();
            int at = random.nextInt(body.length);
            byte[] garbage = new byte[1 + random.nextInt(8)];
            random.nextBytes(garbage);
            System.arraycopy(garbage, 0, body, at, Math.min(garbage.length, body.length - at));
            sendGarbage(request, body, "garbage at " + at + " (round " + round + ")");
        }
        for (ApiMessage request : requests) {
            byte[] body = serialize(request).array();
            // Every 5-byte window forged into the largest varint (flexible versions count with varints).
            for (int at = 0; at + 5 <= body.length; at++) {
                byte[] forged = body.clone();
                System.arraycopy(
                        new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07}, 0, forged, at, 5);
                sendGarbage(request, forged, "a forged varint at " + at);
                byte[] forgedInt = body.clone();
                ByteBuffer.wrap(forgedInt, at, 4).putInt(Integer.MAX_VALUE);
                sendGarbage(request, forgedInt, "a forged int at " + at);
            }
        }
    }

    private static List<ApiMessage> validRequests() {
        AlterPartitionReassignmentsRequestData alter = one(TOPIC + "-absent", target(0, List.of(1, 2, 3)));
        alter.topics()
                .get(0)
                .partitions()
                .add(new ReassignablePartition().setPartitionIndex(1).setReplicas(null));
        ListPartitionReassignmentsRequestData list = new ListPartitionReassignmentsRequestData()
                .setTopics(List.of(
                        new ListPartitionReassignmentsTopics().setName(TOPIC).setPartitionIndexes(List.of(0, 1))));
        return List.of(alter, list, new ListPartitionReassignmentsRequestData().setTopics(null));
    }

    private static ReassignablePartition target(int partition, List<Integer> replicas) {
        return new ReassignablePartition().setPartitionIndex(partition).setReplicas(replicas);
    }

    private static AlterPartitionReassignmentsRequestData one(String topic, ReassignablePartition partition) {
        AlterPartitionReassignmentsRequestData request = new AlterPartitionReassignmentsRequestData();
        request.topics().add(new ReassignableTopic().setName(topic).setPartitions(new ArrayList<>(List.of(partition))));
        return request;
    }

    private static AlterPartitionReassignmentsResponseData alter(AlterPartitionReassignmentsRequestData request)
            throws IOException {
        return new AlterPartitionReassignmentsResponseData(
                new ByteBufferAccessor(exchange(ApiKeys.ALTER_PARTITION_REASSIGNMENTS, request)), (short) 0);
    }

    private static List<Short> codes(AlterPartitionReassignmentsResponseData r, String topic) {
        return r.responses().stream()
                .filter(t -> t.name().equals(topic))
                .flatMap(t -> t.partitions().stream())
                .map(ReassignablePartitionResponse::errorCode)
                .toList();
    }

    private static List<Short> codes(List<ReassignablePartitionResponse> partitions) {
        return partitions.stream().map(ReassignablePartitionResponse::errorCode).toList();
    }

    private static ByteBuffer serialize(Message message) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(message.size(cache, (short) 0));
        message.write(new ByteBufferAccessor(buffer), cache, (short) 0);
        return buffer.flip();
    }

    private static ByteBuffer header(ApiKeys api, int id) {
        RequestHeader header = new RequestHeader(api, (short) 0, "wire-test", id);
        return serialize(header.data(), header.headerVersion());
    }

    private static ByteBuffer serialize(Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(buffer), cache, version);
        return buffer.flip();
    }

    /** Sends {@code request} (v0) and returns the response body, positioned after the response header. */
    private static ByteBuffer exchange(ApiKeys api, Message request) throws IOException {
        int id = correlation++;
        ByteBuffer h = header(api, id);
        ByteBuffer b = serialize(request);
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendFrame(ByteBuffer.allocate(h.remaining() + b.remaining())
                    .put(h)
                    .put(b)
                    .flip());
            ByteBuffer response = socket.readFrame(MAX_RESPONSE_BYTES);
            ResponseHeader header = ResponseHeader.parse(response, api.responseHeaderVersion((short) 0));
            assertEquals(id, header.correlationId());
            return response;
        }
    }

    /** Sends {@code body} as the request's body: a response with its correlation id or a close, never silence. */
    private static void sendGarbage(ApiMessage request, byte[] body, String what) throws IOException {
        ApiKeys api = ApiKeys.forId(request.apiKey());
        int id = correlation++;
        ByteBuffer h = header(api, id);
        ByteBuffer frame = ByteBuffer.allocate(h.remaining() + body.length)
                .put(h)
                .put(body)
                .flip();
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            socket.sendFrame(frame);
            try {
                ByteBuffer response = socket.readFrame(MAX_RESPONSE_BYTES);
                assertEquals(id, response.getInt(), "correlation id of the answer to " + api + " with " + what);
            } catch (EOFException | SocketException closed) {
                // Kafka closes the connection on a body it cannot parse.
            } catch (SocketTimeoutException hang) {
                fail("neither an answer nor a close after " + api + " with " + what);
            }
        }
    }
}
