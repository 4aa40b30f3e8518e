package io.sluice.broker.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.group.store.GroupStoreMigration;
import io.sluice.broker.group.store.LocalOffsetsPartitions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;

/**
 * A coordinator over a real replicated group store on {@code __consumer_offsets} partition logs in a temporary
 * directory, every partition led by this broker alone (so writes are durable at once) and loaded synchronously,
 * driven by a {@link ManualScheduler}, with request builders shaped like the Java consumer's.
 * Not thread-safe; one per test.
 */
final class GroupHarness implements AutoCloseable {
    static final short JOIN_V = 9;
    static final short SYNC_V = 5;
    static final short HEARTBEAT_V = 4;
    static final short LEAVE_V = 5;
    static final short COMMIT_V = 9;
    static final short FETCH_V = 7;
    static final int SESSION_MS = 10_000;
    static final int REBALANCE_MS = 30_000;

    final ManualScheduler scheduler = new ManualScheduler(1_000_000L);
    final Path dir;
    final GroupCoordinatorConfig config;
    final TopicPartitionLookup topics;
    private final boolean manualLeadership;
    LocalOffsetsPartitions partitions;
    GroupCoordinator coordinator;

    GroupHarness(Path dir, GroupCoordinatorConfig config) throws IOException {
        this(dir, config, (topic, partition) -> !topic.startsWith("unknown"));
    }

    GroupHarness(Path dir, GroupCoordinatorConfig config, TopicPartitionLookup topics) throws IOException {
        this(dir, config, topics, false);
    }

    private GroupHarness(Path dir, GroupCoordinatorConfig config, TopicPartitionLookup topics, boolean manualLeadership)
            throws IOException {
        this.dir = dir;
        this.config = config;
        this.topics = topics;
        this.manualLeadership = manualLeadership;
        start();
    }

    /**
     * A harness whose coordinator has been told of no leadership yet: a test hands partitions over with
     * {@link #lead}, {@link #leadWithFollower} and {@link #resign}; loads run on the scheduler, so they happen when
     * the test advances it.
     */
    static GroupHarness leadingNothing(Path dir, GroupCoordinatorConfig config) throws IOException {
        return new GroupHarness(dir, config, (topic, partition) -> !topic.startsWith("unknown"), true);
    }

    /** This broker leads {@code partition} alone in a new epoch; the coordinator is told (the load is queued). */
    void lead(int partition) throws IOException {
        coordinator.onBecameLeader(partition, partitions.lead(partition));
    }

    /** This broker leads {@code partition} with a follower in the ISR; writes wait for {@code followerFetched}. */
    void leadWithFollower(int partition) throws IOException {
        coordinator.onBecameLeader(partition, partitions.leadWithFollower(partition));
    }

    /** Another broker leads {@code partition} now; the coordinator is told (the unload is queued). */
    void resign(int partition) throws IOException {
        partitions.follow(partition);
        coordinator.onResigned(partition);
    }

    static GroupCoordinatorConfig config(int initialDelayMs) {
        GroupCoordinatorConfig d = GroupCoordinatorConfig.defaults();
        return new GroupCoordinatorConfig(
                initialDelayMs,
                d.minSessionTimeoutMs(),
                d.maxSessionTimeoutMs(),
                d.maxSize(),
                d.offsetsRetentionMinutes(),
                d.offsetsRetentionCheckIntervalMs(),
                d.offsetMetadataMaxBytes(),
                5,
                d.memberMetadataMaxBytes(),
                d.offsetsCommitTimeoutMs());
    }

    void start() throws IOException {
        if (partitions == null) {
            partitions = new LocalOffsetsPartitions(dir, config.offsetsTopicNumPartitions(), scheduler::now);
        }
        coordinator = new GroupCoordinator(
                config,
                partitions.store(scheduler, config.offsetsCommitTimeoutMs(), GroupStoreMigration.none()),
                scheduler,
                manualLeadership ? scheduler : Runnable::run,
                scheduler::now,
                topics);
        coordinator.startup();
        for (int p = 0; !manualLeadership && p < partitions.count(); p++) {
            coordinator.onBecameLeader(p, partitions.get(p).leaderEpoch());
        }
    }

    /** Closes the coordinator and starts a new one over the reopened logs, as a broker restart does. */
    void restart() throws IOException {
        coordinator.close();
        partitions.reopen();
        start();
    }

    static byte[] subscription(List<String> topics, List<TopicPartition> owned) {
        ByteBuffer buffer =
                ConsumerProtocol.serializeSubscription(new ConsumerPartitionAssignor.Subscription(topics, null, owned));
        return Utils.toArray(buffer);
    }

    static byte[] assignment(List<TopicPartition> partitions) {
        return Utils.toArray(
                ConsumerProtocol.serializeAssignment(new ConsumerPartitionAssignor.Assignment(partitions)));
    }

