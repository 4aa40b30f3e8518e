package io.sluice.broker.group;

import static io.sluice.broker.group.GroupHarness.assignment;
import static io.sluice.broker.group.GroupHarness.commitError;
import static io.sluice.broker.group.GroupHarness.subscription;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.topic.Partition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator follows this broker's leadership of the {@code __consumer_offsets} partitions: it loads a
 * partition's groups when it starts leading it, answers NOT_COORDINATOR once it stops, and answers writes only when
 * every in-sync replica holds them.
 */
class GroupLeadershipTest {
    private static final byte[] SUB = subscription(List.of("t"), List.of());
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final String GROUP = "g";

    @TempDir
    Path dir;

    private GroupHarness h;
    private int partition;
    private long commitTimeoutMs;

    @BeforeEach
    void setUp() throws IOException {
        h = GroupHarness.leadingNothing(dir, GroupHarness.config(0));
        partition = h.coordinator.partitionFor(GROUP);
        commitTimeoutMs = h.config.offsetsCommitTimeoutMs();
    }

    @AfterEach
    void tearDown() throws IOException {
        h.close();
    }

    private JoinGroupResponseData stableMember() {
        CompletableFuture<JoinGroupResponseData> join = h.joinNew(GROUP, SUB);
        h.scheduler.advance(0);
        JoinGroupResponseData joined = join.getNow(null);
        assertEquals(Errors.NONE.code(), joined.errorCode());
        SyncGroupResponseData synced = h.sync(
                        GROUP,
                        joined.memberId(),
                        joined.generationId(),
                        Map.of(joined.memberId(), assignment(List.of(T0))))
                .getNow(null);
        assertEquals(Errors.NONE.code(), synced.errorCode());
        return joined;
    }

    private Errors joinError() {
        return Errors.forCode(h.join(GROUP, "", SUB).getNow(null).errorCode());
    }

    private DescribeGroupsResponseData.DescribedGroup describe() {
        return h.coordinator
                .handleDescribeGroups(new DescribeGroupsRequestData().setGroups(List.of(GROUP)), (short) 5, "c", "h")
                .getNow(null)
                .groups()
                .get(0);
    }

    private ListGroupsResponseData listGroups() {
        return h.coordinator
                .handleListGroups(new ListGroupsRequestData(), (short) 4, "c", "h")
                .getNow(null);
    }

    private Errors batchFetchError() {
        return Errors.forCode(h.coordinator
                .handleOffsetFetch(
                        new OffsetFetchRequestData()
                                .setGroups(List.of(
                                        new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId(GROUP))),
                        (short) 8,
                        "c",
                        "h")
                .getNow(null)
                .groups()
                .get(0)
                .errorCode());
    }

    private Errors deleteError() {
        return Errors.forCode(h.coordinator
                .handleDeleteGroups(new DeleteGroupsRequestData().setGroupsNames(List.of(GROUP)), (short) 2, "c", "h")
                .getNow(null)
                .results()
                .find(GROUP)
                .errorCode());
    }

