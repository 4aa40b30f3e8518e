package io.sluice.broker.group;

import io.sluice.broker.group.store.GroupPartitioner;
import io.sluice.broker.group.store.GroupRecord;
import io.sluice.broker.group.store.GroupStore;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The classic consumer-group coordinator: Kafka's group membership protocol and committed offsets, stored
 * durably in a {@link GroupStore} and reloaded by {@link #startup()}. Every handler answers with a future that
 * completes when Kafka would answer (JoinGroup and SyncGroup wait for the rebalance; the others complete at once).
 * Thread-safe: per-group state is guarded by a per-group lock, timers run on the given scheduler; futures may
 * complete on a scheduler thread or a caller's thread while a group lock is held, so dependents must not block.
 * {@link #close()} stops the timers, answers waiting requests with COORDINATOR_NOT_AVAILABLE and closes the store.
 */
public final class GroupCoordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinator.class);
    /** OffsetFetch v8 and later carry a list of groups. */
    private static final short OFFSET_FETCH_BATCH_VERSION = 8;
    /** OffsetFetch v2 and later have a top-level error code. */
    private static final short OFFSET_FETCH_TOP_LEVEL_ERROR_VERSION = 2;
    /** ListGroups v4 and later can filter by state. */
    private static final short LIST_GROUPS_STATES_FILTER_VERSION = 4;
    /** ListGroups v5 and later can filter by type. */
    private static final short LIST_GROUPS_TYPES_FILTER_VERSION = 5;
    /** The group type Kafka reports for classic-protocol groups (KIP-848). */
    public static final String CLASSIC_GROUP_TYPE = "classic";

    private final CoordinatorRuntime rt;
    private final MembershipProtocol membership;
    private final OffsetOperations offsets;
    private volatile Lifecycle lifecycle = Lifecycle.LOADING;
    private volatile ScheduledFuture<?> retentionTimer;
    private volatile IntPredicate ownsPartition = partition -> true;

    private enum Lifecycle { LOADING, ACTIVE, CLOSED }

    /** A coordinator for which every topic partition exists; commits are never refused as unknown. */
    public GroupCoordinator(GroupCoordinatorConfig config, GroupStore store, ScheduledExecutorService scheduler,
                            LongSupplier clockMs) {
        this(config, store, scheduler, clockMs, (topic, partition) -> true);
    }

    public GroupCoordinator(GroupCoordinatorConfig config, GroupStore store, ScheduledExecutorService scheduler,
                            LongSupplier clockMs, TopicPartitionLookup topics) {
        this.rt = new CoordinatorRuntime(config, store, scheduler, clockMs, topics);
        this.membership = new MembershipProtocol(rt);
        this.offsets = new OffsetOperations(rt, membership);
    }

    /** Loads groups and offsets from the store, starts members' session timers and the retention sweep. */
    public void startup() throws IOException {
        if (lifecycle != Lifecycle.LOADING) {
            throw new IllegalStateException("group coordinator already " + lifecycle);
        }
        List<GroupRecord> records = rt.store.load();
        long now = rt.now();
        int offsetCount = 0;
        for (GroupRecord record : records) {
            if (record instanceof GroupRecord.GroupMetadata g) {
                ClassicGroup group = rt.groups.computeIfAbsent(g.groupId(), id -> new ClassicGroup(id, GroupState.EMPTY, now));
                restoreMembership(group, g);
            }
        }
        for (GroupRecord record : records) {
            if (record instanceof GroupRecord.OffsetCommit c) {
                ClassicGroup group = rt.groups.computeIfAbsent(c.groupId(), id -> new ClassicGroup(id, GroupState.EMPTY, now));
                group.offsets.put(new TopicPartition(c.topic(), c.partition()), new CommittedOffset(c.offset(),
                        c.leaderEpoch(), c.metadata(), c.commitTimestampMs(), c.expireTimestampMs()));
                offsetCount++;
            }
        }
        for (ClassicGroup group : rt.groups.values()) {
            membership.onGroupLoaded(group);
        }
        LOG.info("Group coordinator loaded {} groups and {} committed offsets", rt.groups.size(), offsetCount);
        lifecycle = Lifecycle.ACTIVE;
        scheduleRetention();
    }

    private static void restoreMembership(ClassicGroup group, GroupRecord.GroupMetadata g) {
        group.protocolType = g.protocolType();
        group.protocolName = g.protocolName();
        group.generationId = g.generationId();
        for (GroupRecord.Member m : g.members()) {
            LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
            if (g.protocolName() != null) {
                protocols.put(g.protocolName(), m.subscription());
            }
            GroupMember member = new GroupMember(m.memberId(), m.groupInstanceId(), m.clientId(), m.clientHost(),
                    g.protocolType(), m.rebalanceTimeoutMs(), m.sessionTimeoutMs(), protocols);
            member.assignment = m.assignment();
            group.add(member);
        }
        group.leaderId = g.leaderId() != null && group.has(g.leaderId()) ? g.leaderId() : group.leaderId;
        group.transitionTo(group.members.isEmpty() ? GroupState.EMPTY : GroupState.STABLE, g.stateTimestampMs());
        group.subscribedTopics = CoordinatorRuntime.subscribedTopics(group);
    }

    private void scheduleRetention() {
        retentionTimer = rt.schedule("offset retention", () -> {
            if (lifecycle != Lifecycle.ACTIVE) {
                return;
            }
            try {
                offsets.expireOffsets();
            } finally {
                scheduleRetention();
            }
        }, rt.config.offsetsRetentionCheckIntervalMs());
    }

    /** Expires offsets now instead of waiting for the next sweep; returns how many expired. */
    public int expireOffsetsNow() {
        return offsets.expireOffsets();
    }

    /**
     * Forgets every group's committed offsets of a deleted topic, durably, as Kafka does when a topic is deleted;
     * returns how many offsets were removed. Call it after the topic is gone.
     */
    public int onTopicDeleted(String topic) {
        return offsets.forgetTopic(topic);
    }

    /** The live state of one group, for invariant checks in this package's tests; null if unknown. */
    ClassicGroup group(String groupId) {
        return rt.groups.get(groupId);
    }

    /** The partition of the group store holding {@code groupId}: Kafka's abs(hashCode) % partition count. */
    public int partitionFor(String groupId) {
        return GroupPartitioner.partitionFor(groupId, rt.config.offsetsTopicNumPartitions());
    }

    private Errors availability() {
        switch (lifecycle) {
            case LOADING:
                return Errors.COORDINATOR_LOAD_IN_PROGRESS;
            case CLOSED:
                return Errors.COORDINATOR_NOT_AVAILABLE;
            default:
                return Errors.NONE;
        }
    }

    /**
     * Which store partitions this broker coordinates (in a cluster: the partitions of the committed-offsets topic it
     * leads); requests for other groups get NOT_COORDINATOR so the client looks the coordinator up again.
     */
    public void setOwnership(IntPredicate ownsPartition) {
        this.ownsPartition = ownsPartition;
    }

    /** {@link #guarded} for a request about one group, refused with NOT_COORDINATOR when another broker owns it. */
    private <T> CompletableFuture<T> owned(String api, String groupId, Function<Errors, T> errorResponse,
                                           java.util.function.Consumer<CompletableFuture<T>> body) {
        if (groupId != null && !ownsPartition.test(partitionFor(groupId))) {
            return CompletableFuture.completedFuture(errorResponse.apply(Errors.NOT_COORDINATOR));
        }
        return guarded(api, groupId, errorResponse, body);
    }

    /** Runs a handler, turning an unexpected failure into an error response instead of a failed future. */
    private <T> CompletableFuture<T> guarded(String api, String groupId, Function<Errors, T> errorResponse,
                                             java.util.function.Consumer<CompletableFuture<T>> body) {
        CompletableFuture<T> response = new CompletableFuture<>();
        Errors unavailable = availability();
        if (unavailable != Errors.NONE) {
            response.complete(errorResponse.apply(unavailable));
            return response;
        }
        try {
            body.accept(response);
        } catch (RuntimeException e) {
            LOG.error("{} for group {} failed", api, groupId, e);
            response.complete(errorResponse.apply(Errors.UNKNOWN_SERVER_ERROR));
        }
        return response;
    }

    public CompletableFuture<JoinGroupResponseData> handleJoinGroup(JoinGroupRequestData request, short apiVersion,
                                                                    String clientId, String clientHost) {
        return owned("JoinGroup", request.groupId(),
                error -> GroupResponses.joinError(request.memberId(), error, apiVersion),
                response -> membership.join(request, apiVersion, clientId, clientHost, response));
    }

    public CompletableFuture<SyncGroupResponseData> handleSyncGroup(SyncGroupRequestData request, short apiVersion,
                                                                    String clientId, String clientHost) {
        return owned("SyncGroup", request.groupId(), GroupResponses::syncError,
                response -> membership.sync(request, apiVersion, response));
    }

    public CompletableFuture<HeartbeatResponseData> handleHeartbeat(HeartbeatRequestData request, short apiVersion,
                                                                    String clientId, String clientHost) {
        return owned("Heartbeat", request.groupId(),
                error -> new HeartbeatResponseData().setErrorCode(error.code()),
                response -> response.complete(new HeartbeatResponseData()
                        .setErrorCode(membership.heartbeat(request).code())));
    }

    public CompletableFuture<LeaveGroupResponseData> handleLeaveGroup(LeaveGroupRequestData request, short apiVersion,
                                                                      String clientId, String clientHost) {
        return owned("LeaveGroup", request.groupId(),
                error -> new LeaveGroupResponseData().setErrorCode(error.code()),
                response -> response.complete(membership.leave(request, apiVersion)));
    }

    public CompletableFuture<OffsetCommitResponseData> handleOffsetCommit(OffsetCommitRequestData request,
                                                                          short apiVersion, String clientId,
                                                                          String clientHost) {
        return owned("OffsetCommit", request.groupId(), error -> commitError(request, error),
                response -> response.complete(offsets.commit(request)));
    }

    private static OffsetCommitResponseData commitError(OffsetCommitRequestData request, Errors error) {
        OffsetCommitResponseData response = new OffsetCommitResponseData();
        for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : request.topics()) {
            OffsetCommitResponseData.OffsetCommitResponseTopic out =
                    new OffsetCommitResponseData.OffsetCommitResponseTopic().setName(topic.name());
            for (OffsetCommitRequestData.OffsetCommitRequestPartition p : topic.partitions()) {
                out.partitions().add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                        .setPartitionIndex(p.partitionIndex()).setErrorCode(error.code()));
            }
            response.topics().add(out);
        }
        return response;
    }

    /** OffsetFetch in both forms: one group (v0-v7) or a list of groups (v8+). */
    public CompletableFuture<OffsetFetchResponseData> handleOffsetFetch(OffsetFetchRequestData request,
                                                                        short apiVersion, String clientId,
                                                                        String clientHost) {
        if (apiVersion >= OFFSET_FETCH_BATCH_VERSION) {
            return guarded("OffsetFetch", "(batch)", error -> batchFetchError(request, error),
                    response -> response.complete(batchFetch(request)));
        }
        return owned("OffsetFetch", request.groupId(), error -> singleFetchError(request, error, apiVersion),
                response -> response.complete(singleFetch(request, apiVersion)));
    }

    private OffsetFetchResponseData batchFetch(OffsetFetchRequestData request) {
        OffsetFetchResponseData response = new OffsetFetchResponseData();
        for (OffsetFetchRequestData.OffsetFetchRequestGroup g : request.groups()) {
            OffsetFetchResponseData.OffsetFetchResponseGroup out =
                    new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId(g.groupId());
            if (g.groupId() == null) {
                out.setErrorCode(Errors.INVALID_GROUP_ID.code());
            } else {
                List<OffsetOperations.FetchTopic> topics = null;
                if (g.topics() != null) {
                    topics = new ArrayList<>();
                    for (OffsetFetchRequestData.OffsetFetchRequestTopics t : g.topics()) {
                        topics.add(new OffsetOperations.FetchTopic(t.name(), t.partitionIndexes()));
                    }
                }
                out.setTopics(offsets.fetch(g.groupId(), topics));
            }
            response.groups().add(out);
        }
        return response;
    }

    private static OffsetFetchResponseData batchFetchError(OffsetFetchRequestData request, Errors error) {
        OffsetFetchResponseData response = new OffsetFetchResponseData();
        for (OffsetFetchRequestData.OffsetFetchRequestGroup g : request.groups()) {
            response.groups().add(new OffsetFetchResponseData.OffsetFetchResponseGroup()
                    .setGroupId(g.groupId()).setErrorCode(error.code()));
        }
        return response;
    }

    private OffsetFetchResponseData singleFetch(OffsetFetchRequestData request, short apiVersion) {
        if (request.groupId() == null) {
            return singleFetchError(request, Errors.INVALID_GROUP_ID, apiVersion);
        }
        List<OffsetOperations.FetchTopic> topics = null;
        if (request.topics() != null) {
            topics = new ArrayList<>();
            for (OffsetFetchRequestData.OffsetFetchRequestTopic t : request.topics()) {
                topics.add(new OffsetOperations.FetchTopic(t.name(), t.partitionIndexes()));
            }
        }
        OffsetFetchResponseData response = new OffsetFetchResponseData().setErrorCode(Errors.NONE.code());
        for (OffsetFetchResponseData.OffsetFetchResponseTopics t : offsets.fetch(request.groupId(), topics)) {
            OffsetFetchResponseData.OffsetFetchResponseTopic out =
                    new OffsetFetchResponseData.OffsetFetchResponseTopic().setName(t.name());
            for (OffsetFetchResponseData.OffsetFetchResponsePartitions p : t.partitions()) {
                out.partitions().add(new OffsetFetchResponseData.OffsetFetchResponsePartition()
                        .setPartitionIndex(p.partitionIndex())
                        .setCommittedOffset(p.committedOffset())
                        .setCommittedLeaderEpoch(p.committedLeaderEpoch())
                        .setMetadata(p.metadata())
                        .setErrorCode(p.errorCode()));
            }
            response.topics().add(out);
        }
        return response;
    }

    /** v0-v1 have no top-level error code, so the error goes on every requested partition as Kafka does. */
    private static OffsetFetchResponseData singleFetchError(OffsetFetchRequestData request, Errors error,
                                                            short apiVersion) {
        OffsetFetchResponseData response = new OffsetFetchResponseData().setErrorCode(error.code());
        if (apiVersion < OFFSET_FETCH_TOP_LEVEL_ERROR_VERSION && request.topics() != null) {
            for (OffsetFetchRequestData.OffsetFetchRequestTopic t : request.topics()) {
                OffsetFetchResponseData.OffsetFetchResponseTopic out =
                        new OffsetFetchResponseData.OffsetFetchResponseTopic().setName(t.name());
                for (int partition : t.partitionIndexes()) {
                    out.partitions().add(new OffsetFetchResponseData.OffsetFetchResponsePartition()
                            .setPartitionIndex(partition)
                            .setCommittedOffset(OffsetOperations.INVALID_OFFSET)
                            .setMetadata("")
                            .setErrorCode(error.code()));
                }
                response.topics().add(out);
            }
        }
        return response;
    }

    public CompletableFuture<ListGroupsResponseData> handleListGroups(ListGroupsRequestData request, short apiVersion,
                                                                      String clientId, String clientHost) {
        return guarded("ListGroups", "*", error -> new ListGroupsResponseData().setErrorCode(error.code()),
                response -> response.complete(listGroups(request, apiVersion)));
    }

    private ListGroupsResponseData listGroups(ListGroupsRequestData request, short apiVersion) {
        Set<String> states = apiVersion >= LIST_GROUPS_STATES_FILTER_VERSION && request.statesFilter() != null
                ? request.statesFilter().stream().map(s -> s.toLowerCase(Locale.ROOT)).collect(Collectors.toSet())
                : Set.of();
        Set<String> types = apiVersion >= LIST_GROUPS_TYPES_FILTER_VERSION && request.typesFilter() != null
                ? request.typesFilter().stream().map(s -> s.toLowerCase(Locale.ROOT)).collect(Collectors.toSet())
                : Set.of();
        ListGroupsResponseData response = new ListGroupsResponseData().setErrorCode(Errors.NONE.code());
        if (!types.isEmpty() && !types.contains(CLASSIC_GROUP_TYPE)) {
            return response;
        }
        for (ClassicGroup group : rt.groups.values()) {
            group.lock.lock();
            try {
                if (group.is(GroupState.DEAD)
                        || (!states.isEmpty() && !states.contains(group.state.kafkaName().toLowerCase(Locale.ROOT)))) {
                    continue;
                }
                response.groups().add(new ListGroupsResponseData.ListedGroup()
                        .setGroupId(group.groupId)
                        .setProtocolType(group.protocolType == null ? "" : group.protocolType)
                        .setGroupState(group.state.kafkaName())
                        .setGroupType(CLASSIC_GROUP_TYPE));
            } finally {
                group.lock.unlock();
            }
        }
        return response;
    }

    public CompletableFuture<DescribeGroupsResponseData> handleDescribeGroups(DescribeGroupsRequestData request,
                                                                              short apiVersion, String clientId,
                                                                              String clientHost) {
        return guarded("DescribeGroups", String.valueOf(request.groups()), error -> {
            DescribeGroupsResponseData response = new DescribeGroupsResponseData();
            for (String groupId : request.groups()) {
                response.groups().add(new DescribeGroupsResponseData.DescribedGroup().setGroupId(groupId)
                        .setErrorCode(error.code()).setGroupState("").setProtocolType("").setProtocolData(""));
            }
            return response;
        }, response -> {
            DescribeGroupsResponseData out = new DescribeGroupsResponseData();
            for (String groupId : request.groups()) {
                out.groups().add(describe(groupId));
            }
            response.complete(out);
        });
    }

    private DescribeGroupsResponseData.DescribedGroup describe(String groupId) {
        DescribeGroupsResponseData.DescribedGroup out = new DescribeGroupsResponseData.DescribedGroup()
                .setGroupId(groupId).setErrorCode(Errors.NONE.code())
                .setGroupState(GroupState.DEAD.kafkaName()).setProtocolType("").setProtocolData("");
        if (groupId == null) {
            return out.setErrorCode(Errors.INVALID_GROUP_ID.code());
        }
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            return out;
        }
        group.lock.lock();
        try {
            boolean stable = group.is(GroupState.STABLE);
            out.setGroupState(group.state.kafkaName())
                    .setProtocolType(group.protocolType == null ? "" : group.protocolType)
                    .setProtocolData(stable && group.protocolName != null ? group.protocolName : "");
            for (GroupMember m : group.members.values()) {
                out.members().add(new DescribeGroupsResponseData.DescribedGroupMember()
                        .setMemberId(m.memberId)
                        .setGroupInstanceId(m.groupInstanceId)
                        .setClientId(m.clientId)
                        .setClientHost(m.clientHost)
                        .setMemberMetadata(stable ? m.metadataFor(group.protocolName) : new byte[0])
                        .setMemberAssignment(stable ? m.assignment : new byte[0]));
            }
            return out;
        } finally {
            group.lock.unlock();
        }
    }

    public CompletableFuture<DeleteGroupsResponseData> handleDeleteGroups(DeleteGroupsRequestData request,
                                                                          short apiVersion, String clientId,
                                                                          String clientHost) {
        return guarded("DeleteGroups", String.valueOf(request.groupsNames()), error -> {
            DeleteGroupsResponseData response = new DeleteGroupsResponseData();
            for (String groupId : request.groupsNames()) {
                response.results().add(new DeleteGroupsResponseData.DeletableGroupResult()
                        .setGroupId(groupId).setErrorCode(error.code()));
            }
            return response;
        }, response -> {
            DeleteGroupsResponseData out = new DeleteGroupsResponseData();
            for (String groupId : request.groupsNames()) {
                if (out.results().find(groupId) == null) {
                    out.results().add(new DeleteGroupsResponseData.DeletableGroupResult()
                            .setGroupId(groupId).setErrorCode(deleteGroup(groupId).code()));
                }
            }
            response.complete(out);
        });
    }

    private Errors deleteGroup(String groupId) {
        if (groupId == null) {
            return Errors.INVALID_GROUP_ID;
        }
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            return Errors.GROUP_ID_NOT_FOUND;
        }
        group.lock.lock();
        try {
            if (group.is(GroupState.DEAD)) {
                return Errors.GROUP_ID_NOT_FOUND;
            }
            if (!group.is(GroupState.EMPTY)) {
                return Errors.NON_EMPTY_GROUP;
            }
            List<GroupRecord> tombstones = new ArrayList<>();
            for (TopicPartition tp : group.offsets.keySet()) {
                tombstones.add(new GroupRecord.OffsetTombstone(groupId, tp.topic(), tp.partition()));
            }
            tombstones.add(new GroupRecord.GroupTombstone(groupId));
            try {
                rt.store.append(groupId, tombstones);
            } catch (IOException | RuntimeException e) {
                LOG.error("Group {}: cannot store its deletion", groupId, e);
                return Errors.COORDINATOR_NOT_AVAILABLE;
            }
            group.offsets.clear();
            group.transitionTo(GroupState.DEAD, rt.now());
            rt.groups.remove(groupId, group);
            LOG.info("Group {}: deleted", groupId);
            return Errors.NONE;
        } finally {
            group.lock.unlock();
        }
    }

    public CompletableFuture<OffsetDeleteResponseData> handleOffsetDelete(OffsetDeleteRequestData request,
                                                                          short apiVersion, String clientId,
                                                                          String clientHost) {
        return owned("OffsetDelete", request.groupId(),
                error -> new OffsetDeleteResponseData().setErrorCode(error.code()),
                response -> response.complete(offsets.delete(request)));
    }

    @Override
    public void close() throws IOException {
        if (lifecycle == Lifecycle.CLOSED) {
            return;
        }
        lifecycle = Lifecycle.CLOSED;
        ScheduledFuture<?> retention = retentionTimer;
        if (retention != null) {
            retention.cancel(false);
        }
        for (ClassicGroup group : rt.groups.values()) {
            membership.shutdown(group);
        }
        rt.store.close();
    }
}
