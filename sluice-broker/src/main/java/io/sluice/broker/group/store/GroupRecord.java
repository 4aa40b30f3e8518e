package io.sluice.broker.group.store;

import java.util.List;
import java.util.Objects;

/**
 * One durable fact about a consumer group, as appended to and reloaded from a {@link GroupStore}.
 * Each record has a compaction key: a later record with the same key replaces the earlier one, and a
 * tombstone removes it. Immutable; safe to share between threads.
 */
public sealed interface GroupRecord {

    /** The group this record belongs to. */
    String groupId();

    /** Key under which a later record of the same kind replaces this one. */
    RecordKey key();

    /** True if this record removes its key instead of setting it. */
    default boolean isTombstone() {
        return false;
    }

    /** Compaction key: the group, and for offsets the topic and partition. */
    record RecordKey(String groupId, String topic, int partition) {
        static RecordKey ofGroup(String groupId) {
            return new RecordKey(groupId, null, -1);
        }
    }

    /**
     * A committed offset. {@code metadata} may be null; {@code leaderEpoch} is -1 when unknown;
     * {@code expireTimestampMs} is -1 unless the client asked for an explicit retention (OffsetCommit v2-v4).
     */
    record OffsetCommit(
            String groupId,
            String topic,
            int partition,
            long offset,
            int leaderEpoch,
            String metadata,
            long commitTimestampMs,
            long expireTimestampMs)
            implements GroupRecord {
        public OffsetCommit {
            Objects.requireNonNull(groupId, "groupId");
            Objects.requireNonNull(topic, "topic");
        }

        @Override
        public RecordKey key() {
            return new RecordKey(groupId, topic, partition);
        }
    }

    /** Removes the committed offset of one partition. */
    record OffsetTombstone(String groupId, String topic, int partition) implements GroupRecord {
        public OffsetTombstone {
            Objects.requireNonNull(groupId, "groupId");
            Objects.requireNonNull(topic, "topic");
        }

        @Override
        public RecordKey key() {
            return new RecordKey(groupId, topic, partition);
        }

        @Override
        public boolean isTombstone() {
            return true;
        }
    }

    /**
     * The membership of a group at the end of a rebalance (or when it became empty).
     * {@code protocolType}, {@code protocolName} and {@code leaderId} may be null.
     */
    record GroupMetadata(
            String groupId,
            String protocolType,
            int generationId,
            String protocolName,
            String leaderId,
            long stateTimestampMs,
            List<Member> members)
            implements GroupRecord {
        public GroupMetadata {
            Objects.requireNonNull(groupId, "groupId");
            members = List.copyOf(members);
        }

        @Override
        public RecordKey key() {
            return RecordKey.ofGroup(groupId);
        }
    }

    /**
     * One member as stored: its metadata for the selected protocol and its assignment.
     * {@code groupInstanceId} is null for dynamic members. The byte arrays are not copied; callers must not
     * mutate them after handing them over.
     */
    record Member(
            String memberId,
            String groupInstanceId,
            String clientId,
            String clientHost,
            int rebalanceTimeoutMs,
            int sessionTimeoutMs,
            byte[] subscription,
            byte[] assignment) {
        public Member {
            Objects.requireNonNull(memberId, "memberId");
            Objects.requireNonNull(clientId, "clientId");
            Objects.requireNonNull(clientHost, "clientHost");
            Objects.requireNonNull(subscription, "subscription");
            Objects.requireNonNull(assignment, "assignment");
        }
    }

    /** Removes a group's metadata (the group was deleted or expired). */
    record GroupTombstone(String groupId) implements GroupRecord {
        public GroupTombstone {
            Objects.requireNonNull(groupId, "groupId");
        }

        @Override
        public RecordKey key() {
            return RecordKey.ofGroup(groupId);
        }

        @Override
        public boolean isTombstone() {
            return true;
        }
    }
}
