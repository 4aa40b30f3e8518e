package io.sluice.broker.group;

import static io.sluice.broker.group.GroupHarness.REBALANCE_MS;
import static io.sluice.broker.group.GroupHarness.SESSION_MS;
import static io.sluice.broker.group.GroupHarness.assignment;
import static io.sluice.broker.group.GroupHarness.commitError;
import static io.sluice.broker.group.GroupHarness.partitionsOf;
import static io.sluice.broker.group.GroupHarness.subscription;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupMembershipTest {
    private static final int INITIAL_DELAY_MS = 3000;
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition T1 = new TopicPartition("t", 1);
    private static final byte[] SUB = subscription(List.of("t"), List.of());

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

    /** Drives one member through join and sync to a stable generation; returns its join response. */
    private JoinGroupResponseData stableSingleMember(String group) {
        CompletableFuture<JoinGroupResponseData> join = h.joinNew(group, SUB);
        h.scheduler.advance(INITIAL_DELAY_MS);
        JoinGroupResponseData joined = join.getNow(null);
        SyncGroupResponseData synced = h.sync(
                        group,
                        joined.memberId(),
                        joined.generationId(),
                        Map.of(joined.memberId(), assignment(List.of(T0, T1))))
                .getNow(null);
        assertEquals(Errors.NONE.code(), synced.errorCode());
        return joined;
    }

    @Test
    void shouldRequireMemberIdOnFirstJoinFromV4() {
        JoinGroupResponseData first = h.join("g", "", SUB).getNow(null);
        assertEquals(Errors.MEMBER_ID_REQUIRED.code(), first.errorCode());
        assertTrue(first.memberId().startsWith("client-"), first.memberId());
    }

    @Test
    void shouldAcceptUnknownMemberDirectlyBeforeV4() {
        CompletableFuture<JoinGroupResponseData> join =
                h.coordinator.handleJoinGroup(GroupHarness.joinRequest("g", "", null, SUB), (short) 3, "old", "/h");
        assertFalse(join.isDone(), "the member waits for the initial rebalance delay");
        h.scheduler.advance(INITIAL_DELAY_MS);
        JoinGroupResponseData joined = join.getNow(null);
        assertEquals(Errors.NONE.code(), joined.errorCode());
        assertTrue(joined.memberId().startsWith("old-"), joined.memberId());
        assertEquals(1, joined.generationId());
        assertEquals("range", joined.protocolName());
    }

    @Test
    void shouldCompleteFirstGenerationAfterInitialDelayAndHandOutAssignment() {
        CompletableFuture<JoinGroupResponseData> join = h.joinNew("g", SUB);
        h.scheduler.advance(INITIAL_DELAY_MS - 1);
        assertFalse(join.isDone());
        h.scheduler.advance(1);
        JoinGroupResponseData joined = join.getNow(null);
        assertEquals(Errors.NONE.code(), joined.errorCode());
        assertEquals(1, joined.generationId());
        assertEquals(joined.memberId(), joined.leader());
        assertEquals("range", joined.protocolName());
        assertEquals("consumer", joined.protocolType());
        assertEquals(1, joined.members().size());

        SyncGroupResponseData synced = h.sync(
                        "g", joined.memberId(), 1, Map.of(joined.memberId(), assignment(List.of(T0))))
                .getNow(null);
        assertEquals(Errors.NONE.code(), synced.errorCode());
        assertEquals(List.of(T0), partitionsOf(synced.assignment()));
        assertEquals(Errors.NONE, h.heartbeat("g", joined.memberId(), 1));
    }

    @Test
    void shouldExtendInitialDelayWhileNewMembersArrive() {
        CompletableFuture<JoinGroupResponseData> a = h.joinNew("g", SUB);
        h.scheduler.advance(INITIAL_DELAY_MS - 10);
        CompletableFuture<JoinGroupResponseData> b = h.joinNew("g", SUB);
        h.scheduler.advance(10);
        assertFalse(a.isDone(), "a member joined during the delay, so it is extended");
        h.scheduler.advance(INITIAL_DELAY_MS);
        assertEquals(Errors.NONE.code(), a.getNow(null).errorCode());
        assertEquals(Errors.NONE.code(), b.getNow(null).errorCode());
        assertEquals(1, a.getNow(null).generationId());
        String leader = a.getNow(null).leader();
        JoinGroupResponseData leaderResponse =
                leader.equals(a.getNow(null).memberId()) ? a.getNow(null) : b.getNow(null);
        assertEquals(2, leaderResponse.members().size(), "the leader sees every member");
    }

    @Test
    void shouldRejectSessionTimeoutOutsideBrokerBounds() {
        JoinGroupRequestData request =
                GroupHarness.joinRequest("g", "", null, SUB).setSessionTimeoutMs(10);
        assertEquals(
                Errors.INVALID_SESSION_TIMEOUT.code(),
                h.join(request).getNow(null).errorCode());
    }

    @Test
    void shouldRejectUnknownProtocolTypeAndKeepServingOtherGroups() {
        JoinGroupResponseData joined = stableSingleMember("g");
        JoinGroupRequestData connect =
                GroupHarness.joinRequest("g", "", null, SUB).setProtocolType("connect");
        assertEquals(
                Errors.INCONSISTENT_GROUP_PROTOCOL.code(),
                h.join(connect).getNow(null).errorCode());
        JoinGroupRequestData noType =
                GroupHarness.joinRequest("other", "", null, SUB).setProtocolType("");
        assertEquals(
                Errors.INCONSISTENT_GROUP_PROTOCOL.code(),
                h.join(noType).getNow(null).errorCode());
        assertEquals(Errors.NONE, h.heartbeat("g", joined.memberId(), 1));
        stableSingleMember("third");
    }

    @Test
    void shouldRejectOversizedMemberMetadata() throws IOException {
        h.close();
        GroupCoordinatorConfig d = GroupHarness.config(INITIAL_DELAY_MS);
        h = new GroupHarness(
                dir,
                new GroupCoordinatorConfig(
                        d.initialRebalanceDelayMs(),
                        d.minSessionTimeoutMs(),
                        d.maxSessionTimeoutMs(),
                        d.maxSize(),
                        d.offsetsRetentionMinutes(),
                        d.offsetsRetentionCheckIntervalMs(),
                        d.offsetMetadataMaxBytes(),
                        d.offsetsTopicNumPartitions(),
                        100,
                        d.offsetsCommitTimeoutMs()));
        assertEquals(
                Errors.INVALID_REQUEST.code(),
                h.join("g", "", new byte[101]).getNow(null).errorCode());
        assertEquals(
                Errors.MEMBER_ID_REQUIRED.code(),
                h.join("g", "", new byte[100]).getNow(null).errorCode());
    }

    @Test
    void shouldRefuseMembersBeyondGroupMaxSize() throws IOException {
        h.close();
        GroupCoordinatorConfig d = GroupHarness.config(INITIAL_DELAY_MS);
        h = new GroupHarness(
                dir,
                new GroupCoordinatorConfig(
                        d.initialRebalanceDelayMs(),
                        d.minSessionTimeoutMs(),
                        d.maxSessionTimeoutMs(),
                        2,
                        d.offsetsRetentionMinutes(),
                        d.offsetsRetentionCheckIntervalMs(),
                        d.offsetMetadataMaxBytes(),
                        d.offsetsTopicNumPartitions(),
                        d.memberMetadataMaxBytes(),
                        d.offsetsCommitTimeoutMs()));
        CompletableFuture<JoinGroupResponseData> a = h.joinNew("g", SUB);
        CompletableFuture<JoinGroupResponseData> b = h.joinNew("g", SUB);
        assertEquals(
                Errors.GROUP_MAX_SIZE_REACHED.code(),
                h.join("g", "", SUB).getNow(null).errorCode());
        h.scheduler.advance(INITIAL_DELAY_MS * 2);
        assertEquals(Errors.NONE.code(), a.getNow(null).errorCode());
        assertEquals(Errors.NONE.code(), b.getNow(null).errorCode());
        assertEquals(
                2,
                h.coordinator
                        .handleDescribeGroups(
                                new org.apache.kafka.common.message.DescribeGroupsRequestData().setGroups(List.of("g")),
                                (short) 5,
                                "c",
                                "h")
                        .getNow(null)
                        .groups()
                        .get(0)
                        .members()
                        .size());
    }

    @Test
    void shouldRebalanceEagerlyWhenSecondMemberJoinsStableGroup() {
        JoinGroupResponseData a = stableSingleMember("g");
        CompletableFuture<JoinGroupResponseData> bJoin = h.joinNew("g", SUB);
        assertFalse(bJoin.isDone());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, h.heartbeat("g", a.memberId(), 1));
        assertEquals(
                Errors.REBALANCE_IN_PROGRESS.code(),
                h.sync("g", a.memberId(), 1, Map.of()).getNow(null).errorCode());

        CompletableFuture<JoinGroupResponseData> aJoin = h.join("g", a.memberId(), SUB);
        JoinGroupResponseData a2 = aJoin.getNow(null);
        JoinGroupResponseData b2 = bJoin.getNow(null);
        assertEquals(2, a2.generationId());
        assertEquals(2, b2.generationId());
        assertEquals(a.memberId(), a2.leader(), "the old leader keeps leading");
        assertEquals(2, a2.members().size());
        assertEquals(0, b2.members().size());

        CompletableFuture<SyncGroupResponseData> bSync = h.sync("g", b2.memberId(), 2, Map.of());
        assertFalse(bSync.isDone(), "followers wait for the leader's assignment");
        assertEquals(
                Errors.REBALANCE_IN_PROGRESS.code(),
                h.commit("g", b2.memberId(), null, 2, "t", 0, 5, "")
                        .topics()
                        .get(0)
                        .partitions()
                        .get(0)
                        .errorCode());
        SyncGroupResponseData aSync = h.sync(
                        "g",
                        a.memberId(),
                        2,
                        Map.of(a.memberId(), assignment(List.of(T0)), b2.memberId(), assignment(List.of(T1))))
                .getNow(null);
        assertEquals(List.of(T0), partitionsOf(aSync.assignment()));
        assertEquals(List.of(T1), partitionsOf(bSync.getNow(null).assignment()));
        assertEquals(Errors.NONE, h.heartbeat("g", b2.memberId(), 2));
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    @Test
    void shouldRunCooperativeRebalanceAsTwoConsecutiveGenerations() {
        byte[] ownsBoth = subscription(List.of("t"), List.of(T0, T1));
        JoinGroupResponseData a = stableSingleMember("g");
        CompletableFuture<JoinGroupResponseData> bJoin = h.joinNew("g", SUB);
        // First round: A rejoins still owning both partitions; the leader gives B nothing and revokes T1 from A.
        JoinGroupResponseData a2 = h.join("g", a.memberId(), ownsBoth).getNow(null);
        String b = bJoin.getNow(null).memberId();
        assertEquals(2, a2.generationId());
        byte[] aMetadataSeenByLeader = a2.members().stream()
                .filter(m -> m.memberId().equals(a.memberId()))
                .findFirst()
                .orElseThrow()
                .metadata();
        assertEquals(
                List.of(T0, T1),
                org.apache.kafka.clients.consumer.internals.ConsumerProtocol.deserializeSubscription(
                                java.nio.ByteBuffer.wrap(aMetadataSeenByLeader))
                        .ownedPartitions());
        CompletableFuture<SyncGroupResponseData> bSync = h.sync("g", b, 2, Map.of());
        h.sync("g", a.memberId(), 2, Map.of(a.memberId(), assignment(List.of(T0)), b, assignment(List.of())));
        assertEquals(List.of(), partitionsOf(bSync.getNow(null).assignment()));

        // Second round: A revoked T1 and rejoins from Stable (as leader), B follows after its heartbeat says so.
        byte[] ownsT0 = subscription(List.of("t"), List.of(T0));
        CompletableFuture<JoinGroupResponseData> a3Join = h.join("g", a.memberId(), ownsT0);
        assertFalse(a3Join.isDone());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, h.heartbeat("g", b, 2));
        JoinGroupResponseData b3 = h.join("g", b, SUB).getNow(null);
        JoinGroupResponseData a3 = a3Join.getNow(null);
        assertEquals(3, a3.generationId());
        assertEquals(3, b3.generationId());
        CompletableFuture<SyncGroupResponseData> b3Sync = h.sync("g", b, 3, Map.of());
        h.sync("g", a.memberId(), 3, Map.of(a.memberId(), assignment(List.of(T0)), b, assignment(List.of(T1))));
        assertEquals(List.of(T1), partitionsOf(b3Sync.getNow(null).assignment()));
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    @Test
    void shouldLetFollowerWithUnchangedMetadataRejoinStableGroupWithoutRebalance() {
        JoinGroupResponseData a = stableSingleMember("g");
        CompletableFuture<JoinGroupResponseData> bJoin = h.joinNew("g", SUB);
        h.join("g", a.memberId(), SUB);
        String b = bJoin.getNow(null).memberId();
        h.sync("g", a.memberId(), 2, Map.of(a.memberId(), assignment(List.of(T0)), b, assignment(List.of(T1))));
        JoinGroupResponseData again = h.join("g", b, SUB).getNow(null);
        assertEquals(Errors.NONE.code(), again.errorCode());
        assertEquals(2, again.generationId());
        assertEquals(Errors.NONE, h.heartbeat("g", a.memberId(), 2), "no rebalance was started");
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    @Test
    void shouldExpelMemberThatStopsHeartbeating() {
        JoinGroupResponseData a = stableSingleMember("g");
        CompletableFuture<JoinGroupResponseData> bJoin = h.joinNew("g", SUB);
        h.join("g", a.memberId(), SUB);
        String b = bJoin.getNow(null).memberId();
        h.sync("g", b, 2, Map.of());
        h.sync("g", a.memberId(), 2, Map.of(a.memberId(), assignment(List.of(T0)), b, assignment(List.of(T1))));
        h.scheduler.advance(SESSION_MS / 2);
        assertEquals(Errors.NONE, h.heartbeat("g", a.memberId(), 2));
        h.scheduler.advance(SESSION_MS / 2 - 1);
        assertEquals(Errors.NONE, h.heartbeat("g", b, 2), "b is still alive just before its deadline");
        h.scheduler.advance(SESSION_MS / 2);
        assertEquals(Errors.NONE, h.heartbeat("g", a.memberId(), 2));
        h.scheduler.advance(SESSION_MS / 2 + 1);
        assertEquals(Errors.UNKNOWN_MEMBER_ID, h.heartbeat("g", b, 2), "b missed its session timeout");
        assertEquals(Errors.REBALANCE_IN_PROGRESS, h.heartbeat("g", a.memberId(), 2));
        JoinGroupResponseData a3 = h.join("g", a.memberId(), SUB).getNow(null);
        assertEquals(3, a3.generationId());
        assertEquals(1, a3.members().size());
    }

    @Test
    void shouldNotQueueATimerPerHeartbeat() {
        JoinGroupResponseData a = stableSingleMember("g");
        long before = h.scheduler.scheduledTasks();
        for (int i = 0; i < 1000; i++) {
            h.scheduler.advance(100);
            assertEquals(Errors.NONE, h.heartbeat("g", a.memberId(), 1));
        }
        long scheduled = h.scheduler.scheduledTasks() - before;
        assertTrue(
                scheduled <= 1000 * 100 / SESSION_MS + 5,
                "1000 heartbeats over 100 s scheduled " + scheduled + " timers; one re-arm per session is enough");
        h.scheduler.advance(SESSION_MS);
        assertEquals(Errors.UNKNOWN_MEMBER_ID, h.heartbeat("g", a.memberId(), 1), "the session still expires");
    }

    @Test
    void shouldDropMembersThatDoNotRejoinWithinRebalanceTimeout() {
        JoinGroupResponseData a = stableSingleMember("g");
        CompletableFuture<JoinGroupResponseData> bJoin = h.joinNew("g", SUB);
        for (int elapsed = 0; elapsed < REBALANCE_MS - SESSION_MS / 2; elapsed += SESSION_MS / 2) {
            h.scheduler.advance(SESSION_MS / 2);
            h.heartbeat("g", a.memberId(), 1);
        }
        assertFalse(bJoin.isDone());
        h.scheduler.advance(SESSION_MS);
        JoinGroupResponseData b2 = bJoin.getNow(null);
        assertEquals(Errors.NONE.code(), b2.errorCode());
        assertEquals(b2.memberId(), b2.leader(), "a did not rejoin, so b leads alone");
        assertEquals(1, b2.members().size());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, h.heartbeat("g", a.memberId(), 1));
    }

    @Test
    void shouldCheckGenerationAndMemberOnEveryCall() {
        JoinGroupResponseData a = stableSingleMember("g");
        assertEquals(Errors.ILLEGAL_GENERATION, h.heartbeat("g", a.memberId(), 0));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, h.heartbeat("g", "nobody", 1));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, h.heartbeat("no-such-group", "nobody", 1));
        assertEquals(
                Errors.ILLEGAL_GENERATION.code(),
                h.sync("g", a.memberId(), 7, Map.of()).getNow(null).errorCode());
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID.code(),
                h.sync("g", "nobody", 1, Map.of()).getNow(null).errorCode());
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID.code(),
                h.join("g", "nobody", SUB).getNow(null).errorCode());
        assertEquals(Errors.ILLEGAL_GENERATION, commitError(h.commit("g", a.memberId(), null, 0, "t", 0, 1, "")));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, commitError(h.commit("g", "nobody", null, 1, "t", 0, 1, "")));
        assertEquals(Errors.NONE, commitError(h.commit("g", a.memberId(), null, 1, "t", 0, 1, "")));
        assertEquals(Errors.INVALID_GROUP_ID, h.heartbeat("", a.memberId(), 1));
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    @Test
    void shouldReplaceStaticMemberWithoutRebalanceAndFenceOldInstance() {
        CompletableFuture<JoinGroupResponseData> join = h.join(GroupHarness.joinRequest("g", "", "instance-1", SUB));
        h.scheduler.advance(INITIAL_DELAY_MS);
        JoinGroupResponseData first = join.getNow(null);
        assertEquals(Errors.NONE.code(), first.errorCode(), "static members skip MEMBER_ID_REQUIRED");
        assertEquals("instance-1", first.members().get(0).groupInstanceId());
        h.sync("g", first.memberId(), "instance-1", 1, Map.of(first.memberId(), assignment(List.of(T0, T1))));

        // The instance restarts and rejoins without its member id.
        JoinGroupResponseData second =
                h.join(GroupHarness.joinRequest("g", "", "instance-1", SUB)).getNow(null);
        assertEquals(Errors.NONE.code(), second.errorCode());
        assertNotEquals(first.memberId(), second.memberId());
        assertEquals(1, second.generationId(), "no rebalance for a returning static member");
        assertEquals(first.memberId(), second.leader(), "the old leader id is returned so nobody reassigns");
        SyncGroupResponseData synced =
                h.sync("g", second.memberId(), "instance-1", 1, Map.of()).getNow(null);
        assertEquals(List.of(T0, T1), partitionsOf(synced.assignment()), "the assignment is kept");

        assertEquals(Errors.FENCED_INSTANCE_ID, h.heartbeat("g", first.memberId(), "instance-1", 1));
        assertEquals(
                Errors.FENCED_INSTANCE_ID,
                commitError(h.commit("g", first.memberId(), "instance-1", 1, "t", 0, 3, "")));
        assertEquals(
                Errors.FENCED_INSTANCE_ID.code(),
                h.join(GroupHarness.joinRequest("g", first.memberId(), "instance-1", SUB))
                        .getNow(null)
                        .errorCode());
        assertEquals(Errors.NONE, h.heartbeat("g", second.memberId(), "instance-1", 1));
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    @Test
    void shouldKeepStaticMemberThroughRebalanceUntilSessionTimeout() {
        CompletableFuture<JoinGroupResponseData> sJoin = h.join(GroupHarness.joinRequest("g", "", "s", SUB));
        h.scheduler.advance(INITIAL_DELAY_MS);
        String s = sJoin.getNow(null).memberId();
        h.sync("g", s, "s", 1, Map.of(s, assignment(List.of(T0))));
        LeaveGroupResponseData left = h.leave("g", "", "s");
        assertEquals(Errors.NONE.code(), left.members().get(0).errorCode(), "admin removal by instance id");
        assertEquals(Errors.UNKNOWN_MEMBER_ID, h.heartbeat("g", s, "s", 1));
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    @Test
    void shouldRebalanceWhenMemberLeaves() {
        JoinGroupResponseData a = stableSingleMember("g");
        CompletableFuture<JoinGroupResponseData> bJoin = h.joinNew("g", SUB);
        h.join("g", a.memberId(), SUB);
        String b = bJoin.getNow(null).memberId();
        h.sync("g", a.memberId(), 2, Map.of(a.memberId(), assignment(List.of(T0)), b, assignment(List.of(T1))));

        LeaveGroupResponseData left = h.leave("g", b, null);
        assertEquals(Errors.NONE.code(), left.errorCode());
        assertEquals(Errors.NONE.code(), left.members().get(0).errorCode());
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID.code(),
                h.leave("g", b, null).members().get(0).errorCode());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, h.heartbeat("g", a.memberId(), 2));
        assertEquals(3, h.join("g", a.memberId(), SUB).getNow(null).generationId());

        LeaveGroupResponseData v0 = h.coordinator
                .handleLeaveGroup(
                        new LeaveGroupRequestData().setGroupId("g").setMemberId("nobody"), (short) 0, "c", "h")
                .getNow(null);
        assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), v0.errorCode(), "v0-v2 report the member's error at top level");
    }

    @Test
    void shouldBecomeEmptyWhenLastMemberLeaves() {
        JoinGroupResponseData a = stableSingleMember("g");
        h.leave("g", a.memberId(), null);
        h.scheduler.advance(REBALANCE_MS);
        var described = h.coordinator
                .handleDescribeGroups(
                        new org.apache.kafka.common.message.DescribeGroupsRequestData().setGroups(List.of("g")),
                        (short) 5,
                        "c",
                        "h")
                .getNow(null)
                .groups()
                .get(0);
        assertEquals("Empty", described.groupState());
        assertEquals(0, described.members().size());
    }

    @Test
    void shouldForgetPendingMemberThatNeverRejoins() {
        JoinGroupResponseData a = stableSingleMember("g");
        JoinGroupResponseData pending = h.join("g", "", SUB).getNow(null);
        assertEquals(Errors.MEMBER_ID_REQUIRED.code(), pending.errorCode());
        h.scheduler.advance(SESSION_MS / 2);
        assertEquals(Errors.NONE, h.heartbeat("g", a.memberId(), 1));
        h.scheduler.advance(SESSION_MS / 2);
        assertEquals(Errors.NONE, h.heartbeat("g", a.memberId(), 1));
        assertEquals(
                Errors.UNKNOWN_MEMBER_ID.code(),
                h.join("g", pending.memberId(), SUB).getNow(null).errorCode());
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    @Test
    void shouldRemoveMembersThatNeverSync() {
        JoinGroupResponseData a = stableSingleMember("g");
        CompletableFuture<JoinGroupResponseData> bJoin = h.joinNew("g", SUB);
        h.join("g", a.memberId(), SUB);
        String b = bJoin.getNow(null).memberId();
        // Only the leader syncs; b never does.
        h.sync("g", a.memberId(), 2, Map.of(a.memberId(), assignment(List.of(T0)), b, assignment(List.of(T1))));
        Errors seen = Errors.NONE;
        for (int elapsed = 0; elapsed <= REBALANCE_MS && seen == Errors.NONE; elapsed += SESSION_MS / 2) {
            h.scheduler.advance(SESSION_MS / 2);
            seen = h.heartbeat("g", a.memberId(), 2);
        }
        assertEquals(Errors.REBALANCE_IN_PROGRESS, seen);
        JoinGroupResponseData a3 = h.join("g", a.memberId(), SUB).getNow(null);
        assertEquals(1, a3.members().size());
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // join and sync steps: the test reads the answers it checks from other futures
    @Test
    void shouldRepeatJoinResponseForMemberThatLostIt() {
        JoinGroupResponseData a = stableSingleMember("g");
        CompletableFuture<JoinGroupResponseData> bJoin = h.joinNew("g", SUB);
        h.join("g", a.memberId(), SUB);
        String b = bJoin.getNow(null).memberId();
        JoinGroupResponseData repeated = h.join("g", b, SUB).getNow(null);
        assertEquals(Errors.NONE.code(), repeated.errorCode());
        assertEquals(2, repeated.generationId());
    }

    @Test
    void shouldAnswerLoadInProgressBeforeStartup() throws IOException {
        GroupCoordinator notStarted = new GroupCoordinator(
                h.config,
                h.partitions.store(h.scheduler, 5000, io.sluice.broker.group.store.GroupStoreMigration.none()),
                h.scheduler,
                Runnable::run,
                h.scheduler::now,
                h.topics);
        assertEquals(
                Errors.COORDINATOR_LOAD_IN_PROGRESS.code(),
                notStarted
                        .handleJoinGroup(GroupHarness.joinRequest("g", "", null, SUB), GroupHarness.JOIN_V, "c", "h")
                        .getNow(null)
                        .errorCode());
        notStarted.close();
    }

    @Test
    void shouldAnswerWaitingJoinsWhenClosed() throws IOException {
        CompletableFuture<JoinGroupResponseData> join = h.joinNew("g", SUB);
        h.coordinator.close();
        assertEquals(Errors.COORDINATOR_NOT_AVAILABLE.code(), join.getNow(null).errorCode());
        h.start();
    }

    @Test
    void shouldMapGroupToPartitionLikeKafka() {
        assertEquals(Math.abs("my-group".hashCode()) % 5, h.coordinator.partitionFor("my-group"));
    }
}
