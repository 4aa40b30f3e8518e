package io.sluice.broker.group;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;

/**
 * One member of a classic group: identity, timeouts, supported protocols in preference order, current
 * assignment, and the JoinGroup/SyncGroup responses it is waiting for. Not thread-safe; guarded by its group's lock.
 */
final class GroupMember {
    final String memberId;
    final String groupInstanceId;
    final String clientId;
    final String clientHost;
    final String protocolType;
    int rebalanceTimeoutMs;
    int sessionTimeoutMs;
    /** Protocol name to metadata, in the member's order of preference. */
    LinkedHashMap<String, byte[]> protocols;

    byte[] assignment = new byte[0];

    CompletableFuture<JoinGroupResponseData> awaitingJoin;
    short awaitingJoinVersion;
    CompletableFuture<SyncGroupResponseData> awaitingSync;
    short awaitingSyncVersion;
    /** The member's one session timer, or null while none is armed. */
    ScheduledFuture<?> heartbeatTimer;

    long heartbeatTimerDueMs;
    /** When the member is expelled unless it shows signs of life (heartbeat, join, sync, commit) before. */
    long heartbeatDeadlineMs;

    GroupMember(
            String memberId,
            String groupInstanceId,
            String clientId,
            String clientHost,
            String protocolType,
            int rebalanceTimeoutMs,
            int sessionTimeoutMs,
            LinkedHashMap<String, byte[]> protocols) {
        this.memberId = memberId;
        this.groupInstanceId = groupInstanceId;
        this.clientId = clientId;
        this.clientHost = clientHost;
        this.protocolType = protocolType;
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.protocols = protocols;
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    boolean isAwaitingJoin() {
        return awaitingJoin != null;
    }

    boolean isAwaitingSync() {
        return awaitingSync != null;
    }

    /** Metadata for {@code protocol}, or an empty array if this member does not support it. */
    byte[] metadataFor(String protocol) {
        byte[] metadata = protocol == null ? null : protocols.get(protocol);
        return metadata == null ? new byte[0] : metadata;
    }

    /** True if the member rejoins with exactly the protocols and metadata it already has. */
    boolean hasSameProtocols(Map<String, byte[]> other) {
        if (other.size() != protocols.size()) {
            return false;
        }
        var mine = protocols.entrySet().iterator();
        var theirs = other.entrySet().iterator();
        while (mine.hasNext()) {
            var a = mine.next();
            var b = theirs.next();
            if (!a.getKey().equals(b.getKey()) || !Arrays.equals(a.getValue(), b.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** Kafka's vote: this member's most preferred protocol among the candidates. */
    String vote(Iterable<String> candidates) {
        for (String protocol : protocols.keySet()) {
            for (String candidate : candidates) {
                if (candidate.equals(protocol)) {
                    return protocol;
                }
            }
        }
        throw new IllegalStateException(
                "member " + memberId + " supports none of the candidate protocols " + candidates);
    }

    void cancelHeartbeat() {
        if (heartbeatTimer != null) {
            heartbeatTimer.cancel(false);
            heartbeatTimer = null;
        }
    }
}
