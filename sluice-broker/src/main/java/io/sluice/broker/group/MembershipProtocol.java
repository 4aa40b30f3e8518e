package io.sluice.broker.group;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The classic group membership protocol (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) with Kafka's state machine
 * and timers: JoinGroup in {@link JoinGroupProtocol}, SyncGroup in {@link SyncGroupProtocol}, the state machine,
 * the initial rebalance delay, the rebalance timeout, session timeouts and pending members in
 * {@link RebalanceStateMachine}; Heartbeat and LeaveGroup here. Thread-safe: every group is touched only under its
 * lock; timers take the same lock. Response futures complete while the group's lock is held, so their dependents must
 * not block.
 */
final class MembershipProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(MembershipProtocol.class);
    /** LeaveGroup v3 and later carry a list of members. */
    private static final short LEAVE_BATCH_VERSION = 3;

    private final CoordinatorRuntime rt;
    private final RebalanceStateMachine rebalance;
    private final JoinGroupProtocol joins;
    private final SyncGroupProtocol syncs;

    MembershipProtocol(CoordinatorRuntime rt) {
        this.rt = rt;
        this.rebalance = new RebalanceStateMachine(rt);
        this.joins = new JoinGroupProtocol(rt, rebalance);
        this.syncs = new SyncGroupProtocol(rt, rebalance);
    }

    // ---------------------------------------------------------------- JoinGroup and SyncGroup

    void join(
            JoinGroupRequestData request,
            short version,
            String clientId,
            String clientHost,
            CompletableFuture<JoinGroupResponseData> response) {
        joins.join(request, version, clientId, clientHost, response);
    }

    void sync(SyncGroupRequestData request, short version, CompletableFuture<SyncGroupResponseData> response) {
        syncs.sync(request, version, response);
    }

    // ---------------------------------------------------------------- Heartbeat

    Errors heartbeat(HeartbeatRequestData request) {
        String groupId = request.groupId();
        if (groupId == null || groupId.isEmpty()) {
            return Errors.INVALID_GROUP_ID;
        }
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        String memberId = request.memberId() == null ? "" : request.memberId();
        group.lock.lock();
        try {
            if (group.is(GroupState.DEAD)) {
                return Errors.COORDINATOR_NOT_AVAILABLE;
            }
            if (group.isStaticMemberFenced(request.groupInstanceId(), memberId)) {
                return Errors.FENCED_INSTANCE_ID;
            }
            GroupMember member = group.get(memberId);
            if (member == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (request.generationId() != group.generationId) {
                return Errors.ILLEGAL_GENERATION;
            }
            switch (group.state) {
                case EMPTY:
                    return Errors.UNKNOWN_MEMBER_ID;
                case PREPARING_REBALANCE:
                    rebalance.scheduleHeartbeat(group, member);
                    return Errors.REBALANCE_IN_PROGRESS;
                default:
                    rebalance.scheduleHeartbeat(group, member);
                    return Errors.NONE;
            }
        } finally {
            group.lock.unlock();
        }
    }

    /**
     * Pushes the member's session deadline forward; called with the group's lock held (see
     * {@link RebalanceStateMachine#scheduleHeartbeat}).
     */
    void scheduleHeartbeat(ClassicGroup group, GroupMember member) {
        rebalance.scheduleHeartbeat(group, member);
    }

    // ---------------------------------------------------------------- LeaveGroup

    LeaveGroupResponseData leave(LeaveGroupRequestData request, short version) {
        List<LeaveGroupRequestData.MemberIdentity> leaving = version >= LEAVE_BATCH_VERSION
                ? request.members()
                : List.of(new LeaveGroupRequestData.MemberIdentity().setMemberId(request.memberId()));
        String groupId = request.groupId();
        if (groupId == null || groupId.isEmpty()) {
            return leaveResponse(Errors.INVALID_GROUP_ID, List.of(), version);
        }
        List<LeaveGroupResponseData.MemberResponse> results = new ArrayList<>();
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            for (LeaveGroupRequestData.MemberIdentity m : leaving) {
                results.add(memberLeave(m, Errors.UNKNOWN_MEMBER_ID));
            }
            return leaveResponse(Errors.NONE, results, version);
        }
        group.lock.lock();
        try {
            if (group.is(GroupState.DEAD)) {
                return leaveResponse(Errors.COORDINATOR_NOT_AVAILABLE, List.of(), version);
            }
            for (LeaveGroupRequestData.MemberIdentity m : leaving) {
                results.add(memberLeave(m, leaveOne(group, m)));
            }
        } finally {
            group.lock.unlock();
        }
        return leaveResponse(Errors.NONE, results, version);
    }

    private Errors leaveOne(ClassicGroup group, LeaveGroupRequestData.MemberIdentity m) {
        String memberId = m.memberId() == null ? "" : m.memberId();
        String instanceId = m.groupInstanceId();
        String reason = "member " + memberId + " left" + (m.reason() == null ? "" : " (" + m.reason() + ")");
        if (memberId.isEmpty()) {
            // Administrative removal of a static member by its instance id (KIP-345).
            String current = instanceId == null ? null : group.staticMembers.get(instanceId);
            if (current == null) {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            rebalance.removeMemberAndUpdateGroup(group, group.get(current), reason);
            return Errors.NONE;
        }
        if (group.isPendingMember(memberId)) {
            var timer = group.pendingMembers.remove(memberId);
            if (timer != null) {
                timer.cancel(false);
            }
            rebalance.maybeCompleteJoin(group);
            return Errors.NONE;
        }
        if (group.isStaticMemberFenced(instanceId, memberId)) {
            return Errors.FENCED_INSTANCE_ID;
        }
        GroupMember member = group.get(memberId);
        if (member == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        LOG.info("Group {}: {}", group.groupId, reason);
        rebalance.removeMemberAndUpdateGroup(group, member, reason);
        return Errors.NONE;
    }

    private static LeaveGroupResponseData.MemberResponse memberLeave(
            LeaveGroupRequestData.MemberIdentity m, Errors error) {
        return new LeaveGroupResponseData.MemberResponse()
                .setMemberId(m.memberId())
                .setGroupInstanceId(m.groupInstanceId())
                .setErrorCode(error.code());
    }

    private static LeaveGroupResponseData leaveResponse(
            Errors topLevel, List<LeaveGroupResponseData.MemberResponse> members, short version) {
        LeaveGroupResponseData response = new LeaveGroupResponseData().setErrorCode(topLevel.code());
        if (version >= LEAVE_BATCH_VERSION) {
            return response.setMembers(members);
        }
        if (topLevel == Errors.NONE && !members.isEmpty()) {
            response.setErrorCode(members.get(0).errorCode());
        }
        return response;
    }

    // ---------------------------------------------------------------- loading and shutdown

    /** Starts session timers for members loaded from the store (Kafka's onGroupLoaded). */
    void onGroupLoaded(ClassicGroup group) {
        rebalance.onGroupLoaded(group);
    }

    /** Kafka's onGroupUnloaded: see {@link RebalanceStateMachine#unload}. */
    void unload(ClassicGroup group) {
        rebalance.unload(group);
    }

    /** Answers every waiting JoinGroup and SyncGroup with {@code error} and stops the group's timers. */
    void shutdown(ClassicGroup group, Errors error) {
        rebalance.shutdown(group, error);
    }
}
