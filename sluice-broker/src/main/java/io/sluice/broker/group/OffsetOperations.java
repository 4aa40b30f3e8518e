package io.sluice.broker.group;

import io.sluice.broker.group.store.GroupRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committed offsets: OffsetCommit with Kafka's generation and member checks, OffsetFetch, OffsetDelete and the
 * retention sweep that expires offsets of empty groups. A change is applied to the group when it is appended to the
 * leader's log, under the group's lock and so in log order (the groups mirror the log this broker leads), and
 * answered once every in-sync replica holds it. Thread-safe: every group is touched only under its lock; answers
 * complete on the thread that saw the write through, which holds no group lock.
 */
final class OffsetOperations {
    private static final Logger LOG = LoggerFactory.getLogger(OffsetOperations.class);
    /** OffsetCommit's "no explicit retention" value (v2-v4 field). */
    private static final long DEFAULT_RETENTION_TIME = -1L;
    /** OffsetCommit v1's "use the broker's time" commit timestamp. */
    private static final long DEFAULT_TIMESTAMP = -1L;

    static final long INVALID_OFFSET = -1L;
    static final int NO_LEADER_EPOCH = -1;
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final CoordinatorRuntime rt;
    private final MembershipProtocol membership;

    OffsetOperations(CoordinatorRuntime rt, MembershipProtocol membership) {
        this.rt = rt;
        this.membership = membership;
    }

    // ---------------------------------------------------------------- OffsetCommit

