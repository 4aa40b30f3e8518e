package io.sluice.broker.group;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JoinGroup of the classic group protocol: validation, new and known members, pending members (MEMBER_ID_REQUIRED,
 * KIP-394), static members replacing their predecessor (KIP-345), and the rebalances a join starts through the
 * {@link RebalanceStateMachine}.
 *
 * <p>Thread-safe: each join runs under its group's lock. Response futures complete while that lock is held, so their
 * dependents must not block.
 */
final class JoinGroupProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(JoinGroupProtocol.class);
    /** JoinGroup v4 and later must rejoin with the member id the coordinator hands out (KIP-394). */
    private static final short JOIN_REQUIRES_KNOWN_MEMBER_ID_VERSION = 4;

    private final CoordinatorRuntime rt;
    private final RebalanceStateMachine rebalance;

    JoinGroupProtocol(CoordinatorRuntime rt, RebalanceStateMachine rebalance) {
        this.rt = rt;
        this.rebalance = rebalance;
    }

    void join(
            JoinGroupRequestData request,
            short version,
            String clientId,
            String clientHost,
            CompletableFuture<JoinGroupResponseData> response) {
        String groupId = request.groupId();
        String memberId = request.memberId() == null ? "" : request.memberId();
        if (groupId == null || groupId.isEmpty()) {
            response.complete(GroupResponses.joinError(memberId, Errors.INVALID_GROUP_ID, version));
            return;
        }
        int sessionTimeoutMs = request.sessionTimeoutMs();
        if (sessionTimeoutMs < rt.config.minSessionTimeoutMs() || sessionTimeoutMs > rt.config.maxSessionTimeoutMs()) {
            response.complete(GroupResponses.joinError(memberId, Errors.INVALID_SESSION_TIMEOUT, version));
            return;
        }
        LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
        for (JoinGroupRequestData.JoinGroupRequestProtocol p : request.protocols()) {
            byte[] metadata = p.metadata() == null ? new byte[0] : p.metadata();
            if (metadata.length > rt.config.memberMetadataMaxBytes()) {
                LOG.info(
                        "Group {}: member '{}' (client {}) sent {} bytes of metadata for protocol {}, above "
                                + "sluice.group.member.metadata.max.bytes={}",
                        groupId,
                        memberId,
                        clientId,
                        metadata.length,
                        p.name(),
                        rt.config.memberMetadataMaxBytes());
                response.complete(GroupResponses.joinError(memberId, Errors.INVALID_REQUEST, version));
                return;
            }
            protocols.put(p.name(), metadata);
        }
        int rebalanceTimeoutMs = request.rebalanceTimeoutMs() < 0 ? sessionTimeoutMs : request.rebalanceTimeoutMs();
        JoinParams params = new JoinParams(
                groupId,
                memberId,
                request.groupInstanceId(),
                clientId == null ? "" : clientId,
                clientHost == null ? "" : clientHost,
                request.protocolType(),
                protocols,
                sessionTimeoutMs,
                rebalanceTimeoutMs,
                version,
                response);

        boolean unknownMember = memberId.isEmpty();
        ClassicGroup group = unknownMember
                ? rt.groups.computeIfAbsent(groupId, id -> new ClassicGroup(id, GroupState.EMPTY, rt.now()))
                : rt.groups.get(groupId);
        if (group == null) {
            response.complete(GroupResponses.joinError(memberId, Errors.UNKNOWN_MEMBER_ID, version));
            return;
        }
        group.lock.lock();
        try {
            if (!acceptJoiningMember(group, memberId)) {
                GroupMember existing = group.get(memberId);
                if (existing != null) {
                    rebalance.removeMemberAndUpdateGroup(group, existing, "group.max.size reached");
                }
                response.complete(GroupResponses.joinError("", Errors.GROUP_MAX_SIZE_REACHED, version));
            } else if (unknownMember) {
                newMemberJoin(group, params);
            } else {
                currentMemberJoin(group, params);
            }
            if (group.is(GroupState.PREPARING_REBALANCE)) {
                rebalance.maybeCompleteJoin(group);
            }
        } finally {
            group.lock.unlock();
        }
    }

    /** Everything a JoinGroup request brings, validated. */
    private record JoinParams(
            String groupId,
            String memberId,
            String groupInstanceId,
            String clientId,
            String clientHost,
            String protocolType,
            LinkedHashMap<String, byte[]> protocols,
            int sessionTimeoutMs,
            int rebalanceTimeoutMs,
            short version,
            CompletableFuture<JoinGroupResponseData> response) {
        void fail(String memberId, Errors error) {
            response.complete(GroupResponses.joinError(memberId, error, version));
        }
    }

    private boolean acceptJoiningMember(ClassicGroup group, String memberId) {
        int max = rt.config.maxSize();
        switch (group.state) {
            case EMPTY:
            case DEAD:
                return true;
            case PREPARING_REBALANCE: {
                GroupMember member = group.get(memberId);
                return (member != null && member.isAwaitingJoin()) || group.membersAwaitingJoin < max;
            }
            default:
                return group.has(memberId) || group.members.size() < max;
        }
    }

    private void newMemberJoin(ClassicGroup group, JoinParams p) {
        if (group.is(GroupState.DEAD)) {
            p.fail(p.memberId, Errors.COORDINATOR_NOT_AVAILABLE);
            return;
        }
        if (!group.supportsProtocols(p.protocolType, p.protocols.keySet())) {
            p.fail(p.memberId, Errors.INCONSISTENT_GROUP_PROTOCOL);
            return;
        }
        String newMemberId = p.clientId + "-" + UUID.randomUUID();
        if (p.groupInstanceId != null) {
            String oldMemberId = group.staticMembers.get(p.groupInstanceId);
            if (oldMemberId != null) {
                LOG.info(
                        "Group {}: static member {} rejoins with a new member id in state {}; replacing {} by {}",
                        group.groupId,
                        p.groupInstanceId,
                        group.state.kafkaName(),
                        oldMemberId,
                        newMemberId);
                updateStaticMemberAndRebalance(group, oldMemberId, newMemberId, p);
            } else {
                addMemberAndRebalance(group, newMemberId, p);
            }
        } else if (p.version >= JOIN_REQUIRES_KNOWN_MEMBER_ID_VERSION) {
            if (group.pendingMembers.size() >= rt.config.maxSize()) {
                p.fail("", Errors.GROUP_MAX_SIZE_REACHED);
                return;
            }
            group.pendingMembers.put(
                    newMemberId,
                    rt.schedule(
                            "pending member expiry",
                            () -> rebalance.expirePendingMember(group, newMemberId),
                            p.sessionTimeoutMs));
            p.fail(newMemberId, Errors.MEMBER_ID_REQUIRED);
        } else {
            addMemberAndRebalance(group, newMemberId, p);
        }
    }

    private void currentMemberJoin(ClassicGroup group, JoinParams p) {
        if (group.is(GroupState.DEAD)) {
            p.fail(p.memberId, Errors.COORDINATOR_NOT_AVAILABLE);
            return;
        }
        if (!group.supportsProtocols(p.protocolType, p.protocols.keySet())) {
            p.fail(p.memberId, Errors.INCONSISTENT_GROUP_PROTOCOL);
            return;
        }
        if (group.isPendingMember(p.memberId)) {
            if (p.groupInstanceId != null) {
                // Static members never get MEMBER_ID_REQUIRED, so a pending id presented with an instance id is forged.
                p.fail(p.memberId, Errors.UNKNOWN_MEMBER_ID);
                return;
            }
            var timer = group.pendingMembers.remove(p.memberId);
            if (timer != null) {
                timer.cancel(false);
            }
            addMemberAndRebalance(group, p.memberId, p);
            return;
        }
        if (group.isStaticMemberFenced(p.groupInstanceId, p.memberId)) {
            p.fail(p.memberId, Errors.FENCED_INSTANCE_ID);
            return;
        }
        GroupMember member = group.get(p.memberId);
        boolean instanceIdNotFound = p.groupInstanceId != null && !group.staticMembers.containsKey(p.groupInstanceId);
        if (member == null || instanceIdNotFound) {
            p.fail(p.memberId, Errors.UNKNOWN_MEMBER_ID);
            return;
        }
        switch (group.state) {
            case PREPARING_REBALANCE:
                updateMemberAndRebalance(group, member, p, "member " + p.memberId + " rejoined");
                break;
            case COMPLETING_REBALANCE:
                if (member.hasSameProtocols(p.protocols)) {
                    // The member lost its JoinGroup response: repeat it for the current generation.
                    p.response.complete(GroupResponses.joinResult(
                            group, p.memberId, group.leaderId, group.isLeader(p.memberId), p.version));
                } else {
                    updateMemberAndRebalance(group, member, p, "member " + p.memberId + " changed its metadata");
                }
                break;
            case STABLE:
                if (group.isLeader(p.memberId)) {
                    updateMemberAndRebalance(group, member, p, "leader " + p.memberId + " rejoined");
                } else if (!member.hasSameProtocols(p.protocols)) {
                    updateMemberAndRebalance(group, member, p, "member " + p.memberId + " changed its metadata");
                } else {
                    p.response.complete(GroupResponses.joinResult(group, p.memberId, group.leaderId, false, p.version));
                }
                break;
            default:
                LOG.warn(
                        "Group {}: member {} joins while the group is {}; telling it to rejoin as new",
                        group.groupId,
                        p.memberId,
                        group.state.kafkaName());
                p.fail(p.memberId, Errors.UNKNOWN_MEMBER_ID);
        }
    }

    private void addMemberAndRebalance(ClassicGroup group, String memberId, JoinParams p) {
        GroupMember member = new GroupMember(
                memberId,
                p.groupInstanceId,
                p.clientId,
                p.clientHost,
                p.protocolType,
                p.rebalanceTimeoutMs,
                p.sessionTimeoutMs,
                p.protocols);
        member.awaitingJoin = p.response;
        member.awaitingJoinVersion = p.version;
        if (group.is(GroupState.PREPARING_REBALANCE) && group.generationId == 0) {
            group.newMemberAdded = true;
        }
        group.add(member);
        rebalance.scheduleHeartbeat(group, member);
        rebalance.maybePrepareRebalance(group, "member " + memberId + " joined");
    }

    private void updateMemberAndRebalance(ClassicGroup group, GroupMember member, JoinParams p, String reason) {
        group.updateProtocols(member, p.protocols);
        member.rebalanceTimeoutMs = p.rebalanceTimeoutMs;
        member.sessionTimeoutMs = p.sessionTimeoutMs;
        if (member.isAwaitingJoin()) {
            member.awaitingJoin.complete(GroupResponses.joinError(
                    member.memberId, Errors.REBALANCE_IN_PROGRESS, member.awaitingJoinVersion));
        }
        group.setAwaitingJoin(member, p.response, p.version);
        rebalance.maybePrepareRebalance(group, reason);
    }

    private void updateStaticMemberAndRebalance(
            ClassicGroup group, String oldMemberId, String newMemberId, JoinParams p) {
        String currentLeader = group.leaderId;
        GroupMember replacement = new GroupMember(
                newMemberId,
                p.groupInstanceId,
                p.clientId,
                p.clientHost,
                p.protocolType,
                p.rebalanceTimeoutMs,
                p.sessionTimeoutMs,
                p.protocols);
        GroupMember old = group.replaceStaticMember(p.groupInstanceId, oldMemberId, replacement);
        fence(old);
        rebalance.scheduleHeartbeat(group, replacement);
        switch (group.state) {
            case STABLE: {
                String nextProtocol = group.selectProtocol();
                if (nextProtocol.equals(group.protocolName)) {
                    CompletableFuture<Void> write;
                    try {
                        write = rt.persistGroup(group, null);
                    } catch (IOException e) {
                        revertStaticMember(group, p, old, replacement, e);
                        return;
                    }
                    rt.whenDurable(group, write, failure -> {
                        if (failure != null) {
                            revertStaticMember(group, p, old, replacement, failure);
                        } else {
                            // The old leader id is returned so the current leader does not run a pointless assignment.
                            p.response.complete(GroupResponses.joinResult(
                                    group, replacement.memberId, currentLeader, false, p.version));
                        }
                    });
                } else {
                    group.setAwaitingJoin(replacement, p.response, p.version);
                    rebalance.maybePrepareRebalance(
                            group, "static member " + p.groupInstanceId + " changed the group protocol");
                }
                break;
            }
            case COMPLETING_REBALANCE:
                group.setAwaitingJoin(replacement, p.response, p.version);
                rebalance.prepareRebalance(
                        group, "static member " + p.groupInstanceId + " rejoined during CompletingRebalance");
                break;
            case PREPARING_REBALANCE:
                group.setAwaitingJoin(replacement, p.response, p.version);
                break;
            default:
                throw new IllegalStateException("group " + group.groupId + " has static member " + p.groupInstanceId
                        + " while " + group.state.kafkaName());
        }
    }

    /** The replaced static member could not be stored: the old member comes back (if nothing replaced it since). */
    private void revertStaticMember(
            ClassicGroup group, JoinParams p, GroupMember old, GroupMember replacement, Throwable failure) {
        Errors error = CoordinatorRuntime.groupWriteError(failure);
        LOG.error(
                "Group {}: cannot store the replaced static member {} ({}); reverting",
                group.groupId,
                p.groupInstanceId,
                failure.toString());
        if (group.get(replacement.memberId) == replacement && !group.is(GroupState.DEAD)) {
            replacement.cancelHeartbeat();
            group.replaceStaticMember(p.groupInstanceId, replacement.memberId, old);
            old.awaitingJoin = null;
            old.awaitingSync = null;
            rebalance.scheduleHeartbeat(group, old);
        }
        p.fail(replacement.memberId, error);
    }

    private void fence(GroupMember old) {
        if (old.awaitingJoin != null) {
            old.awaitingJoin.complete(
                    GroupResponses.joinError(old.memberId, Errors.FENCED_INSTANCE_ID, old.awaitingJoinVersion));
            old.awaitingJoin = null;
        }
        if (old.awaitingSync != null) {
            old.awaitingSync.complete(GroupResponses.syncError(Errors.FENCED_INSTANCE_ID));
            old.awaitingSync = null;
        }
    }
}
