package io.sluice.it.group;

import static io.sluice.it.group.GroupIt.send;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Poll;
import io.sluice.testkit.RawKafkaSocket;
import io.sluice.testkit.SluiceBrokerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.requests.SyncGroupRequest;
import org.apache.kafka.common.requests.SyncGroupResponse;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad group requests over the wire get the errors Kafka returns, and the coordinator keeps serving the group that
 * behaves: unknown protocol type, oversized member metadata, commits from a stale generation or an unknown member,
 * offsets for an unknown topic.
 */
class GroupWireBadInputTest {
    private static final String TOPIC = "bad-input";
    private static final short JOIN_V = 9;
    private static final short SYNC_V = 5;
    private static final short HEARTBEAT_V = 4;
    private static final short COMMIT_V = 8;
    private static final Duration AWAIT_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = GroupIt.startBroker(tempDir);
        GroupIt.createTopic(broker.bootstrap(), TOPIC, 1);
    }

    @AfterAll
    static void stopBroker() {
        GroupIt.stopAndKeepLog(broker, GroupWireBadInputTest.class);
    }

    private static JoinGroupRequestData join(String group, String memberId, String protocolType, byte[] metadata) {
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
                new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol()
                .setName("range")
                .setMetadata(metadata));
        return new JoinGroupRequestData()
                .setGroupId(group)
                .setMemberId(memberId)
                .setProtocolType(protocolType)
                .setSessionTimeoutMs(GroupIt.SESSION_TIMEOUT_MS)
                .setRebalanceTimeoutMs(30_000)
                .setProtocols(protocols);
    }

    private static byte[] subscription() {
        return Utils.toArray(
                ConsumerProtocol.serializeSubscription(new ConsumerPartitionAssignor.Subscription(List.of(TOPIC))));
    }

    private static void awaitCoordinator(RawKafkaSocket socket, String group) throws Exception {
        Poll.until(
                "a coordinator for group " + group,
                AWAIT_TIMEOUT,
                () -> {
                    FindCoordinatorResponse response = send(
                            socket,
                            new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData()
                                    .setKeyType(FindCoordinatorRequest.CoordinatorType.GROUP.id())
                                    .setCoordinatorKeys(List.of(group))),
                            ApiKeys.FIND_COORDINATOR,
                            (short) 4);
                    Errors error =
                            Errors.forCode(response.data().coordinators().get(0).errorCode());
                    if (error != Errors.NONE) {
                        assertEquals(Errors.COORDINATOR_NOT_AVAILABLE, error, "while __consumer_offsets is created");
                    }
                    return error;
                },
                error -> error == Errors.NONE);
    }

    /** The answer to a JoinGroup, retried like a client retries while the coordinator loads the group's partition. */
    private static JoinGroupResponseData joinResponse(RawKafkaSocket socket, JoinGroupRequestData request)
            throws InterruptedException {
        return Poll.until(
                "a JoinGroup answer other than COORDINATOR_LOAD_IN_PROGRESS",
                AWAIT_TIMEOUT,
                () -> GroupIt.<JoinGroupResponse>send(
                                socket, new JoinGroupRequest.Builder(request), ApiKeys.JOIN_GROUP, JOIN_V)
                        .data(),
                (JoinGroupResponseData answer) -> answer.errorCode() != Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
    }

    private static Errors commit(RawKafkaSocket socket, String group, String memberId, int generation, String topic)
            throws IOException {
        OffsetCommitRequestData data = new OffsetCommitRequestData()
                .setGroupId(group)
                .setMemberId(memberId)
                .setGenerationIdOrMemberEpoch(generation)
                .setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic()
                        .setName(topic)
                        .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                .setPartitionIndex(0)
                                .setCommittedOffset(1)))));
        OffsetCommitResponse response =
                send(socket, new OffsetCommitRequest.Builder(data), ApiKeys.OFFSET_COMMIT, COMMIT_V);
        return Errors.forCode(
                response.data().topics().get(0).partitions().get(0).errorCode());
    }

    @Test
    void shouldAnswerBadGroupRequestsWithKafkasErrorsAndKeepServing() throws Exception {
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap(), Duration.ofSeconds(60))) {
            // Like every client, look the coordinator up first: the first lookup creates __consumer_offsets.
            for (String group : List.of("good", "big", "other", "never-seen")) {
                awaitCoordinator(socket, group);
            }
            // A well-behaved member makes group "good" stable.
            JoinGroupResponseData first = joinResponse(socket, join("good", "", "consumer", subscription()));
            assertEquals(Errors.MEMBER_ID_REQUIRED.code(), first.errorCode());
            JoinGroupResponseData joined =
                    joinResponse(socket, join("good", first.memberId(), "consumer", subscription()));
            assertEquals(Errors.NONE.code(), joined.errorCode());
            String member = joined.memberId();
            int generation = joined.generationId();
            SyncGroupResponse synced = send(
                    socket,
                    new SyncGroupRequest.Builder(new SyncGroupRequestData()
                            .setGroupId("good")
                            .setMemberId(member)
                            .setGenerationId(generation)
                            .setProtocolType("consumer")
                            .setProtocolName("range")
                            .setAssignments(List.of(new SyncGroupRequestData.SyncGroupRequestAssignment()
                                    .setMemberId(member)
                                    .setAssignment(new byte[0])))),
                    ApiKeys.SYNC_GROUP,
                    SYNC_V);
            assertEquals(Errors.NONE.code(), synced.data().errorCode());

            assertEquals(
                    Errors.INCONSISTENT_GROUP_PROTOCOL.code(),
                    joinResponse(socket, join("good", "", "connect", subscription()))
                            .errorCode(),
                    "unknown protocol type");
            assertEquals(
                    Errors.INCONSISTENT_GROUP_PROTOCOL.code(),
                    joinResponse(socket, join("other", "", "", subscription())).errorCode(),
                    "empty protocol type");
            assertEquals(
                    Errors.INVALID_REQUEST.code(),
                    joinResponse(socket, join("big", "", "consumer", new byte[2 * 1024 * 1024]))
                            .errorCode(),
                    "member metadata above sluice.group.member.metadata.max.bytes");

            assertEquals(Errors.ILLEGAL_GENERATION, commit(socket, "good", member, generation + 1, TOPIC));
            assertEquals(Errors.UNKNOWN_MEMBER_ID, commit(socket, "good", "intruder", generation, TOPIC));
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION, commit(socket, "good", member, generation, "no-such-topic"));
            assertEquals(Errors.ILLEGAL_GENERATION, commit(socket, "never-seen", "m", 4, TOPIC));

            assertEquals(
                    Errors.NONE, commit(socket, "good", member, generation, TOPIC), "the good member still commits");
            HeartbeatResponse heartbeat = send(
                    socket,
                    new HeartbeatRequest.Builder(new HeartbeatRequestData()
                            .setGroupId("good")
                            .setMemberId(member)
                            .setGenerationId(generation)),
                    ApiKeys.HEARTBEAT,
                    HEARTBEAT_V);
            assertEquals(Errors.NONE.code(), heartbeat.data().errorCode());
        }
    }
}