    CompletableFuture<OffsetCommitResponseData> commit(OffsetCommitRequestData request) {
        Map<TopicPartition, Errors> results = new HashMap<>();
        Map<TopicPartition, OffsetCommitRequestData.OffsetCommitRequestPartition> valid = new HashMap<>();
        for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : request.topics()) {
            for (OffsetCommitRequestData.OffsetCommitRequestPartition p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                if (!rt.topics.exists(topic.name(), p.partitionIndex())) {
                    results.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                } else {
                    valid.put(tp, p);
                }
            }
        }
        List<TopicPartition> written = new ArrayList<>();
        CompletableFuture<Void> durable = valid.isEmpty() ? DONE : commitValid(request, valid, results, written);
        return durable.handle((ok, failure) -> {
            if (failure != null) {
                LOG.warn(
                        "Group {}: {} committed offsets did not reach every in-sync replica: {}",
                        request.groupId(),
                        written.size(),
                        failure.toString());
                fill(results, written, CoordinatorRuntime.commitError(failure));
            }
            return commitResponse(request, results);
        });
    }

    private CompletableFuture<Void> commitValid(
            OffsetCommitRequestData request,
            Map<TopicPartition, OffsetCommitRequestData.OffsetCommitRequestPartition> valid,
            Map<TopicPartition, Errors> results,
            List<TopicPartition> written) {
        String groupId = request.groupId();
        if (groupId == null) {
            fill(results, valid.keySet(), Errors.INVALID_GROUP_ID);
            return DONE;
        }
        int generation = request.generationIdOrMemberEpoch();
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            if (generation >= 0) {
                // Either the group is gone or this member belongs to a generation we never saw.
                fill(results, valid.keySet(), Errors.ILLEGAL_GENERATION);
                return DONE;
            }
            group = rt.groups.computeIfAbsent(groupId, id -> new ClassicGroup(id, GroupState.EMPTY, rt.now()));
        }
        String memberId = request.memberId() == null ? "" : request.memberId();
        group.lock.lock();
        try {
            Errors error = validateCommit(group, memberId, request.groupInstanceId(), generation);
            if (error != Errors.NONE) {
                fill(results, valid.keySet(), error);
                return DONE;
            }
            return store(group, request, valid, results, written);
        } finally {
            group.lock.unlock();
        }
    }

    private Errors validateCommit(ClassicGroup group, String memberId, String groupInstanceId, int generation) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (generation < 0 && group.is(GroupState.EMPTY)) {
            return Errors.NONE; // the group only uses the coordinator to store offsets
        }
        if (group.isStaticMemberFenced(groupInstanceId, memberId)) {
            return Errors.FENCED_INSTANCE_ID;
        }
        GroupMember member = group.get(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (generation != group.generationId) {
            return Errors.ILLEGAL_GENERATION;
        }
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            return Errors.REBALANCE_IN_PROGRESS;
        }
        // Stable or PreparingRebalance: commits are still allowed while the member learns of the rebalance.
        membership.scheduleHeartbeat(group, member);
        return Errors.NONE;
    }

    private CompletableFuture<Void> store(
            ClassicGroup group,
            OffsetCommitRequestData request,
            Map<TopicPartition, OffsetCommitRequestData.OffsetCommitRequestPartition> valid,
            Map<TopicPartition, Errors> results,
            List<TopicPartition> written) {
        long now = rt.now();
        long expireTimestamp =
                request.retentionTimeMs() == DEFAULT_RETENTION_TIME ? -1L : now + request.retentionTimeMs();
        List<GroupRecord.OffsetCommit> records = new ArrayList<>(valid.size());
        for (Map.Entry<TopicPartition, OffsetCommitRequestData.OffsetCommitRequestPartition> e : valid.entrySet()) {
            OffsetCommitRequestData.OffsetCommitRequestPartition p = e.getValue();
            String metadata = p.committedMetadata() == null ? "" : p.committedMetadata();
            if (metadata.getBytes(StandardCharsets.UTF_8).length > rt.config.offsetMetadataMaxBytes()) {
                results.put(e.getKey(), Errors.OFFSET_METADATA_TOO_LARGE);
                continue;
            }
            long commitTimestamp = p.commitTimestamp() == DEFAULT_TIMESTAMP ? now : p.commitTimestamp();
            records.add(new GroupRecord.OffsetCommit(
                    group.groupId,
                    e.getKey().topic(),
                    e.getKey().partition(),
                    p.committedOffset(),
                    p.committedLeaderEpoch(),
                    metadata,
                    commitTimestamp,
                    expireTimestamp));
        }
        if (records.isEmpty()) {
            return DONE;
        }
        CompletableFuture<Void> durable;
        try {
            durable = rt.store.append(group.groupId, records);
        } catch (IOException | RuntimeException e) {
            LOG.error("Group {}: cannot store {} offsets: {}", group.groupId, records.size(), e.toString());
            Errors error = CoordinatorRuntime.commitError(e);
            for (GroupRecord.OffsetCommit r : records) {
                results.put(new TopicPartition(r.topic(), r.partition()), error);
            }
            return DONE;
        }
        for (GroupRecord.OffsetCommit r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            group.offsets.put(
                    tp,
                    new CommittedOffset(
                            r.offset(), r.leaderEpoch(), r.metadata(), r.commitTimestampMs(), r.expireTimestampMs()));
            results.put(tp, Errors.NONE);
            written.add(tp);
        }
        return durable;
    }

    private static void fill(Map<TopicPartition, Errors> results, Iterable<TopicPartition> partitions, Errors error) {
        for (TopicPartition tp : partitions) {
            results.put(tp, error);
        }
    }

    private static OffsetCommitResponseData commitResponse(
            OffsetCommitRequestData request, Map<TopicPartition, Errors> results) {
        OffsetCommitResponseData response = new OffsetCommitResponseData();
        for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : request.topics()) {
            OffsetCommitResponseData.OffsetCommitResponseTopic out =
                    new OffsetCommitResponseData.OffsetCommitResponseTopic().setName(topic.name());
            for (OffsetCommitRequestData.OffsetCommitRequestPartition p : topic.partitions()) {
                Errors error = results.getOrDefault(
                        new TopicPartition(topic.name(), p.partitionIndex()), Errors.UNKNOWN_SERVER_ERROR);
                out.partitions()
                        .add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                                .setPartitionIndex(p.partitionIndex())
                                .setErrorCode(error.code()));
            }
            response.topics().add(out);
        }
        return response;
    }

    // ---------------------------------------------------------------- OffsetFetch

    /** A requested topic: its name and partitions; a null list means every committed partition of the group. */
    record FetchTopic(String name, List<Integer> partitions) {}

    /**
     * Reads committed offsets; {@code topics} null means all. Unknown groups and partitions without a commit answer
     * offset -1, like Kafka.
     */
    List<OffsetFetchResponseData.OffsetFetchResponseTopics> fetch(String groupId, List<FetchTopic> topics) {
        Map<String, List<OffsetFetchResponseData.OffsetFetchResponsePartitions>> byTopic =
                new java.util.LinkedHashMap<>();
        ClassicGroup group = rt.groups.get(groupId);
        if (group != null) {
            group.lock.lock();
        }
        try {
            Map<TopicPartition, CommittedOffset> offsets =
                    group == null || group.is(GroupState.DEAD) ? Map.of() : group.offsets;
            if (topics == null) {
                for (Map.Entry<TopicPartition, CommittedOffset> e : offsets.entrySet()) {
                    byTopic.computeIfAbsent(e.getKey().topic(), t -> new ArrayList<>())
                            .add(partitionOffset(e.getKey().partition(), e.getValue()));
                }
            } else {
                for (FetchTopic topic : topics) {
                    List<OffsetFetchResponseData.OffsetFetchResponsePartitions> partitions =
                            byTopic.computeIfAbsent(topic.name(), t -> new ArrayList<>());
                    for (int partition : topic.partitions()) {
                        partitions.add(
                                partitionOffset(partition, offsets.get(new TopicPartition(topic.name(), partition))));
                    }
                }
            }
        } finally {
            if (group != null) {
                group.lock.unlock();
            }
        }
        List<OffsetFetchResponseData.OffsetFetchResponseTopics> out = new ArrayList<>();
        for (Map.Entry<String, List<OffsetFetchResponseData.OffsetFetchResponsePartitions>> e : byTopic.entrySet()) {
            out.add(new OffsetFetchResponseData.OffsetFetchResponseTopics()
                    .setName(e.getKey())
                    .setPartitions(e.getValue()));
        }
        return out;
    }

    private static OffsetFetchResponseData.OffsetFetchResponsePartitions partitionOffset(
            int partition, CommittedOffset offset) {
        OffsetFetchResponseData.OffsetFetchResponsePartitions out =
                new OffsetFetchResponseData.OffsetFetchResponsePartitions().setPartitionIndex(partition);
        if (offset == null) {
            return out.setCommittedOffset(INVALID_OFFSET)
                    .setCommittedLeaderEpoch(NO_LEADER_EPOCH)
                    .setMetadata("");
        }
        return out.setCommittedOffset(offset.offset())
                .setCommittedLeaderEpoch(offset.leaderEpoch())
                .setMetadata(offset.metadata());
    }

    // ---------------------------------------------------------------- OffsetDelete

    CompletableFuture<OffsetDeleteResponseData> delete(OffsetDeleteRequestData request) {
        OffsetDeleteResponseData response = new OffsetDeleteResponseData();
        String groupId = request.groupId();
        if (groupId == null) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.INVALID_GROUP_ID.code()));
        }
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code()));
        }
        group.lock.lock();
        try {
            if (group.is(GroupState.DEAD)) {
                return CompletableFuture.completedFuture(response.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code()));
            }
            boolean empty = group.is(GroupState.EMPTY);
            if (!empty && !CoordinatorRuntime.CONSUMER_PROTOCOL_TYPE.equals(group.protocolType)) {
                return CompletableFuture.completedFuture(response.setErrorCode(Errors.NON_EMPTY_GROUP.code()));
            }
            List<GroupRecord> tombstones = new ArrayList<>();
            Map<TopicPartition, Errors> results = new HashMap<>();
            for (OffsetDeleteRequestData.OffsetDeleteRequestTopic topic : request.topics()) {
                for (OffsetDeleteRequestData.OffsetDeleteRequestPartition p : topic.partitions()) {
                    TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                    if (!rt.topics.exists(topic.name(), p.partitionIndex())) {
                        results.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                    } else if (!empty && group.isSubscribedTo(topic.name())) {
                        results.put(tp, Errors.GROUP_SUBSCRIBED_TO_TOPIC);
                    } else {
                        results.put(tp, Errors.NONE);
                        if (group.offsets.containsKey(tp)) {
                            tombstones.add(new GroupRecord.OffsetTombstone(groupId, tp.topic(), tp.partition()));
                        }
                    }
                }
            }
            CompletableFuture<Void> durable;
            try {
                durable = rt.store.append(groupId, tombstones);
            } catch (IOException | RuntimeException e) {
                LOG.error("Group {}: cannot delete {} offsets: {}", groupId, tombstones.size(), e.toString());
                return CompletableFuture.completedFuture(response.setErrorCode(
                        CoordinatorRuntime.groupWriteError(e).code()));
            }
            for (GroupRecord r : tombstones) {
                GroupRecord.OffsetTombstone t = (GroupRecord.OffsetTombstone) r;
                group.offsets.remove(new TopicPartition(t.topic(), t.partition()));
            }
            for (OffsetDeleteRequestData.OffsetDeleteRequestTopic topic : request.topics()) {
                OffsetDeleteResponseData.OffsetDeleteResponseTopic out =
                        new OffsetDeleteResponseData.OffsetDeleteResponseTopic().setName(topic.name());
                for (OffsetDeleteRequestData.OffsetDeleteRequestPartition p : topic.partitions()) {
                    out.partitions()
                            .add(new OffsetDeleteResponseData.OffsetDeleteResponsePartition()
                                    .setPartitionIndex(p.partitionIndex())
                                    .setErrorCode(results.get(new TopicPartition(topic.name(), p.partitionIndex()))
                                            .code()));
                }
                response.topics().add(out);
            }
            return durable.handle((ok, failure) -> response.setErrorCode(
                    failure == null
                            ? Errors.NONE.code()
                            : CoordinatorRuntime.groupWriteError(failure).code()));
        } finally {
            group.lock.unlock();
        }
    }

    // ---------------------------------------------------------------- deleted topics

    /** Kafka's cleanup on topic deletion: every group forgets its committed offsets of {@code topic}. */
    int forgetTopic(String topic) {
        int removed = 0;
        for (ClassicGroup group : rt.groups.values()) {
            group.lock.lock();
            try {
                List<GroupRecord> tombstones = new ArrayList<>();
                for (TopicPartition tp : group.offsets.keySet()) {
                    if (tp.topic().equals(topic)) {
                        tombstones.add(new GroupRecord.OffsetTombstone(group.groupId, topic, tp.partition()));
                    }
                }
                if (tombstones.isEmpty() || group.is(GroupState.DEAD)) {
                    continue;
                }
                if (!appendInBackground(group, tombstones, "forget offsets of deleted topic " + topic)) {
                    continue;
                }
                group.offsets.keySet().removeIf(tp -> tp.topic().equals(topic));
                removed += tombstones.size();
            } finally {
                group.lock.unlock();
            }
        }
        return removed;
    }

    /**
     * Appends a change nobody waits for (the caller applies it at once, in log order); a write that does not reach
     * every in-sync replica is only logged, as Kafka does for its cleanups.
     *
     * @return whether it was appended
     */
    private boolean appendInBackground(ClassicGroup group, List<GroupRecord> records, String what) {
        try {
            // Logged here; the future whenComplete returns only repeats the failure.
            var unused = rt.store.append(group.groupId, records).whenComplete((ok, failure) -> {
                if (failure != null) {
                    LOG.warn(
                            "Group {}: {} did not reach every in-sync replica: {}",
                            group.groupId,
                            what,
                            failure.toString());
                }
            });
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.error("Group {}: cannot {}: {}", group.groupId, what, e.toString());
            return false;
        }
    }

    // ---------------------------------------------------------------- retention

    /**
     * Kafka's removeExpiredOffsets for every group, then removes empty groups left without offsets.
     *
     * @return the number of offsets expired
     */
    int expireOffsets() {
        long now = rt.now();
        long retentionMs = rt.config.offsetsRetentionMs();
        int expired = 0;
        for (ClassicGroup group : rt.groups.values()) {
            group.lock.lock();
            try {
                expired += expireGroupOffsets(group, now, retentionMs);
            } finally {
                group.lock.unlock();
            }
        }
        return expired;
    }

    private int expireGroupOffsets(ClassicGroup group, long now, long retentionMs) {
        if (group.is(GroupState.DEAD)) {
            return 0;
        }
        List<TopicPartition> expired = new ArrayList<>();
        for (Map.Entry<TopicPartition, CommittedOffset> e : group.offsets.entrySet()) {
            if (isExpired(group, e.getKey(), e.getValue(), now, retentionMs)) {
                expired.add(e.getKey());
            }
        }
        List<GroupRecord> records = new ArrayList<>();
        for (TopicPartition tp : expired) {
            records.add(new GroupRecord.OffsetTombstone(group.groupId, tp.topic(), tp.partition()));
        }
        boolean removeGroup = group.is(GroupState.EMPTY) && group.offsets.size() == expired.size();
        if (removeGroup) {
            records.add(new GroupRecord.GroupTombstone(group.groupId));
        }
        if (records.isEmpty()) {
            return 0;
        }
        if (!appendInBackground(group, records, "expire " + expired.size() + " offsets")) {
            return 0;
        }
        for (TopicPartition tp : expired) {
            group.offsets.remove(tp);
        }
        if (!expired.isEmpty()) {
            LOG.info("Group {}: expired {} offsets", group.groupId, expired.size());
        }
        if (removeGroup) {
            group.transitionTo(GroupState.DEAD, now);
            rt.groups.remove(group.groupId, group);
            LOG.info("Group {}: empty and without offsets; removed", group.groupId);
        }
        return expired.size();
    }

    private static boolean isExpired(
            ClassicGroup group, TopicPartition tp, CommittedOffset offset, long now, long retentionMs) {
        if (group.protocolType != null && group.is(GroupState.EMPTY)) {
            // No member left: retention counts from when the group became empty.
            return expiredSince(offset, group.stateTimestampMs, now, retentionMs);
        }
        if (CoordinatorRuntime.CONSUMER_PROTOCOL_TYPE.equals(group.protocolType)
                && group.subscribedTopics != null
                && group.is(GroupState.STABLE)) {
            // Active consumers: offsets of topics nobody subscribes to any more expire from their last commit.
            return !group.subscribedTopics.contains(tp.topic())
                    && expiredSince(offset, offset.commitTimestampMs(), now, retentionMs);
        }
        if (group.protocolType == null) {
            // Standalone consumer storing offsets only.
            return expiredSince(offset, offset.commitTimestampMs(), now, retentionMs);
        }
        return false;
    }

    private static boolean expiredSince(CommittedOffset offset, long base, long now, long retentionMs) {
        if (offset.expireTimestampMs() >= 0) {
            return now >= offset.expireTimestampMs();
        }
        return now - base >= retentionMs;
    }
}
