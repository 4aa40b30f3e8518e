package io.sluice.broker.group;

import io.sluice.broker.group.store.GroupStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;
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

/**
 * The classic consumer-group coordinator: Kafka's group membership protocol and committed offsets, kept in a
 * {@link GroupStore} partitioned like {@code __consumer_offsets}. This broker coordinates the groups of the partitions
 * it leads: {@link #onBecameLeader} loads a partition's groups, {@link #onResigned} unloads them (see
 * {@link GroupLoader}); a request about a group of another partition is answered NOT_COORDINATOR, one arriving while
 * its partition loads COORDINATOR_LOAD_IN_PROGRESS. Every handler answers with a future that completes when Kafka
 * would answer (JoinGroup and SyncGroup wait for the rebalance, writes for every in-sync replica).
 * Thread-safe: per-group state is guarded by a per-group lock, timers run on the given scheduler, loads on the loader;
 * futures may complete on a scheduler thread, a replication thread or a caller's thread while a group lock is held,
 * so dependents must not block. {@link #close()} stops the timers, answers waiting requests with
 * COORDINATOR_NOT_AVAILABLE and closes the store.
 */
public final class GroupCoordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCoordinator.class);
    /** OffsetFetch v8 and later carry a list of groups. */
    private static final short OFFSET_FETCH_BATCH_VERSION = 8;
    /** OffsetFetch v2 and later have a top-level error code. */
    private static final short OFFSET_FETCH_TOP_LEVEL_ERROR_VERSION = 2;
    /** The group type Kafka reports for classic-protocol groups (KIP-848). */
    public static final String CLASSIC_GROUP_TYPE = "classic";

    private final CoordinatorRuntime rt;
    private final MembershipProtocol membership;
    private final OffsetOperations offsets;
    private final GroupLoader loader;
    private final GroupAdmin admin;
    private volatile Lifecycle lifecycle = Lifecycle.STARTING;
    private volatile ScheduledFuture<?> retentionTimer;

    private enum Lifecycle {
        STARTING,
        ACTIVE,
        CLOSED
    }

    /**
     * @param scheduler runs the group timers and the outcomes of writes; not owned
     * @param loader    runs partition loads and unloads, one at a time in submission order; not owned
     * @param topics    whether a partition exists, so commits for unknown ones are refused
     */
    public GroupCoordinator(
            GroupCoordinatorConfig config,
            GroupStore store,
            ScheduledExecutorService scheduler,
            Executor loader,
            LongSupplier clockMs,
            TopicPartitionLookup topics) {
        if (store.partitionCount() != config.offsetsTopicNumPartitions()) {
            throw new IllegalArgumentException("the group store has " + store.partitionCount()
                    + " partitions but offsets.topic.num.partitions is " + config.offsetsTopicNumPartitions());
        }
        this.rt = new CoordinatorRuntime(config, store, scheduler, clockMs, topics);
        this.membership = new MembershipProtocol(rt);
        this.offsets = new OffsetOperations(rt, membership);
        this.loader = new GroupLoader(rt, membership, loader);
        this.admin = new GroupAdmin(rt, this.loader);
    }

    /** Starts serving (until then every request is answered COORDINATOR_LOAD_IN_PROGRESS) and the retention sweep. */
    public void startup() {
        if (lifecycle != Lifecycle.STARTING) {
            throw new IllegalStateException("group coordinator already " + lifecycle);
        }
        lifecycle = Lifecycle.ACTIVE;
        scheduleRetention();
    }

    /** This broker leads {@code partition} of {@code __consumer_offsets} in {@code leaderEpoch}: load its groups. */
    public void onBecameLeader(int partition, int leaderEpoch) {
        loader.onElected(partition, leaderEpoch);
    }

    /** This broker no longer leads {@code partition} of {@code __consumer_offsets}: unload its groups. */
    public void onResigned(int partition) {
        loader.onResigned(partition);
    }

    private void scheduleRetention() {
        retentionTimer = rt.schedule(
                "offset retention",
                () -> {
                    if (lifecycle != Lifecycle.ACTIVE) {
                        return;
                    }
                    try {
                        offsets.expireOffsets();
                    } finally {
                        scheduleRetention();
                    }
                },
                rt.config.offsetsRetentionCheckIntervalMs());
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

    /** The committed offsets of every group this broker serves now (for consumer lag); empty until started. */
    public List<GroupOffsets> servedGroupOffsets() {
        return lifecycle == Lifecycle.ACTIVE ? admin.servedGroupOffsets() : List.of();
    }

    /** The partition of the group store holding {@code groupId}: Kafka's abs(hashCode) % partition count. */
    public int partitionFor(String groupId) {
        return rt.partitionOf(groupId);
    }

    private Errors availability() {
        switch (lifecycle) {
            case STARTING:
                return Errors.COORDINATOR_LOAD_IN_PROGRESS;
            case CLOSED:
                return Errors.COORDINATOR_NOT_AVAILABLE;
            default:
                return Errors.NONE;
        }
    }

    /** NONE when this broker serves {@code groupId} now, else the error Kafka answers (NOT_COORDINATOR, ...). */
    private Errors ownership(String groupId) {
        return loader.errorForGroup(groupId);
    }

    /** {@link #guarded} for a request about one group, refused when this broker does not serve it now. */
    private <T> CompletableFuture<T> owned(
            String api,
            String groupId,
            Function<Errors, T> errorResponse,
            java.util.function.Consumer<CompletableFuture<T>> body) {
        Errors notServed = ownership(groupId);
        if (notServed != Errors.NONE && availability() == Errors.NONE) {
            return CompletableFuture.completedFuture(errorResponse.apply(notServed));
        }
        return guarded(api, groupId, errorResponse, body);
    }

    /** Runs a handler, turning an unexpected failure into an error response instead of a failed future. */
    private <T> CompletableFuture<T> guarded(
            String api,
            String groupId,
            Function<Errors, T> errorResponse,
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

    /** Completes {@code response} from {@code answer}, or with the error response if it failed unexpectedly. */
    private static <T> void completeFrom(
            CompletableFuture<T> answer, CompletableFuture<T> response, Function<Errors, T> errorResponse) {
        // The failure is answered here; the future whenComplete returns only repeats it.
        var unused = answer.whenComplete((value, failure) -> {
            if (failure != null) {
                LOG.error("Group request failed", failure);
                response.complete(errorResponse.apply(Errors.UNKNOWN_SERVER_ERROR));
            } else {
                response.complete(value);
            }
        });
    }

    public CompletableFuture<JoinGroupResponseData> handleJoinGroup(
            JoinGroupRequestData request, short apiVersion, String clientId, String clientHost) {
        return owned(
                "JoinGroup",
                request.groupId(),
                error -> GroupResponses.joinError(request.memberId(), error, apiVersion),
                response -> membership.join(request, apiVersion, clientId, clientHost, response));
    }

    public CompletableFuture<SyncGroupResponseData> handleSyncGroup(
            SyncGroupRequestData request, short apiVersion, String clientId, String clientHost) {
        return owned(
                "SyncGroup",
                request.groupId(),
                GroupResponses::syncError,
                response -> membership.sync(request, apiVersion, response));
    }

    public CompletableFuture<HeartbeatResponseData> handleHeartbeat(
            HeartbeatRequestData request, short apiVersion, String clientId, String clientHost) {
        return owned(
                "Heartbeat",
                request.groupId(),
                error -> new HeartbeatResponseData().setErrorCode(error.code()),
                response -> response.complete(new HeartbeatResponseData()
                        .setErrorCode(membership.heartbeat(request).code())));
    }

    public CompletableFuture<LeaveGroupResponseData> handleLeaveGroup(
            LeaveGroupRequestData request, short apiVersion, String clientId, String clientHost) {
        return owned(
                "LeaveGroup",
                request.groupId(),
                error -> new LeaveGroupResponseData().setErrorCode(error.code()),
                response -> response.complete(membership.leave(request, apiVersion)));
    }

    public CompletableFuture<OffsetCommitResponseData> handleOffsetCommit(
            OffsetCommitRequestData request, short apiVersion, String clientId, String clientHost) {
        Function<Errors, OffsetCommitResponseData> errorResponse = error -> commitError(request, error);
        return owned(
                "OffsetCommit",
                request.groupId(),
                errorResponse,
                response -> completeFrom(offsets.commit(request), response, errorResponse));
    }

    private static OffsetCommitResponseData commitError(OffsetCommitRequestData request, Errors error) {
        OffsetCommitResponseData response = new OffsetCommitResponseData();
        for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : request.topics()) {
            OffsetCommitResponseData.OffsetCommitResponseTopic out =
                    new OffsetCommitResponseData.OffsetCommitResponseTopic().setName(topic.name());
            for (OffsetCommitRequestData.OffsetCommitRequestPartition p : topic.partitions()) {
                out.partitions()
                        .add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                                .setPartitionIndex(p.partitionIndex())
                                .setErrorCode(error.code()));
            }
            response.topics().add(out);
        }
        return response;
    }

    /** OffsetFetch in both forms: one group (v0-v7) or a list of groups (v8+). */
    public CompletableFuture<OffsetFetchResponseData> handleOffsetFetch(
            OffsetFetchRequestData request, short apiVersion, String clientId, String clientHost) {
        if (apiVersion >= OFFSET_FETCH_BATCH_VERSION) {
            return guarded(
                    "OffsetFetch",
                    "(batch)",
                    error -> batchFetchError(request, error),
                    response -> response.complete(batchFetch(request)));
        }
        return owned(
                "OffsetFetch",
                request.groupId(),
                error -> singleFetchError(request, error, apiVersion),
                response -> response.complete(singleFetch(request, apiVersion)));
    }

    private OffsetFetchResponseData batchFetch(OffsetFetchRequestData request) {
        OffsetFetchResponseData response = new OffsetFetchResponseData();
        for (OffsetFetchRequestData.OffsetFetchRequestGroup g : request.groups()) {
            OffsetFetchResponseData.OffsetFetchResponseGroup out =
                    new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId(g.groupId());
            Errors notServed = ownership(g.groupId());
            if (g.groupId() == null) {
                out.setErrorCode(Errors.INVALID_GROUP_ID.code());
            } else if (notServed != Errors.NONE) {
                out.setErrorCode(notServed.code());
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
            response.groups()
                    .add(new OffsetFetchResponseData.OffsetFetchResponseGroup()
                            .setGroupId(g.groupId())
                            .setErrorCode(error.code()));
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
                out.partitions()
                        .add(new OffsetFetchResponseData.OffsetFetchResponsePartition()
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
    private static OffsetFetchResponseData singleFetchError(
            OffsetFetchRequestData request, Errors error, short apiVersion) {
        OffsetFetchResponseData response = new OffsetFetchResponseData().setErrorCode(error.code());
        if (apiVersion < OFFSET_FETCH_TOP_LEVEL_ERROR_VERSION && request.topics() != null) {
            for (OffsetFetchRequestData.OffsetFetchRequestTopic t : request.topics()) {
                OffsetFetchResponseData.OffsetFetchResponseTopic out =
                        new OffsetFetchResponseData.OffsetFetchResponseTopic().setName(t.name());
                for (int partition : t.partitionIndexes()) {
                    out.partitions()
                            .add(new OffsetFetchResponseData.OffsetFetchResponsePartition()
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

    public CompletableFuture<ListGroupsResponseData> handleListGroups(
            ListGroupsRequestData request, short apiVersion, String clientId, String clientHost) {
        return guarded(
                "ListGroups",
                "*",
                error -> new ListGroupsResponseData().setErrorCode(error.code()),
                response -> response.complete(admin.listGroups(request, apiVersion)));
    }

    public CompletableFuture<DescribeGroupsResponseData> handleDescribeGroups(
            DescribeGroupsRequestData request, short apiVersion, String clientId, String clientHost) {
        return guarded(
                "DescribeGroups",
                String.valueOf(request.groups()),
                error -> {
                    DescribeGroupsResponseData response = new DescribeGroupsResponseData();
                    for (String groupId : request.groups()) {
                        response.groups()
                                .add(new DescribeGroupsResponseData.DescribedGroup()
                                        .setGroupId(groupId)
                                        .setErrorCode(error.code())
                                        .setGroupState("")
                                        .setProtocolType("")
                                        .setProtocolData(""));
                    }
                    return response;
                },
                response -> {
                    DescribeGroupsResponseData out = new DescribeGroupsResponseData();
                    for (String groupId : request.groups()) {
                        out.groups().add(admin.describe(groupId));
                    }
                    response.complete(out);
                });
    }

    public CompletableFuture<DeleteGroupsResponseData> handleDeleteGroups(
            DeleteGroupsRequestData request, short apiVersion, String clientId, String clientHost) {
        return guarded(
                "DeleteGroups",
                String.valueOf(request.groupsNames()),
                error -> {
                    DeleteGroupsResponseData response = new DeleteGroupsResponseData();
                    for (String groupId : request.groupsNames()) {
                        response.results()
                                .add(new DeleteGroupsResponseData.DeletableGroupResult()
                                        .setGroupId(groupId)
                                        .setErrorCode(error.code()));
                    }
                    return response;
                },
                response -> {
                    DeleteGroupsResponseData out = new DeleteGroupsResponseData();
                    List<CompletableFuture<?>> writes = new ArrayList<>();
                    for (String groupId : request.groupsNames()) {
                        if (out.results().find(groupId) == null) {
                            DeleteGroupsResponseData.DeletableGroupResult result =
                                    new DeleteGroupsResponseData.DeletableGroupResult().setGroupId(groupId);
                            out.results().add(result);
                            // A delete that fails unexpectedly is answered with its error, not left at NONE.
                            writes.add(admin.deleteGroup(groupId)
                                    .handle((error, failure) -> result.setErrorCode(
                                            failure == null
                                                    ? error.code()
                                                    : Errors.forException(failure)
                                                            .code())));
                        }
                    }
                    // Every write's outcome is in out (handle above), so allOf cannot fail.
                    var unused = CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0]))
                            .whenComplete((done, failure) -> response.complete(out));
                });
    }

    public CompletableFuture<OffsetDeleteResponseData> handleOffsetDelete(
            OffsetDeleteRequestData request, short apiVersion, String clientId, String clientHost) {
        Function<Errors, OffsetDeleteResponseData> errorResponse =
                error -> new OffsetDeleteResponseData().setErrorCode(error.code());
        return owned(
                "OffsetDelete",
                request.groupId(),
                errorResponse,
                response -> completeFrom(offsets.delete(request), response, errorResponse));
    }

    @Override
    public void close() {
        if (lifecycle == Lifecycle.CLOSED) {
            return;
        }
        lifecycle = Lifecycle.CLOSED;
        ScheduledFuture<?> retention = retentionTimer;
        if (retention != null) {
            retention.cancel(false);
        }
        for (ClassicGroup group : rt.groups.values()) {
            membership.shutdown(group, Errors.COORDINATOR_NOT_AVAILABLE);
        }
        rt.store.close();
    }
}
