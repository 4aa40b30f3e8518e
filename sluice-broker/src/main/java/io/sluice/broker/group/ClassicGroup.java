package io.sluice.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.JoinGroupResponseData;

/**
 * State of one classic group: its state machine position, generation, members, pending members and committed
 * offsets, with the bookkeeping Kafka's GroupMetadata keeps (protocol votes, members awaiting join).
 * Not thread-safe; every access holds {@link #lock}.
 */
final class ClassicGroup {
    final String groupId;
    final ReentrantLock lock = new ReentrantLock();

    GroupState state;
    long stateTimestampMs;
    String protocolType;
    String protocolName;
    int generationId;
    String leaderId;
    /** Topics the members subscribe to, when every member's subscription could be read; null if unknown. */
    Set<String> subscribedTopics;

    final LinkedHashMap<String, GroupMember> members = new LinkedHashMap<>();
    final Map<String, String> staticMembers = new HashMap<>();
    /** Member ids handed out with MEMBER_ID_REQUIRED that have not joined yet, with their expiry timers. */
    final Map<String, ScheduledFuture<?>> pendingMembers = new HashMap<>();
    /** Members of the current generation that have not sent SyncGroup yet. */
    final Set<String> pendingSyncMembers = new HashSet<>();

    private final Map<String, Integer> protocolSupport = new HashMap<>();
    int membersAwaitingJoin;
    /** Set when a member joins during the initial rebalance delay, which then extends the delay. */
    boolean newMemberAdded;

    boolean initialDelayActive;
    int initialDelayRemainingMs;
    /** Incremented whenever the join timer is replaced or cancelled, so a superseded timer does nothing. */
    long joinTimerEpoch;
    /** Same for the pending-sync timer. */
    long syncTimerEpoch;

    ScheduledFuture<?> joinTimer;
    ScheduledFuture<?> syncTimer;

    final Map<TopicPartition, CommittedOffset> offsets = new HashMap<>();

    ClassicGroup(String groupId, GroupState state, long nowMs) {
        this.groupId = groupId;
        this.state = state;
        this.stateTimestampMs = nowMs;
    }

    void transitionTo(GroupState next, long nowMs) {
        state = next;
        stateTimestampMs = nowMs;
    }

    boolean is(GroupState s) {
        return state == s;
    }

    boolean has(String memberId) {
        return members.containsKey(memberId);
    }

    GroupMember get(String memberId) {
        return members.get(memberId);
    }

    boolean isLeader(String memberId) {
        return memberId.equals(leaderId);
    }

    boolean isPendingMember(String memberId) {
        return pendingMembers.containsKey(memberId);
    }

    /** Kafka's fencing rule: a known instance id presented with another member id than the current one. */
    boolean isStaticMemberFenced(String groupInstanceId, String memberId) {
        if (groupInstanceId == null) {
            return false;
        }
        String current = staticMembers.get(groupInstanceId);
        return current != null && !current.equals(memberId);
    }

    void add(GroupMember member) {
        if (members.isEmpty()) {
            protocolType = member.protocolType;
        }
        members.put(member.memberId, member);
        for (String protocol : member.protocols.keySet()) {
            protocolSupport.merge(protocol, 1, Integer::sum);
        }
        if (member.isStatic()) {
            staticMembers.put(member.groupInstanceId, member.memberId);
        }
        if (member.isAwaitingJoin()) {
            membersAwaitingJoin++;
        }
        if (leaderId == null) {
            leaderId = member.memberId;
        }
    }

    GroupMember remove(String memberId) {
        GroupMember member = members.remove(memberId);
        if (member == null) {
            return null;
        }
        for (String protocol : member.protocols.keySet()) {
            protocolSupport.merge(protocol, -1, Integer::sum);
        }
        if (member.isStatic() && memberId.equals(staticMembers.get(member.groupInstanceId))) {
            staticMembers.remove(member.groupInstanceId);
        }
        if (member.isAwaitingJoin()) {
            membersAwaitingJoin--;
        }
        pendingSyncMembers.remove(memberId);
        if (memberId.equals(leaderId)) {
            leaderId = members.isEmpty() ? null : members.keySet().iterator().next();
        }
        member.cancelHeartbeat();
        return member;
    }

    /** Replaces the protocols a member supports, keeping the vote counts right. */
    void updateProtocols(GroupMember member, LinkedHashMap<String, byte[]> protocols) {
        for (String protocol : member.protocols.keySet()) {
            protocolSupport.merge(protocol, -1, Integer::sum);
        }
        for (String protocol : protocols.keySet()) {
            protocolSupport.merge(protocol, 1, Integer::sum);
        }
        member.protocols = protocols;
    }