    static List<TopicPartition> partitionsOf(byte[] assignment) {
        return ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(assignment))
                .partitions();
    }

    static JoinGroupRequestData joinRequest(String group, String memberId, String instanceId, byte[] metadata) {
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
                new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol()
                .setName("range")
                .setMetadata(metadata));
        return new JoinGroupRequestData()
                .setGroupId(group)
                .setMemberId(memberId)
                .setGroupInstanceId(instanceId)
                .setSessionTimeoutMs(SESSION_MS)
                .setRebalanceTimeoutMs(REBALANCE_MS)
                .setProtocolType("consumer")
                .setProtocols(protocols);
    }

    CompletableFuture<JoinGroupResponseData> join(JoinGroupRequestData request) {
        return coordinator.handleJoinGroup(request, JOIN_V, "client", "/127.0.0.1");
    }

    CompletableFuture<JoinGroupResponseData> join(String group, String memberId, byte[] metadata) {
        return join(joinRequest(group, memberId, null, metadata));
    }

    /** The consumer's first join from v4 on: asks for a member id, then joins with it. */
    CompletableFuture<JoinGroupResponseData> joinNew(String group, byte[] metadata) {
        JoinGroupResponseData first = join(group, "", metadata).getNow(null);
        assertEquals(Errors.MEMBER_ID_REQUIRED.code(), first.errorCode(), "first join must ask for a member id");
        assertTrue(!first.memberId().isEmpty());
        return join(group, first.memberId(), metadata);
    }

    CompletableFuture<SyncGroupResponseData> sync(
            String group, String memberId, int generation, Map<String, byte[]> assignments) {
        return sync(group, memberId, null, generation, assignments);
    }

    CompletableFuture<SyncGroupResponseData> sync(
            String group, String memberId, String instanceId, int generation, Map<String, byte[]> assignments) {
        List<SyncGroupRequestData.SyncGroupRequestAssignment> list = new ArrayList<>();
        assignments.forEach((m, a) -> list.add(new SyncGroupRequestData.SyncGroupRequestAssignment()
                .setMemberId(m)
                .setAssignment(a)));
        return coordinator.handleSyncGroup(
                new SyncGroupRequestData()
                        .setGroupId(group)
                        .setMemberId(memberId)
                        .setGroupInstanceId(instanceId)
                        .setGenerationId(generation)
                        .setProtocolType("consumer")
                        .setProtocolName("range")
                        .setAssignments(list),
                SYNC_V,
                "client",
                "/127.0.0.1");
    }

    Errors heartbeat(String group, String memberId, int generation) {
        return heartbeat(group, memberId, null, generation);
    }

    Errors heartbeat(String group, String memberId, String instanceId, int generation) {
        return Errors.forCode(coordinator
                .handleHeartbeat(
                        new HeartbeatRequestData()
                                .setGroupId(group)
                                .setMemberId(memberId)
                                .setGroupInstanceId(instanceId)
                                .setGenerationId(generation),
                        HEARTBEAT_V,
                        "client",
                        "/127.0.0.1")
                .getNow(null)
                .errorCode());
    }

    LeaveGroupResponseData leave(String group, String memberId, String instanceId) {
        return coordinator
                .handleLeaveGroup(
                        new LeaveGroupRequestData()
                                .setGroupId(group)
                                .setMembers(List.of(new LeaveGroupRequestData.MemberIdentity()
                                        .setMemberId(memberId)
                                        .setGroupInstanceId(instanceId))),
                        LEAVE_V,
                        "client",
                        "/127.0.0.1")
                .getNow(null);
    }

    OffsetCommitResponseData commit(
            String group,
            String memberId,
            String instanceId,
            int generation,
            String topic,
            int partition,
            long offset,
            String metadata) {
        return commitAsync(group, memberId, instanceId, generation, topic, partition, offset, metadata)
                .getNow(null);
    }

    /** The commit's answer, which waits until every in-sync replica holds it. */
    CompletableFuture<OffsetCommitResponseData> commitAsync(
            String group,
            String memberId,
            String instanceId,
            int generation,
            String topic,
            int partition,
            long offset,
            String metadata) {
        return coordinator.handleOffsetCommit(
                new OffsetCommitRequestData()
                        .setGroupId(group)
                        .setMemberId(memberId)
                        .setGroupInstanceId(instanceId)
                        .setGenerationIdOrMemberEpoch(generation)
                        .setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic()
                                .setName(topic)
                                .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                        .setPartitionIndex(partition)
                                        .setCommittedOffset(offset)
                                        .setCommittedLeaderEpoch(7)
                                        .setCommittedMetadata(metadata))))),
                COMMIT_V,
                "client",
                "/127.0.0.1");
    }

    static Errors commitError(OffsetCommitResponseData response) {
        return Errors.forCode(response.topics().get(0).partitions().get(0).errorCode());
    }

    /** Committed offset of one partition as OffsetFetch v7 reports it. */
    long committed(String group, String topic, int partition) {
        OffsetFetchResponseData response = coordinator
                .handleOffsetFetch(
                        new OffsetFetchRequestData()
                                .setGroupId(group)
                                .setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopic()
                                        .setName(topic)
                                        .setPartitionIndexes(List.of(partition)))),
                        FETCH_V,
                        "client",
                        "/127.0.0.1")
                .getNow(null);
        assertEquals(Errors.NONE.code(), response.errorCode());
        return response.topics().get(0).partitions().get(0).committedOffset();
    }

    @Override
    public void close() throws IOException {
        coordinator.close();
        partitions.close();
    }
}
