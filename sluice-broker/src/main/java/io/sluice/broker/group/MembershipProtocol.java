package io.sluice.broker.group;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
 * and timers: the initial rebalance delay, the rebalance timeout, session timeouts, pending members
 * (MEMBER_ID_REQUIRED) and pending syncs. Thread-safe: every group is touched only under its lock; timers take
 * the same lock. Response futures complete while the group's lock is held, so their dependents must not block.
 */
final class MembershipProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(MembershipProtocol.class);
    /** JoinGroup v4 and later must rejoin with the member id the coordinator hands out (KIP-394). */
    private static final short JOIN_REQUIRES_KNOWN_MEMBER_ID_VERSION = 4;
    /** LeaveGroup v3 and later carry a list of members. */
    private static final short LEAVE_BATCH_VERSION = 3;

    private final CoordinatorRuntime rt;

    MembershipProtocol(CoordinatorRuntime rt) {
        this.rt = rt;
    }

    // ---------------------------------------------------------------- JoinGroup

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
                                + "group.member.metadata.max.bytes={}",
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
                    removeMemberAndUpdateGroup(group, existing, "group.max.size reached");
                }
                response.complete(GroupResponses.joinError("", Errors.GROUP_MAX_SIZE_REACHED, version));
            } else if (unknownMember) {
                newMemberJoin(group, params);
            } else {
                currentMemberJoin(group, params);
            }
            if (group.is(GroupState.PREPARING_REBALANCE)) {
                maybeCompleteJoin(group);
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
                            () -> expirePendingMember(group, newMemberId),
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
        scheduleHeartbeat(group, member);
        maybePrepareRebalance(group, "member " + memberId + " joined");
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
        maybePrepareRebalance(group, reason);
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
        scheduleHeartbeat(group, replacement);
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
                    maybePrepareRebalance(group, "static member " + p.groupInstanceId + " changed the group protocol");
                }
                break;
            }
            case COMPLETING_REBALANCE:
                group.setAwaitingJoin(replacement, p.response, p.version);
                prepareRebalance(group, "static member " + p.groupInstanceId + " rejoined during CompletingRebalance");
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
            scheduleHeartbeat(group, old);
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

    private void maybePrepareRebalance(ClassicGroup group, String reason) {
        if (group.is(GroupState.STABLE) || group.is(GroupState.COMPLETING_REBALANCE) || group.is(GroupState.EMPTY)) {
            prepareRebalance(group, reason);
        }
    }

    private void prepareRebalance(ClassicGroup group, String reason) {
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

    private void maybeCompleteJoin(ClassicGroup group) {
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

    // ---------------------------------------------------------------- SyncGroup

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
                    scheduleHeartbeat(group, member);
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
                        "Group {}: leader assigned {} bytes to member {}, above group.member.metadata.max.bytes={}",
                        group.groupId,
                        bytes.length,
                        a.memberId(),
                        rt.config.memberMetadataMaxBytes());
                resetAndPropagateAssignmentError(group, Errors.INVALID_REQUEST);
                maybePrepareRebalance(group, "oversized assignment from the leader");
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
        resetAndPropagateAssignmentError(group, CoordinatorRuntime.groupWriteError(failure));
        maybePrepareRebalance(group, "the assignment could not be stored");
    }

    private void propagateAssignment(ClassicGroup group, Map<String, byte[]> assignments) {
        for (GroupMember member : group.members.values()) {
            member.assignment = assignments.getOrDefault(member.memberId, new byte[0]);
            if (member.awaitingSync != null) {
                member.awaitingSync.complete(
                        GroupResponses.syncResult(group, member.assignment, member.awaitingSyncVersion));
                member.awaitingSync = null;
            }
            scheduleHeartbeat(group, member);
        }
        group.transitionTo(GroupState.STABLE, rt.now());
        LOG.info("Group {}: generation {} is stable", group.groupId, group.generationId);
    }

    private void resetAndPropagateAssignmentError(ClassicGroup group, Errors error) {
        for (GroupMember member : group.members.values()) {
            member.assignment = new byte[0];
            if (member.awaitingSync != null) {
                member.awaitingSync.complete(GroupResponses.syncError(error));
                member.awaitingSync = null;
                scheduleHeartbeat(group, member);
            }
        }
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
                    scheduleHeartbeat(group, member);
                    return Errors.REBALANCE_IN_PROGRESS;
                default:
                    scheduleHeartbeat(group, member);
                    return Errors.NONE;
            }
        } finally {
            group.lock.unlock();
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

    private void expirePendingMember(ClassicGroup group, String memberId) {
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

    private void removeMemberAndUpdateGroup(ClassicGroup group, GroupMember member, String reason) {
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
            removeMemberAndUpdateGroup(group, group.get(current), reason);
            return Errors.NONE;
        }
        if (group.isPendingMember(memberId)) {
            var timer = group.pendingMembers.remove(memberId);
            if (timer != null) {
                timer.cancel(false);
            }
            maybeCompleteJoin(group);
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
        removeMemberAndUpdateGroup(group, member, reason);
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
