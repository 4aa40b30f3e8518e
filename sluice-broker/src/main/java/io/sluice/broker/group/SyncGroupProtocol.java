package io.sluice.broker.group;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SyncGroup of the classic group protocol: members wait for the leader's assignment, which is stored durably before
 * every waiting member gets its part and the group becomes Stable.
 *
 * <p>Thread-safe: each sync runs under its group's lock; the outcome of the store is handled under it again (see
 * {@link CoordinatorRuntime#whenDurable}). Response futures complete while that lock is held.
 */
final class SyncGroupProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(SyncGroupProtocol.class);
    private final CoordinatorRuntime rt;
    private final RebalanceStateMachine rebalance;

    SyncGroupProtocol(CoordinatorRuntime rt, RebalanceStateMachine rebalance) {
        this.rt = rt;
        this.rebalance = rebalance;
    }

    void sync(SyncGroupRequestData request, short version, CompletableFuture<SyncGroupResponseData> response) {
        String groupId = request.groupId();
        if (groupId == null || groupId.isEmpty()) {
            response.complete(GroupResponses.syncError(Errors.INVALID_GROUP_ID));
            return;
        }
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            response.complete(GroupResponses.syncError(Errors.UNKNOWN_MEMBER_ID));
            return;
        }
        String memberId = request.memberId() == null ? "" : request.memberId();
        group.lock.lock();
        try {
            Errors error = validateSync(group, request, memberId);
            if (error != Errors.NONE) {
                response.complete(GroupResponses.syncError(error));
                return;
            }
            GroupMember member = group.get(memberId);
            switch (group.state) {
                case EMPTY:
                    response.complete(GroupResponses.syncError(Errors.UNKNOWN_MEMBER_ID));
                    break;
                case PREPARING_REBALANCE:
                    response.complete(GroupResponses.syncError(Errors.REBALANCE_IN_PROGRESS));
                    break;
                case COMPLETING_REBALANCE:
                    if (member.awaitingSync != null) {
                        member.awaitingSync.complete(GroupResponses.syncError(Errors.REBALANCE_IN_PROGRESS));
                    }
                    member.awaitingSync = response;
                    member.awaitingSyncVersion = version;
                    group.pendingSyncMembers.remove(memberId);
                    if (group.isLeader(memberId)) {
                        completeSync(group, request);
                    }
                    break;
                case STABLE:
                    group.pendingSyncMembers.remove(memberId);
                    response.complete(GroupResponses.syncResult(group, member.assignment, version));
                    rebalance.scheduleHeartbeat(group, member);
                    break;
                default:
                    response.complete(GroupResponses.syncError(Errors.COORDINATOR_NOT_AVAILABLE));
            }
        } finally {
            group.lock.unlock();
        }
    }

    private Errors validateSync(ClassicGroup group, SyncGroupRequestData request, String memberId) {
        if (group.is(GroupState.DEAD)) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        if (group.isStaticMemberFenced(request.groupInstanceId(), memberId)) {
            return Errors.FENCED_INSTANCE_ID;
        }
        if (!group.has(memberId)) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        if (request.generationId() != group.generationId) {
            return Errors.ILLEGAL_GENERATION;
        }
        if (request.protocolType() != null && !request.protocolType().equals(group.protocolType)) {
            return Errors.INCONSISTENT_GROUP_PROTOCOL;
        }
        if (request.protocolName() != null && !request.protocolName().equals(group.protocolName)) {
            return Errors.INCONSISTENT_GROUP_PROTOCOL;
        }
        return Errors.NONE;
    }

    /** The leader's assignment arrived: store it, hand it to every member waiting, and become Stable. */
    private void completeSync(ClassicGroup group, SyncGroupRequestData request) {
        Map<String, byte[]> assignments = new HashMap<>();
        for (SyncGroupRequestData.SyncGroupRequestAssignment a : request.assignments()) {
            byte[] bytes = a.assignment() == null ? new byte[0] : a.assignment();
            if (bytes.length > rt.config.memberMetadataMaxBytes()) {
                LOG.info(
                        "Group {}: leader assigned {} bytes to member {}, above sluice.group.member.metadata.max.bytes={}",
                        group.groupId,
                        bytes.length,
                        a.memberId(),
                        rt.config.memberMetadataMaxBytes());
                rebalance.resetAndPropagateAssignmentError(group, Errors.INVALID_REQUEST);
                rebalance.maybePrepareRebalance(group, "oversized assignment from the leader");
                return;
            }
            if (group.has(a.memberId())) {
                assignments.put(a.memberId(), bytes);
            }
        }
        for (String memberId : group.members.keySet()) {
            assignments.putIfAbsent(memberId, new byte[0]);
        }
        int generation = group.generationId;
        CompletableFuture<Void> write;
        try {
            write = rt.persistGroup(group, assignments);
        } catch (IOException e) {
            assignmentNotStored(group, e);
            return;
        }
        rt.whenDurable(group, write, failure -> {
            // Kafka's check: a member may have joined meanwhile and started another rebalance; then nothing to do.
            if (!group.is(GroupState.COMPLETING_REBALANCE) || group.generationId != generation) {
                return;
            }
            if (failure != null) {
                assignmentNotStored(group, failure);
            } else {
                propagateAssignment(group, assignments);
            }
        });
    }

    private void assignmentNotStored(ClassicGroup group, Throwable failure) {
        LOG.error(
                "Group {}: cannot store the assignment of generation {}: {}",
                group.groupId,
                group.generationId,
                failure.toString());
        rebalance.resetAndPropagateAssignmentError(group, CoordinatorRuntime.groupWriteError(failure));
        rebalance.maybePrepareRebalance(group, "the assignment could not be stored");
    }

    private void propagateAssignment(ClassicGroup group, Map<String, byte[]> assignments) {
        for (GroupMember member : group.members.values()) {
            member.assignment = assignments.getOrDefault(member.memberId, new byte[0]);
            if (member.awaitingSync != null) {
                member.awaitingSync.complete(
                        GroupResponses.syncResult(group, member.assignment, member.awaitingSyncVersion));
                member.awaitingSync = null;
            }
            rebalance.scheduleHeartbeat(group, member);
        }
        group.transitionTo(GroupState.STABLE, rt.now());
        LOG.info("Group {}: generation {} is stable", group.groupId, group.generationId);
    }
}