    void setAwaitingJoin(GroupMember member, CompletableFuture<JoinGroupResponseData> future, short version) {
        if (future != null && !member.isAwaitingJoin()) {
            membersAwaitingJoin++;
        } else if (future == null && member.isAwaitingJoin()) {
            membersAwaitingJoin--;
        }
        member.awaitingJoin = future;
        member.awaitingJoinVersion = version;
    }

    /** Moves a static member's identity to a new member id (Kafka's replaceStaticMember); returns the member. */
    GroupMember replaceStaticMember(String groupInstanceId, String oldMemberId, GroupMember replacement) {
        GroupMember old = members.remove(oldMemberId);
        if (old == null) {
            throw new IllegalStateException(
                    "static member " + groupInstanceId + " maps to unknown member " + oldMemberId);
        }
        for (String protocol : old.protocols.keySet()) {
            protocolSupport.merge(protocol, -1, Integer::sum);
        }
        if (old.isAwaitingJoin()) {
            membersAwaitingJoin--;
        }
        old.cancelHeartbeat();
        boolean wasPendingSync = pendingSyncMembers.remove(oldMemberId);
        replacement.assignment = old.assignment;
        members.put(replacement.memberId, replacement);
        for (String protocol : replacement.protocols.keySet()) {
            protocolSupport.merge(protocol, 1, Integer::sum);
        }
        if (replacement.isAwaitingJoin()) {
            membersAwaitingJoin++;
        }
        staticMembers.put(groupInstanceId, replacement.memberId);
        if (wasPendingSync) {
            pendingSyncMembers.add(replacement.memberId);
        }
        if (oldMemberId.equals(leaderId)) {
            leaderId = replacement.memberId;
        }
        return old;
    }

    /** Kafka's supportsProtocols: an empty group takes any non-empty protocol set of a non-empty type. */
    boolean supportsProtocols(String memberProtocolType, Set<String> memberProtocols) {
        if (members.isEmpty()) {
            return memberProtocolType != null && !memberProtocolType.isEmpty() && !memberProtocols.isEmpty();
        }
        if (memberProtocolType == null || !memberProtocolType.equals(protocolType)) {
            return false;
        }
        for (String protocol : memberProtocols) {
            if (protocolSupport.getOrDefault(protocol, 0) == members.size()) {
                return true;
            }
        }
        return false;
    }

    /** Protocols every member supports. */
    List<String> candidateProtocols() {
        List<String> candidates = new ArrayList<>();
        for (Map.Entry<String, Integer> e : protocolSupport.entrySet()) {
            if (e.getValue() == members.size()) {
                candidates.add(e.getKey());
            }
        }
        return candidates;
    }

    /** Kafka's selectProtocol: each member votes for its preferred candidate, the most votes win. */
    String selectProtocol() {
        List<String> candidates = candidateProtocols();
        Map<String, Integer> votes = new LinkedHashMap<>();
        for (GroupMember member : members.values()) {
            votes.merge(member.vote(candidates), 1, Integer::sum);
        }
        String best = null;
        int bestVotes = -1;
        for (Map.Entry<String, Integer> e : votes.entrySet()) {
            if (e.getValue() > bestVotes) {
                best = e.getKey();
                bestVotes = e.getValue();
            }
        }
        return best;
    }

    boolean hasAllMembersJoined() {
        return members.size() == membersAwaitingJoin && pendingMembers.isEmpty();
    }

    /** Kafka's maybeElectNewJoinedLeader: keeps a joined leader or picks any joined member. */
    boolean maybeElectNewJoinedLeader() {
        if (leaderId == null) {
            return false;
        }
        GroupMember leader = members.get(leaderId);
        if (leader != null && leader.isAwaitingJoin()) {
            return true;
        }
        for (GroupMember member : members.values()) {
            if (member.isAwaitingJoin()) {
                leaderId = member.memberId;
                return true;
            }
        }
        return false;
    }

    /** Largest rebalance timeout among members; Kafka's bound on a rebalance. */
    int rebalanceTimeoutMs() {
        int max = 0;
        for (GroupMember member : members.values()) {
            max = Math.max(max, member.rebalanceTimeoutMs);
        }
        return max;
    }

    /** True if no member subscribes to {@code topic}; unknown subscriptions count as subscribed. */
    boolean isSubscribedTo(String topic) {
        return subscribedTopics == null || subscribedTopics.contains(topic);
    }

    void cancelJoinTimer() {
        joinTimerEpoch++;
        if (joinTimer != null) {
            joinTimer.cancel(false);
            joinTimer = null;
        }
    }

    void cancelSyncTimer() {
        syncTimerEpoch++;
        if (syncTimer != null) {
            syncTimer.cancel(false);
            syncTimer = null;
        }
    }
}
