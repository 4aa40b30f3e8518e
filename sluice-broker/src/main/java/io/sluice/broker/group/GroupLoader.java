package io.sluice.broker.group;

import io.sluice.broker.group.store.GroupRecord;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes partitions of the group space over and hands them back as this broker's leadership of the
 * {@code __consumer_offsets} partitions changes (Kafka's onElection and onResignation). A partition this broker starts
 * leading is LOADING until its groups are read from the store and registered, then OWNED (FAILED when the load
 * failed); one it stops leading is NOT_OWNED at once and its groups are then unloaded: waiting members are answered
 * NOT_COORDINATOR, timers stop, the groups are dropped. Role changes only flip the status and queue the work; loads
 * and unloads run one at a time, in the order the role changes came, on the loader executor, so the thread applying
 * cluster states never waits on a log read.
 *
 * <p>Thread-safe: statuses are an atomic array; groups are touched under their locks.
 */
final class GroupLoader {
    private static final Logger LOG = LoggerFactory.getLogger(GroupLoader.class);

    enum Phase {
        NOT_OWNED,
        LOADING,
        OWNED,
        FAILED
    }

    /** Where one partition stands, and in which leader epoch it was taken over. */
    private record Status(Phase phase, int leaderEpoch) {}

    private static final Status NOT_OWNED = new Status(Phase.NOT_OWNED, -1);

    private final CoordinatorRuntime rt;
    private final MembershipProtocol membership;
    private final Executor loader;
    private final AtomicReferenceArray<Status> statuses;

    GroupLoader(CoordinatorRuntime rt, MembershipProtocol membership, Executor loader) {
        this.rt = rt;
        this.membership = membership;
        this.loader = loader;
        this.statuses = new AtomicReferenceArray<>(rt.config.offsetsTopicNumPartitions());
        for (int p = 0; p < statuses.length(); p++) {
            statuses.set(p, NOT_OWNED);
        }
    }

    /** This broker leads {@code partition} in {@code leaderEpoch} now: its groups are (re)loaded. */
    void onElected(int partition, int leaderEpoch) {
        if (!inRange(partition)) {
            return;
        }
        Status loading = new Status(Phase.LOADING, leaderEpoch);
        statuses.set(partition, loading);
        submit("load", partition, () -> load(partition, loading));
    }

    /** This broker no longer leads {@code partition}: its groups are answered NOT_COORDINATOR and unloaded. */
    void onResigned(int partition) {
        if (!inRange(partition)) {
            return;
        }
        statuses.set(partition, NOT_OWNED);
        submit("unload", partition, () -> unload(partition));
    }

    private boolean inRange(int partition) {
        if (partition < 0 || partition >= statuses.length()) {
            LOG.error(
                    "__consumer_offsets partition {} is outside offsets.topic.num.partitions={}; ignored",
                    partition,
                    statuses.length());
            return false;
        }
        return true;
    }

    private void submit(String what, int partition, Runnable work) {
        try {
            loader.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    LOG.error("Group coordinator: {} of partition {} failed", what, partition, e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("Group coordinator: {} of partition {} not run: shutting down", what, partition);
        }
    }

    /** NONE when this broker serves the groups of {@code partition}, else what a request about them is answered. */
    Errors errorFor(int partition) {
        return switch (statuses.get(partition).phase()) {
            case OWNED -> Errors.NONE;
            case LOADING -> Errors.COORDINATOR_LOAD_IN_PROGRESS;
            case FAILED -> Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_OWNED -> Errors.NOT_COORDINATOR;
        };
    }

    /** {@link #errorFor} the partition of {@code groupId}; NONE for a null id (the request is refused as invalid). */
    Errors errorForGroup(String groupId) {
        return groupId == null ? Errors.NONE : errorFor(rt.partitionOf(groupId));
    }

    boolean anyLoading() {
        for (int p = 0; p < statuses.length(); p++) {
            if (statuses.get(p).phase() == Phase.LOADING) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("ReferenceEquality") // identity: this load's own status, not an equal one of a later load
    private void load(int partition, Status loading) {
        if (statuses.get(partition) != loading) {
            return;
        }
        unload(partition);
        long started = System.nanoTime();
        List<GroupRecord> records;
        LinkedHashMap<String, ClassicGroup> loaded;
        try {
            records = rt.store.load(partition);
            // restoring is part of the load: a failure here must not leave the partition loading for ever
            loaded = restore(records);
            for (ClassicGroup group : loaded.values()) {
                rt.groups.put(group.groupId, group);
                membership.onGroupLoaded(group);
            }
        } catch (IOException | RuntimeException e) {
            if (statuses.compareAndSet(partition, loading, new Status(Phase.FAILED, loading.leaderEpoch()))) {
                LOG.error(
                        "Group coordinator: cannot load partition {} in leader epoch {}; its groups are unavailable "
                                + "until it is loaded again",
                        partition,
                        loading.leaderEpoch(),
                        e);
            }
            return;
        }
        if (statuses.compareAndSet(partition, loading, new Status(Phase.OWNED, loading.leaderEpoch()))) {
            LOG.info(
                    "Group coordinator: loaded {} groups of partition {} (leader epoch {}) from {} records in {} ms",
                    loaded.size(),
                    partition,
                    loading.leaderEpoch(),
                    records.size(),
                    (System.nanoTime() - started) / 1_000_000);
        }
    }

    private void unload(int partition) {
        int unloaded = 0;
        for (ClassicGroup group : rt.groups.values()) {
            if (rt.partitionOf(group.groupId) == partition) {
                membership.unload(group);
                rt.groups.remove(group.groupId, group);
                unloaded++;
            }
        }
        if (unloaded > 0) {
            LOG.info("Group coordinator: unloaded {} groups of partition {}", unloaded, partition);
        }
    }

    /** Groups as the store's live records describe them: membership from GroupMetadata, offsets from commits. */
    private LinkedHashMap<String, ClassicGroup> restore(List<GroupRecord> records) {
        long now = rt.now();
        LinkedHashMap<String, ClassicGroup> groups = new LinkedHashMap<>();
        for (GroupRecord record : records) {
            if (record instanceof GroupRecord.GroupMetadata g) {
                restoreMembership(
                        groups.computeIfAbsent(g.groupId(), id -> new ClassicGroup(id, GroupState.EMPTY, now)), g);
            }
        }
        for (GroupRecord record : records) {
            if (record instanceof GroupRecord.OffsetCommit c) {
                ClassicGroup group =
                        groups.computeIfAbsent(c.groupId(), id -> new ClassicGroup(id, GroupState.EMPTY, now));
                group.offsets.put(
                        new TopicPartition(c.topic(), c.partition()),
                        new CommittedOffset(
                                c.offset(),
                                c.leaderEpoch(),
                                c.metadata(),
                                c.commitTimestampMs(),
                                c.expireTimestampMs()));
            }
        }
        return groups;
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
            GroupMember member = new GroupMember(
                    m.memberId(),
                    m.groupInstanceId(),
                    m.clientId(),
                    m.clientHost(),
                    g.protocolType(),
                    m.rebalanceTimeoutMs(),
                    m.sessionTimeoutMs(),
                    protocols);
            member.assignment = m.assignment();
            group.add(member);
        }
        group.leaderId = g.leaderId() != null && group.has(g.leaderId()) ? g.leaderId() : group.leaderId;
        group.transitionTo(group.members.isEmpty() ? GroupState.EMPTY : GroupState.STABLE, g.stateTimestampMs());
        group.subscribedTopics = CoordinatorRuntime.subscribedTopics(group);
    }
}
