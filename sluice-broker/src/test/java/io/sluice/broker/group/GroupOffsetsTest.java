package io.sluice.broker.group;

import static io.sluice.broker.group.GroupHarness.SESSION_MS;
import static io.sluice.broker.group.GroupHarness.assignment;
import static io.sluice.broker.group.GroupHarness.commitError;
import static io.sluice.broker.group.GroupHarness.partitionsOf;
import static io.sluice.broker.group.GroupHarness.subscription;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupOffsetsTest {
    private static final int INITIAL_DELAY_MS = 0;
    private static final int SIMPLE = -1;
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final byte[] SUB = subscription(List.of("t"), List.of());
    private static final long RETENTION_MS = GroupCoordinatorConfig.defaults().offsetsRetentionMs();
    private static final long CHECK_MS = GroupCoordinatorConfig.defaults().offsetsRetentionCheckIntervalMs();

    @TempDir
    Path dir;

    private GroupHarness h;

    @BeforeEach
    void setUp() throws IOException {
        h = new GroupHarness(dir, GroupHarness.config(INITIAL_DELAY_MS));
    }

    @AfterEach
    void tearDown() throws IOException {
        h.close();
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    private JoinGroupResponseData stableMember(String group) {
        CompletableFuture<JoinGroupResponseData> join = h.joinNew(group, SUB);
        h.scheduler.advance(0);
        JoinGroupResponseData joined = join.getNow(null);
        assertEquals(Errors.NONE.code(), joined.errorCode());
        h.sync(group, joined.memberId(), joined.generationId(), Map.of(joined.memberId(), assignment(List.of(T0))));
        return joined;
    }

    private DescribeGroupsResponseData.DescribedGroup describe(String group) {
        return h.coordinator
                .handleDescribeGroups(new DescribeGroupsRequestData().setGroups(List.of(group)), (short) 5, "c", "h")
                .getNow(null)
                .groups()
                .get(0);
    }

    private List<String> listedGroups(short version, List<String> states) {
        ListGroupsResponseData response = h.coordinator
                .handleListGroups(new ListGroupsRequestData().setStatesFilter(states), version, "c", "h")
                .getNow(null);
        return response.groups().stream()
                .map(g -> g.groupId() + ":" + g.groupState())
                .sorted()
                .collect(Collectors.toList());
    }

    @Test
    void shouldCommitAndFetchOffsetsOfStandaloneConsumer() {
        assertEquals(-1L, h.committed("g", "t", 0), "nothing committed yet");
        assertEquals(Errors.NONE, commitError(h.commit("g", "", null, SIMPLE, "t", 0, 42, "meta")));
        assertEquals(42L, h.committed("g", "t", 0));
        OffsetFetchResponseData all = h.coordinator
                .handleOffsetFetch(new OffsetFetchRequestData().setGroupId("g").setTopics(null), (short) 7, "c", "h")
                .getNow(null);
        OffsetFetchResponseData.OffsetFetchResponsePartition p =
                all.topics().get(0).partitions().get(0);
        assertEquals(42L, p.committedOffset());
        assertEquals(7, p.committedLeaderEpoch());
        assertEquals("meta", p.metadata());
    }

    @Test
    void shouldFetchOffsetsOfSeveralGroupsInOneBatchedRequest() {
        h.commit("a", "", null, SIMPLE, "t", 0, 1, "");
        h.commit("b", "", null, SIMPLE, "t", 0, 2, "");
        OffsetFetchResponseData response = h.coordinator
                .handleOffsetFetch(
                        new OffsetFetchRequestData()
                                .setGroups(List.of(
                                        new OffsetFetchRequestData.OffsetFetchRequestGroup()
                                                .setGroupId("a")
                                                .setTopics(null),
                                        new OffsetFetchRequestData.OffsetFetchRequestGroup()
                                                .setGroupId("b")
                                                .setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopics()
                                                        .setName("t")
                                                        .setPartitionIndexes(List.of(0, 1)))),
                                        new OffsetFetchRequestData.OffsetFetchRequestGroup()
                                                .setGroupId("none")
                                                .setTopics(null))),
                        (short) 9,
                        "c",
                        "h")
                .getNow(null);
        assertEquals(3, response.groups().size());
        assertEquals(
                1L, response.groups().get(0).topics().get(0).partitions().get(0).committedOffset());
        assertEquals(
                2L, response.groups().get(1).topics().get(0).partitions().get(0).committedOffset());
        assertEquals(
                -1L,
                response.groups().get(1).topics().get(0).partitions().get(1).committedOffset());
        assertEquals(0, response.groups().get(2).topics().size());
    }

    @Test
    void shouldRefuseCommitsForUnknownTopicsAndOversizedMetadataPerPartition() {
        OffsetCommitResponseData response = h.coordinator
                .handleOffsetCommit(
                        new OffsetCommitRequestData()
                                .setGroupId("g")
                                .setGenerationIdOrMemberEpoch(SIMPLE)
                                .setMemberId("")
                                .setTopics(List.of(
                                        new OffsetCommitRequestData.OffsetCommitRequestTopic()
                                                .setName("unknown-topic")
                                                .setPartitions(List.of(
                                                        new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                                                .setPartitionIndex(0)
                                                                .setCommittedOffset(1))),
                                        new OffsetCommitRequestData.OffsetCommitRequestTopic()
                                                .setName("t")
                                                .setPartitions(List.of(
                                                        new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                                                .setPartitionIndex(0)
                                                                .setCommittedOffset(5)
                                                                .setCommittedMetadata("x".repeat(4097)),
                                                        new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                                                .setPartitionIndex(1)
                                                                .setCommittedOffset(6)
                                                                .setCommittedMetadata("x".repeat(4096)))))),
                        GroupHarness.COMMIT_V,
                        "c",
                        "h")
                .getNow(null);
        assertEquals(
                Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                response.topics().get(0).partitions().get(0).errorCode());
        assertEquals(
                Errors.OFFSET_METADATA_TOO_LARGE.code(),
                response.topics().get(1).partitions().get(0).errorCode());
        assertEquals(
                Errors.NONE.code(), response.topics().get(1).partitions().get(1).errorCode());
        assertEquals(-1L, h.committed("g", "t", 0));
        assertEquals(6L, h.committed("g", "t", 1));
    }

    @Test
    void shouldRejectCommitWithGenerationForUnknownGroup() {
        assertEquals(Errors.ILLEGAL_GENERATION, commitError(h.commit("ghost", "m", null, 3, "t", 0, 1, "")));
    }

    @Test
    void shouldRejectStandaloneCommitIntoActiveGroup() {
        JoinGroupResponseData member = stableMember("g");
        assertEquals(Errors.UNKNOWN_MEMBER_ID, commitError(h.commit("g", "", null, SIMPLE, "t", 0, 9, "")));
        assertEquals(Errors.NONE, commitError(h.commit("g", member.memberId(), null, 1, "t", 0, 9, "")));
        assertEquals(9L, h.committed("g", "t", 0));
    }

    @Test
    void shouldKeepCommittedOffsetsAndMembershipAcrossRestart() throws IOException {
        JoinGroupResponseData member = stableMember("g");
        assertEquals(Errors.NONE, commitError(h.commit("g", member.memberId(), null, 1, "t", 0, 100, "m")));
        h.commit("simple", "", null, SIMPLE, "t", 0, 7, "");
        h.restart();
        assertEquals(100L, h.committed("g", "t", 0));
        assertEquals(7L, h.committed("simple", "t", 0));
        DescribeGroupsResponseData.DescribedGroup described = describe("g");
        assertEquals("Stable", described.groupState());
        assertEquals(member.memberId(), described.members().get(0).memberId());
        assertEquals(List.of(T0), partitionsOf(described.members().get(0).memberAssignment()));
        assertEquals(Errors.NONE, h.heartbeat("g", member.memberId(), 1), "the member survives a coordinator restart");
        assertEquals(Errors.NONE, commitError(h.commit("g", member.memberId(), null, 1, "t", 0, 101, "")));

        h.scheduler.advance(SESSION_MS + 1);
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID,
                h.heartbeat("g", member.memberId(), 1),
                "a reloaded member that never comes back is expelled after its session timeout");
        h.restart();
        assertEquals(101L, h.committed("g", "t", 0));
    }

    @Test
    void shouldExpireOffsetsOfEmptyGroupAfterRetention() throws IOException {
        JoinGroupResponseData member = stableMember("g");
        h.commit("g", member.memberId(), null, 1, "t", 0, 5, "");
        h.leave("g", member.memberId(), null);
        assertEquals("Empty", describe("g").groupState());
        h.scheduler.advance(RETENTION_MS - CHECK_MS);
        assertEquals(5L, h.committed("g", "t", 0), "retention counts from when the group became empty");
        h.scheduler.advance(CHECK_MS);
        assertEquals(-1L, h.committed("g", "t", 0));
        assertEquals(List.of(), listedGroups((short) 4, List.of()), "an empty group without offsets is removed");
        h.restart();
        assertEquals(-1L, h.committed("g", "t", 0), "the expiry is durable");
        assertEquals("Dead", describe("g").groupState());
    }

    @Test
    void shouldNotExpireOffsetsOfActiveGroupForSubscribedTopics() {
        JoinGroupResponseData member = stableMember("g");
        h.commit("g", member.memberId(), null, 1, "t", 0, 5, "");
        h.commit("g", member.memberId(), null, 1, "old-topic", 0, 6, "");
        for (long elapsed = 0; elapsed <= RETENTION_MS + CHECK_MS; elapsed += SESSION_MS / 2) {
            h.scheduler.advance(SESSION_MS / 2);
            assertEquals(Errors.NONE, h.heartbeat("g", member.memberId(), 1));
        }
        assertEquals(5L, h.committed("g", "t", 0));
        assertEquals(-1L, h.committed("g", "old-topic", 0), "nobody subscribes to old-topic any more");
    }

    @Test
    void shouldExpireStandaloneOffsetsFromLastCommit() {
        h.commit("simple", "", null, SIMPLE, "t", 0, 5, "");
        h.scheduler.advance(RETENTION_MS / 2);
        h.commit("simple", "", null, SIMPLE, "t", 1, 6, "");
        h.scheduler.advance(RETENTION_MS / 2 + CHECK_MS);
        assertEquals(-1L, h.committed("simple", "t", 0));
        assertEquals(6L, h.committed("simple", "t", 1));
    }

    @Test
    void shouldDeleteOffsetsOnlyForTopicsTheGroupDoesNotConsume() {
        JoinGroupResponseData member = stableMember("g");
        h.commit("g", member.memberId(), null, 1, "t", 0, 5, "");
        h.commit("g", member.memberId(), null, 1, "other", 0, 6, "");
        OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection topics =
                new OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection();
        topics.add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic()
                .setName("t")
                .setPartitions(
                        List.of(new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0))));
        topics.add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic()
                .setName("other")
                .setPartitions(
                        List.of(new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0))));
        OffsetDeleteResponseData response = h.coordinator
                .handleOffsetDelete(
                        new OffsetDeleteRequestData().setGroupId("g").setTopics(topics), (short) 0, "c", "h")
                .getNow(null);
        assertEquals(Errors.NONE.code(), response.errorCode());
        assertEquals(
                Errors.GROUP_SUBSCRIBED_TO_TOPIC.code(),
                response.topics().find("t").partitions().find(0).errorCode());
        assertEquals(
                Errors.NONE.code(),
                response.topics().find("other").partitions().find(0).errorCode());
        assertEquals(5L, h.committed("g", "t", 0));
        assertEquals(-1L, h.committed("g", "other", 0));
        assertEquals(
                Errors.GROUP_ID_NOT_FOUND.code(),
                h.coordinator
                        .handleOffsetDelete(
                                new OffsetDeleteRequestData().setGroupId("nope").setTopics(topics.duplicate()),
                                (short) 0,
                                "c",
                                "h")
                        .getNow(null)
                        .errorCode());
    }

    @Test
    void shouldForgetOffsetsOfDeletedTopicDurably() throws IOException {
        h.commit("a", "", null, SIMPLE, "gone", 0, 5, "");
        h.commit("a", "", null, SIMPLE, "t", 0, 6, "");
        h.commit("b", "", null, SIMPLE, "gone", 1, 7, "");
        assertEquals(2, h.coordinator.onTopicDeleted("gone"));
        h.restart();
        assertEquals(-1L, h.committed("a", "gone", 0));
        assertEquals(-1L, h.committed("b", "gone", 1));
        assertEquals(6L, h.committed("a", "t", 0));
    }

    @Test
    void shouldDeleteOnlyEmptyGroups() throws IOException {
        JoinGroupResponseData member = stableMember("g");
        h.commit("g", member.memberId(), null, 1, "t", 0, 5, "");
        h.commit("simple", "", null, SIMPLE, "t", 0, 5, "");
        DeleteGroupsResponseData response = h.coordinator
                .handleDeleteGroups(
                        new DeleteGroupsRequestData().setGroupsNames(List.of("g", "simple", "nope")),
                        (short) 2,
                        "c",
                        "h")
                .getNow(null);
        assertEquals(Errors.NON_EMPTY_GROUP.code(), response.results().find("g").errorCode());
        assertEquals(Errors.NONE.code(), response.results().find("simple").errorCode());
        assertEquals(
                Errors.GROUP_ID_NOT_FOUND.code(),
                response.results().find("nope").errorCode());
        assertEquals(-1L, h.committed("simple", "t", 0));
        h.restart();
        assertEquals(-1L, h.committed("simple", "t", 0), "the deletion is durable");
        assertEquals(5L, h.committed("g", "t", 0));
    }

    @Test
    void shouldListAndDescribeGroupsLikeKafka() {
        JoinGroupResponseData member = stableMember("g");
        h.commit("simple", "", null, SIMPLE, "t", 0, 5, "");
        assertEquals(List.of("g:Stable", "simple:Empty"), listedGroups((short) 4, List.of()));
        assertEquals(List.of("g:Stable"), listedGroups((short) 4, List.of("stable")));
        ListGroupsResponseData byType = h.coordinator
                .handleListGroups(new ListGroupsRequestData().setTypesFilter(List.of("consumer")), (short) 5, "c", "h")
                .getNow(null);
        assertEquals(0, byType.groups().size(), "only classic groups live here");

        DescribeGroupsResponseData.DescribedGroup g = describe("g");
        assertEquals("consumer", g.protocolType());
        assertEquals("range", g.protocolData());
        assertEquals("client", g.members().get(0).clientId());
        assertEquals(
                List.of("t"),
                org.apache.kafka.clients.consumer.internals.ConsumerProtocol.deserializeSubscription(
                                java.nio.ByteBuffer.wrap(g.members().get(0).memberMetadata()))
                        .topics());
        assertEquals("Dead", describe("unknown").groupState());
        assertEquals(Errors.NONE.code(), describe("unknown").errorCode());
        assertEquals("", describe("simple").protocolType());
        assertTrue(member.memberId().startsWith("client-"));
    }
}
