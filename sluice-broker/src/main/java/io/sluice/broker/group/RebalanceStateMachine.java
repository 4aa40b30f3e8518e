package io.sluice.broker.group;

import java.io.IOException;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's rebalance state machine of a classic group and its timers: preparing a rebalance (with the initial
 * rebalance delay), completing the join into the next generation, the sync and session timeouts, pending-member
 * expiry, removing a member, and starting or stopping a group's timers when it is loaded, unloaded or shut down. The
 * JoinGroup, SyncGroup, Heartbeat and LeaveGroup handlers ({@link MembershipProtocol}) drive it.
 *
 * <p>Thread-safe: the rebalance steps run with the group's lock held by their caller; the timers, pending-member
 * expiry and the load, unload and shutdown entry points take that lock themselves.
 */
final class RebalanceStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(RebalanceStateMachine.class);

    private final CoordinatorRuntime rt;

    RebalanceStateMachine(CoordinatorRuntime rt) {
        this.rt = rt;
    }

    void maybePrepareRebalance(ClassicGroup group, String reason) {
        if (group.is(GroupState.STABLE) || group.is(GroupState.COMPLETING_REBALANCE) || group.is(GroupState.EMPTY)) {
            prepareRebalance(group, reason);
        }
    }

    void prepareRebalance(ClassicGroup group, String reason) {
        if (group.is(GroupState.COMPLETING_REBALANCE)) {
            resetAndPropagateAssignmentError(group, Errors.REBALANCE_IN_PROGRESS);
        }
        group.cancelSyncTimer();
        group.pendingSyncMembers.clear();
        boolean wasEmpty = group.is(GroupState.EMPTY);
        group.transitionTo(GroupState.PREPARING_REBALANCE, rt.now());
        LOG.info("Group {}: preparing to rebalance in generation {} ({})", group.groupId, group.generationId, reason);
        if (wasEmpty) {
            int delay = rt.config.initialRebalanceDelayMs();
            group.initialDelayActive = true;
            group.initialDelayRemainingMs = Math.max(group.rebalanceTimeoutMs() - delay, 0);
            scheduleJoinTimer(group, delay, true);
        } else {
            group.initialDelayActive = false;
            scheduleJoinTimer(group, group.rebalanceTimeoutMs(), false);
            // Kafka's tryCompleteElseWatch: a group whose members have all rejoined (or all left) completes now.
            maybeCompleteJoin(group);
        }
    }

    private void scheduleJoinTimer(ClassicGroup group, long delayMs, boolean initialDelay) {
        group.cancelJoinTimer();
        long epoch = group.joinTimerEpoch;
        group.joinTimer = rt.schedule("join " + group.groupId, () -> onJoinTimer(group, epoch, initialDelay), delayMs);
    }

    private void onJoinTimer(ClassicGroup group, long epoch, boolean initialDelay) {
        group.lock.lock();
        try {
            if (epoch != group.joinTimerEpoch || !group.is(GroupState.PREPARING_REBALANCE)) {
                return;
            }
            if (initialDelay && group.newMemberAdded && group.initialDelayRemainingMs != 0) {
                int configured = rt.config.initialRebalanceDelayMs();
                int delay = Math.min(configured, group.initialDelayRemainingMs);
                group.newMemberAdded = false;
                group.initialDelayRemainingMs = Math.max(group.initialDelayRemainingMs - configured, 0);
                scheduleJoinTimer(group, delay, true);
                return;
            }
            group.initialDelayActive = false;
            completeJoin(group);
        } finally {
            group.lock.unlock();
        }
    }

    void maybeCompleteJoin(ClassicGroup group) {
        if (group.is(GroupState.PREPARING_REBALANCE) && !group.initialDelayActive && group.hasAllMembersJoined()) {
            completeJoin(group);
        }
    }

    /** Kafka's onCompleteJoin: drops dynamic members that did not rejoin and starts the next generation. */
    private void completeJoin(ClassicGroup group) {
        group.cancelJoinTimer();
        for (GroupMember member : new ArrayList<>(group.members.values())) {
            if (!member.isAwaitingJoin() && !member.isStatic()) {
                LOG.info("Group {}: removing member {} which did not rejoin in time", group.groupId, member.memberId);
                group.remove(member.memberId);
            }
        }
        if (group.is(GroupState.DEAD)) {
            return;
        }
        if (!group.maybeElectNewJoinedLeader() && !group.members.isEmpty()) {
            // Only static members that have not rejoined remain: wait for them to rejoin or time out.
            LOG.warn("Group {}: no member rejoined; waiting another rebalance timeout", group.groupId);
            scheduleJoinTimer(group, group.rebalanceTimeoutMs(), false);
            return;
        }
        initNextGeneration(group);
        if (group.is(GroupState.EMPTY)) {
            LOG.info("Group {}: generation {} is empty", group.groupId, group.generationId);
            int generation = group.generationId;
            try {
                // Logged here; the future whenComplete returns only repeats the failure.
                var unused = rt.persistGroup(group, null).whenComplete((ok, failure) -> {
                    if (failure != null) {
                        LOG.warn(
                                "Group {}: empty generation {} did not reach every in-sync replica: {}",
                                group.groupId,
                                generation,
                                failure.toString());
                    }
                });
            } catch (IOException e) {
                LOG.error("Group {}: cannot store empty generation {}: {}", group.groupId, generation, e.toString());
            }
            return;
        }
        LOG.info(
                "Group {}: generation {} with {} members, protocol {}, leader {}",
                group.groupId,
                group.generationId,
                group.members.size(),
                group.protocolName,
                group.leaderId);
        for (GroupMember member : group.members.values()) {
            if (member.isAwaitingJoin()) {
                CompletableFuture<JoinGroupResponseData> waiting = member.awaitingJoin;
                short version = member.awaitingJoinVersion;
                group.setAwaitingJoin(member, null, (short) 0);
                waiting.complete(GroupResponses.joinResult(
                        group, member.memberId, group.leaderId, group.isLeader(member.memberId), version));
            }
            scheduleHeartbeat(group, member);
        }
        group.pendingSyncMembers.addAll(group.members.keySet());
        group.cancelSyncTimer();
        long epoch = group.syncTimerEpoch;
        int generation = group.generationId;
        group.syncTimer = rt.schedule(
                "sync " + group.groupId, () -> onSyncTimer(group, epoch, generation), group.rebalanceTimeoutMs());
    }

    private void initNextGeneration(ClassicGroup group) {
        group.generationId++;
        if (!group.members.isEmpty()) {
            group.protocolName = group.selectProtocol();
            group.subscribedTopics = CoordinatorRuntime.subscribedTopics(group);
            group.transitionTo(GroupState.COMPLETING_REBALANCE, rt.now());
        } else {
            group.protocolName = null;
            group.subscribedTopics = CoordinatorRuntime.subscribedTopics(group);
            group.transitionTo(GroupState.EMPTY, rt.now());
        }
    }

    private void onSyncTimer(ClassicGroup group, long epoch, int generation) {
        group.lock.lock();
        try {
            if (epoch != group.syncTimerEpoch
                    || generation != group.generationId
                    || group.pendingSyncMembers.isEmpty()) {
                return;
            }
            if (!group.is(GroupState.COMPLETING_REBALANCE) && !group.is(GroupState.STABLE)) {
                return;
            }
            LOG.info(
                    "Group {}: members {} did not sync in generation {}; removing them",
                    group.groupId,
                    group.pendingSyncMembers,
                    generation);
            for (String memberId : new ArrayList<>(group.pendingSyncMembers)) {
                GroupMember member = group.remove(memberId);
                if (member != null && member.awaitingSync != null) {
                    member.awaitingSync.complete(GroupResponses.syncError(Errors.UNKNOWN_MEMBER_ID));
                    member.awaitingSync = null;
                }
            }
            prepareRebalance(group, "members did not sync in time");
        } finally {
            group.lock.unlock();
        }
    }

    void resetAndPropagateAssignmentError(ClassicGroup group, Errors error) {
        for (GroupMember member : group.members.values()) {
            member.assignment = new byte[0];
            if (member.awaitingSync != null) {
                member.awaitingSync.complete(GroupResponses.syncError(error));
                member.awaitingSync = null;
                scheduleHeartbeat(group, member);
            }
        }
    }

    /**
     * Pushes the member's session deadline forward; called with the group's lock held. A heartbeat only moves the
     * deadline: the one timer per member re-arms itself when it fires early, so heartbeats cost no timer churn.
     */
    void scheduleHeartbeat(ClassicGroup group, GroupMember member) {
        long deadline = rt.now() + member.sessionTimeoutMs;
        member.heartbeatDeadlineMs = deadline;
        if (member.heartbeatTimer != null && member.heartbeatTimerDueMs <= deadline) {
            return;
        }
        member.cancelHeartbeat();
        armSessionTimer(group, member, member.sessionTimeoutMs);
    }

    private void armSessionTimer(ClassicGroup group, GroupMember member, long delayMs) {
        member.heartbeatTimerDueMs = rt.now() + delayMs;
        member.heartbeatTimer = rt.schedule("session " + group.groupId, () -> onSessionTimer(group, member), delayMs);
    }

    private void onSessionTimer(ClassicGroup group, GroupMember member) {
        group.lock.lock();
        try {
            member.heartbeatTimer = null;
            if (group.get(member.memberId) != member) {
                return;
            }
            long remaining = member.heartbeatDeadlineMs - rt.now();
            if (remaining > 0) {
                armSessionTimer(group, member, remaining);
                return;
            }
            if (member.isAwaitingJoin() || member.isAwaitingSync()) {
                // Kept alive while waiting on the coordinator; the rebalance and sync timers bound the wait, and
                // answering it restarts the session.
                return;
            }
            LOG.info(
                    "Group {}: member {} missed its session timeout of {} ms; removing it",
                    group.groupId,
                    member.memberId,
                    member.sessionTimeoutMs);
            removeMemberAndUpdateGroup(group, member, "session timeout of member " + member.memberId);
        } finally {
            group.lock.unlock();
        }
    }

    void expirePendingMember(ClassicGroup group, String memberId) {
        group.lock.lock();
        try {
            if (group.pendingMembers.remove(memberId) != null) {
                LOG.debug("Group {}: pending member {} did not join in time", group.groupId, memberId);
                maybeCompleteJoin(group);
            }
        } finally {
            group.lock.unlock();
        }
    }

    void removeMemberAndUpdateGroup(ClassicGroup group, GroupMember member, String reason) {
        if (member.isAwaitingJoin()) {
            CompletableFuture<JoinGroupResponseData> waiting = member.awaitingJoin;
            short version = member.awaitingJoinVersion;
            group.setAwaitingJoin(member, null, (short) 0);
            waiting.complete(GroupResponses.joinError("", Errors.UNKNOWN_MEMBER_ID, version));
        }
        if (member.awaitingSync != null) {
            member.awaitingSync.complete(GroupResponses.syncError(Errors.UNKNOWN_MEMBER_ID));
            member.awaitingSync = null;
        }
        group.remove(member.memberId);
        switch (group.state) {
            case STABLE:
            case COMPLETING_REBALANCE:
                maybePrepareRebalance(group, reason);
                break;
            case PREPARING_REBALANCE:
                maybeCompleteJoin(group);
                break;
            default:
                break;
        }
    }

    // ---------------------------------------------------------------- loading and shutdown

    /** Starts session timers for members loaded from the store (Kafka's onGroupLoaded). */
    void onGroupLoaded(ClassicGroup group) {
        group.lock.lock();
        try {
            for (GroupMember member : group.members.values()) {
                scheduleHeartbeat(group, member);
            }
        } finally {
            group.lock.unlock();
        }
    }

    /**
     * Kafka's onGroupUnloaded: another broker coordinates the group now. Waiting members are answered NOT_COORDINATOR
     * and look the coordinator up again; the group is dead here, so requests still holding it change nothing.
     */
    void unload(ClassicGroup group) {
        group.lock.lock();
        try {
            shutdown(group, Errors.NOT_COORDINATOR);
            group.transitionTo(GroupState.DEAD, rt.now());
        } finally {
            group.lock.unlock();
        }
    }

    /** Answers every waiting JoinGroup and SyncGroup with {@code error} and stops the group's timers. */
    void shutdown(ClassicGroup group, Errors error) {
        group.lock.lock();
        try {
            group.cancelJoinTimer();
            group.cancelSyncTimer();
            for (var timer : group.pendingMembers.values()) {
                if (timer != null) {
                    timer.cancel(false);
                }
            }
            for (GroupMember member : group.members.values()) {
                member.cancelHeartbeat();
                if (member.isAwaitingJoin()) {
                    member.awaitingJoin.complete(
                            GroupResponses.joinError(member.memberId, error, member.awaitingJoinVersion));
                    group.setAwaitingJoin(member, null, (short) 0);
                }
                if (member.awaitingSync != null) {
                    member.awaitingSync.complete(GroupResponses.syncError(error));
                    member.awaitingSync = null;
                }
            }
        } finally {
            group.lock.unlock();
        }
    }
}