    @Test
    void shouldAnswerLoadInProgressUntilThePartitionIsLoaded() throws IOException {
        h.lead(partition);
        assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS, joinError());
        assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS.code(), describe().errorCode());
        assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS.code(), listGroups().errorCode());
        h.scheduler.advance(0);
        assertEquals(Errors.MEMBER_ID_REQUIRED, joinError());
        assertEquals(Errors.NONE.code(), listGroups().errorCode());
    }

    @Test
    void shouldAnswerNotCoordinatorForGroupsOfPartitionsLedElsewhere() {
        assertEquals(Errors.NOT_COORDINATOR, joinError());
        assertEquals(Errors.NOT_COORDINATOR, commitError(h.commit(GROUP, "", null, -1, "t", 0, 1, "")));
        assertEquals(Errors.NOT_COORDINATOR, h.heartbeat(GROUP, "m", 1));
        assertEquals(Errors.NOT_COORDINATOR.code(), describe().errorCode());
        assertEquals(Errors.NOT_COORDINATOR, batchFetchError());
        assertEquals(Errors.NOT_COORDINATOR, deleteError());
    }

    @Test
    void shouldUnloadOnResignationAnsweringWaitingMembersNotCoordinator() throws IOException {
        h.lead(partition);
        h.scheduler.advance(0);
        JoinGroupResponseData member = stableMember();
        CompletableFuture<JoinGroupResponseData> rejoin = h.join(GROUP, member.memberId(), SUB);
        CompletableFuture<JoinGroupResponseData> newcomer = h.joinNew(GROUP, SUB);
        assertFalse(newcomer.isDone(), "waits for the rebalance");

        h.resign(partition);
        assertEquals(Errors.NOT_COORDINATOR, h.heartbeat(GROUP, member.memberId(), 1), "refused at once");
        h.scheduler.advance(0);
        assertEquals(Errors.NOT_COORDINATOR.code(), newcomer.getNow(null).errorCode(), "answered by the unload");
        assertTrue(rejoin.isDone());
        assertEquals(List.of(), listGroups().groups());
        h.scheduler.advance(h.config.offsetsRetentionCheckIntervalMs() + GroupHarness.SESSION_MS);
        assertEquals(Errors.NOT_COORDINATOR, batchFetchError(), "no timer of the unloaded group woke it up");
    }

    @Test
    void shouldReloadMembersAndOffsetsWhenLeadingAgain() throws IOException {
        h.lead(partition);
        h.scheduler.advance(0);
        JoinGroupResponseData member = stableMember();
        assertEquals(Errors.NONE, commitError(h.commit(GROUP, member.memberId(), null, 1, "t", 0, 42, "m")));
        h.resign(partition);
        h.scheduler.advance(0);

        h.lead(partition);
        h.scheduler.advance(0);
        assertEquals(42L, h.committed(GROUP, "t", 0));
        assertEquals("Stable", describe().groupState());
        assertEquals(
                Errors.NONE, h.heartbeat(GROUP, member.memberId(), 1), "the member carries on with the new leader");
    }

    @Test
    void shouldAnswerCommitsOnceTheFollowerHasThem() throws IOException {
        h.leadWithFollower(partition);
        h.scheduler.advance(0);
        CompletableFuture<OffsetCommitResponseData> commit = h.commitAsync(GROUP, "", null, -1, "t", 0, 5, "");
        assertFalse(commit.isDone(), "only the leader has the commit");
        h.partitions.followerFetched(partition);
        assertEquals(Errors.NONE, commitError(commit.getNow(null)));
        assertEquals(5L, h.committed(GROUP, "t", 0));
    }

    @Test
    void shouldAnswerCommitTimedOutWhenTheFollowerDoesNotCatchUp() throws IOException {
        h.leadWithFollower(partition);
        h.scheduler.advance(0);
        CompletableFuture<OffsetCommitResponseData> commit = h.commitAsync(GROUP, "", null, -1, "t", 0, 5, "");
        h.scheduler.advance(commitTimeoutMs);
        assertEquals(Errors.REQUEST_TIMED_OUT, commitError(commit.getNow(null)), "as Kafka answers a commit");
    }

    @Test
    void shouldAnswerCommitNotCoordinatorWhenLeadershipMovesFirst() throws IOException {
        h.leadWithFollower(partition);
        h.scheduler.advance(0);
        CompletableFuture<OffsetCommitResponseData> commit = h.commitAsync(GROUP, "", null, -1, "t", 0, 5, "");
        h.resign(partition);
        assertEquals(Errors.NOT_COORDINATOR, commitError(commit.getNow(null)));
    }

    /** A single member joins a group led with a follower, and its leader's SyncGroup waits for the follower. */
    private CompletableFuture<SyncGroupResponseData> syncWaitingForTheFollower() throws IOException {
        h.leadWithFollower(partition);
        h.scheduler.advance(0);
        CompletableFuture<JoinGroupResponseData> join = h.joinNew(GROUP, SUB);
        h.scheduler.advance(0);
        JoinGroupResponseData joined = join.getNow(null);
        CompletableFuture<SyncGroupResponseData> sync = h.sync(
                GROUP, joined.memberId(), joined.generationId(), Map.of(joined.memberId(), assignment(List.of(T0))));
        assertFalse(sync.isDone());
        return sync;
    }

    @Test
    void shouldAnswerSyncOnceTheAssignmentIsReplicated() throws IOException {
        CompletableFuture<SyncGroupResponseData> sync = syncWaitingForTheFollower();
        assertEquals("CompletingRebalance", describe().groupState());
        h.partitions.followerFetched(partition);
        h.scheduler.advance(0);
        assertEquals(Errors.NONE.code(), sync.getNow(null).errorCode());
        assertEquals(List.of(T0), GroupHarness.partitionsOf(sync.getNow(null).assignment()));
        assertEquals("Stable", describe().groupState());
    }

    @Test
    void shouldAnswerSyncCoordinatorNotAvailableWhenTheAssignmentTimesOut() throws IOException {
        CompletableFuture<SyncGroupResponseData> sync = syncWaitingForTheFollower();
        h.scheduler.advance(commitTimeoutMs);
        h.scheduler.advance(0);
        assertEquals(
                Errors.COORDINATOR_NOT_AVAILABLE.code(),
                sync.getNow(null).errorCode(),
                "Kafka's answer to a group write that timed out");
        assertEquals("PreparingRebalance", describe().groupState(), "the member rejoins");
    }

    @Test
    void shouldAnswerCoordinatorNotAvailableWhenThePartitionCannotBeLoaded() throws Exception {
        h.lead(partition);
        Partition leading = h.partitions.get(partition);
        leading.log()
                .appendAsLeader(
                        MemoryRecords.withRecords(
                                        Compression.NONE, new SimpleRecord(1L, new byte[] {42}, new byte[] {1}))
                                .buffer(),
                        leading.leaderEpoch(),
                        1L);
        h.scheduler.advance(0);
        assertEquals(Errors.COORDINATOR_NOT_AVAILABLE, joinError(), "a corrupt partition is not served half-loaded");
        assertNull(h.coordinator.group(GROUP));
    }
}
