package io.sluice.broker.replica;

import io.sluice.broker.config.ReplicationThrottles;
import io.sluice.broker.move.ByteRateLimiter;
import io.sluice.broker.topic.Partition;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Kafka's replication throttles (KIP-73) enforced on this broker, for the partitions the topic keys
 * {@code leader/follower.replication.throttled.replicas} name: as follower, the fetcher leaves a throttled partition
 * out of its next fetch while the follower quota ({@code follower.replication.throttled.rate}) is used up; as
 * leader, a follower fetch of a throttled partition from a follower outside the ISR gets no records while the leader
 * quota ({@code leader.replication.throttled.rate}) is used up (followers in sync are never held back, as in Kafka);
 * a partition move is paced by the same two quotas, the source by the leader's and the target by the follower's.
 * Every byte of reassignment traffic that passes here (to or from an adding replica) is counted in
 * {@link ReassignmentTraffic}.
 *
 * <p>Thread-safe: the throttle view is replaced as a whole on each cluster state, the quotas are synchronized.
 */
public final class ReplicationThrottling {
    private final int selfId;
    private final ReplicationThrottles throttles;
    private final ReplicationQuota leaderQuota;
    private final ReplicationQuota followerQuota;
    private final ReassignmentTraffic reassignmentTraffic = new ReassignmentTraffic();

    public ReplicationThrottling(int selfId, ReplicationThrottles throttles) {
        this.selfId = selfId;
        this.throttles = throttles;
        this.leaderQuota = new ReplicationQuota(throttles::leaderRate);
        this.followerQuota = new ReplicationQuota(throttles::followerRate);
    }

    private boolean followerThrottled(String topic, int partition) {
        return throttles.isFollowerThrottled(topic, partition, selfId);
    }

    private boolean leaderThrottled(String topic, int partition) {
        return throttles.isLeaderThrottled(topic, partition, selfId);
    }

    /** Whether the fetcher leaves {@code partition} out of its next fetch. */
    public boolean holdsFollowerFetch(Partition partition) {
        return followerThrottled(partition.topic().name(), partition.index()) && followerQuota.isExceeded();
    }

    /** The bytes moved for reassignments through this broker. */
    public ReassignmentTraffic reassignmentTraffic() {
        return reassignmentTraffic;
    }

    /** Counts {@code bytes} fetched for {@code partition}. */
    public void followerFetched(Partition partition, long bytes) {
        if (bytes <= 0) {
            return;
        }
        if (followerThrottled(partition.topic().name(), partition.index())) {
            followerQuota.record(bytes);
        }
        if (partition.assignment().isAdding(selfId)) {
            reassignmentTraffic.received(bytes);
        }
    }

    /** Whether the leader answers follower {@code replicaId}'s fetch of {@code partition} without records. */
    public boolean holdsLeaderAnswer(Partition partition, int replicaId) {
        return throttledFollower(partition, replicaId) && leaderQuota.isExceeded();
    }

    /** Counts {@code bytes} the leader sent follower {@code replicaId} for {@code partition}. */
    public void leaderSent(Partition partition, int replicaId, long bytes) {
        if (bytes <= 0) {
            return;
        }
        if (throttledFollower(partition, replicaId)) {
            leaderQuota.record(bytes);
        }
        if (partition.assignment().isAdding(replicaId)) {
            reassignmentTraffic.sent(bytes);
        }
    }

    private boolean throttledFollower(Partition partition, int replicaId) {
        if (!leaderThrottled(partition.topic().name(), partition.index())) {
            return false;
        }
        LeaderState leader = partition.leaderState();
        return leader != null && !leader.inIsr(replicaId);
    }

    /**
     * The pace of a move's chunks received for {@code partition}: throttled or not as the keys say at each chunk, and
     * reporting the rate in force, by which the target sizes the chunks it asks for.
     */
    public ByteRateLimiter moveReceiveLimiter(Partition partition) {
        String topic = partition.topic().name();
        int index = partition.index();
        return new KeyedMoveLimiter(
                () -> followerThrottled(topic, index), followerQuota, reassignmentTraffic::received);
    }

    /**
     * The pace of a move's chunks sent for {@code topic}-{@code partition}: throttled as the keys say at each chunk, and
     * reporting the rate in force, by which the source cuts its chunks to a second of the throttle.
     */
    public ByteRateLimiter moveSendLimiter(String topic, int partition) {
        return new KeyedMoveLimiter(() -> leaderThrottled(topic, partition), leaderQuota, reassignmentTraffic::sent);
    }

    /**
     * A move's pace for one partition: every byte counted as reassignment traffic, and held to {@code quota} while
     * {@code throttled} says the throttle keys name the partition (asked at each chunk, so changes apply live);
     * unlimited otherwise. Thread-safe as its parts are.
     */
    private record KeyedMoveLimiter(BooleanSupplier throttled, ReplicationQuota quota, LongConsumer traffic)
            implements ByteRateLimiter {
        @Override
        public long reserveNanos(long bytes) {
            traffic.accept(bytes);
            return throttled.getAsBoolean() ? quota.reserveNanos(bytes) : 0L;
        }

        @Override
        public long bytesPerSecond() {
            return throttled.getAsBoolean() ? quota.bytesPerSecond() : Long.MAX_VALUE;
        }
    }
}
