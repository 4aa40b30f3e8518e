package io.sluice.broker.replica;

import static io.sluice.cluster.state.BrokerIds.contains;
import static io.sluice.cluster.state.BrokerIds.union;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A partition's replication state while this broker leads it in one leader epoch: every follower's progress, the
 * ISR the controller committed (with its partition epoch) and at most one ISR change in flight to the controller
 * (Kafka's AlterPartition). While a change is in flight the leader counts the larger of the two sets (Kafka's
 * "maximal ISR"): an added follower already counts for the high watermark and acks=all, a removed one still does
 * until the controller confirms, so neither direction can acknowledge what fewer replicas hold than promised.
 *
 * <p>Thread-safe: mutations and reads of the ISR are serialized on this object; follower offsets are volatile.
 */
public final class LeaderState {
    private final int selfId;
    private final int leaderEpoch;
    private final long epochStartOffset;
    private final Map<Integer, FollowerProgress> followers = new HashMap<>();
    private int[] isr;
    private int partitionEpoch;
    private int[] pendingIsr;

    /**
     * @param replicas         every replica of the partition, this broker included
     * @param epochStartOffset the log end offset when this leader epoch began: a follower rejoins the ISR only once
     *                         it has reached it (it then holds every batch of earlier epochs this leader kept)
     */
    public LeaderState(
            int selfId,
            int[] replicas,
            int[] isr,
            int leaderEpoch,
            int partitionEpoch,
            long epochStartOffset,
            long nowMs) {
        this.selfId = selfId;
        this.leaderEpoch = leaderEpoch;
        this.epochStartOffset = epochStartOffset;
        this.isr = isr.clone();
        this.partitionEpoch = partitionEpoch;
        for (int replica : replicas) {
            if (replica != selfId) {
                followers.put(replica, new FollowerProgress(replica, nowMs));
            }
        }
    }

    public int leaderEpoch() {
        return leaderEpoch;
    }

    public synchronized int partitionEpoch() {
        return partitionEpoch;
    }

    /** Whether {@code brokerId} is in the committed ISR; allocates nothing (the fetch path asks per partition). */
    public synchronized boolean inIsr(int brokerId) {
        return contains(isr, brokerId);
    }

    /** The ISR the controller committed. */
    public synchronized int[] isr() {
        return isr.clone();
    }

    /** The ISR counted for the high watermark and acks=all: the committed one joined with any change in flight. */
    public synchronized int[] maximalIsr() {
        return pendingIsr == null ? isr.clone() : union(isr, pendingIsr);
    }

    /** The size of the committed ISR; allocates nothing (the produce path asks per partition). */
    public synchronized int committedIsrSize() {
        return isr.length;
    }

    public synchronized int maximalIsrSize() {
        return pendingIsr == null ? isr.length : union(isr, pendingIsr).length;
    }

    public synchronized boolean hasPendingChange() {
        return pendingIsr != null;
    }

    /** Whether {@code brokerId} is one of the partition's followers (a replica other than this leader). */
    public boolean isFollower(int brokerId) {
        return followers.containsKey(brokerId);
    }

    public FollowerProgress follower(int brokerId) {
        return followers.get(brokerId);
    }

    /**
     * Kafka's low watermark (Partition.lowWatermarkIfLeader): the lowest log start offset among this leader's and its
     * live followers' ({@link FollowerProgress#UNKNOWN_OFFSET} while a live follower has not fetched in this epoch).
     */
    public long lowWatermark(long leaderLogStart, java.util.function.IntPredicate live) {
        long low = leaderLogStart;
        for (FollowerProgress f : followers.values()) {
            if (live.test(f.brokerId())) {
                low = Math.min(low, f.logStartOffset());
            }
        }
        return low;
    }

    /**
     * Records a follower's fetch. Returns the ISR to propose (the change in flight itself, which names it to
     * {@link #abandonPending}: not to be modified) when the follower is out of the ISR and has caught up
     * to the high watermark and this epoch's start (Kafka's expansion rule), else null.
     */
    public int[] onFollowerFetch(int brokerId, long fetchOffset, long leaderEndOffset, long highWatermark, long nowMs) {
        return onFollowerFetch(brokerId, fetchOffset, leaderEndOffset, highWatermark, nowMs, true);
    }

    /**
     * {@link #onFollowerFetch(int, long, long, long, long)} for a follower that may not be eligible for the ISR
     * ({@code eligible} false: its broker is not live in the cluster state or is in controlled shutdown, so the
     * controller would refuse it as INELIGIBLE_REPLICA, as KIP-841 has Kafka's leaders check first): its progress is
     * recorded, nothing proposed.
     */
    public synchronized int[] onFollowerFetch(
            int brokerId, long fetchOffset, long leaderEndOffset, long highWatermark, long nowMs, boolean eligible) {
        FollowerProgress progress = followers.get(brokerId);
        if (progress == null) {
            return null;
        }
        progress.onFetch(fetchOffset, leaderEndOffset, nowMs);
        if (!eligible || pendingIsr != null || contains(isr, brokerId)) {
            return null;
        }
        if (fetchOffset >= highWatermark && fetchOffset >= epochStartOffset) {
            int[] proposed = Arrays.copyOf(isr, isr.length + 1);
            proposed[isr.length] = brokerId;
            pendingIsr = proposed;
            return proposed;
        }
        return null;
    }

    /**
     * Returns the ISR without the followers that have not been caught up for {@code lagMs} (Kafka's
     * replica.lag.time.max.ms), recording it as the change in flight (the array returned is that change, which names
     * it to {@link #abandonPending}: not to be modified); null when every ISR member keeps up or a change
     * is already in flight. The leader itself never leaves.
     */
    public synchronized int[] proposeShrink(long nowMs, long lagMs) {
        if (pendingIsr != null) {
            return null;
        }
        int[] kept = new int[isr.length];
        int n = 0;
        for (int id : isr) {
            FollowerProgress progress = followers.get(id);
            if (id == selfId || progress == null || nowMs - progress.lastCaughtUpMs() <= lagMs) {
                kept[n++] = id;
            }
        }
        if (n == isr.length) {
            return null;
        }
        pendingIsr = Arrays.copyOf(kept, n);
        return pendingIsr;
    }

    /**
     * Takes an ISR the controller committed (from an AlterPartition answer or the published cluster state) when it is
     * newer than the one held; the change in flight ends either way once a newer epoch is seen.
     *
     * @return whether the ISR was replaced
     */
    public synchronized boolean commit(int[] committedIsr, int committedPartitionEpoch) {
        if (committedPartitionEpoch <= partitionEpoch) {
            return false;
        }
        isr = committedIsr.clone();
        partitionEpoch = committedPartitionEpoch;
        pendingIsr = null;
        return true;
    }

    /**
     * Forgets the change in flight when it is {@code proposedIsr} (the array {@link #onFollowerFetch} or
     * {@link #proposeShrink} returned): the controller refused it, or the published state committed it before its
     * answer came. A later change in flight is kept: its own answer ends it.
     *
     * @return whether it was the change in flight
     */
    public synchronized boolean abandonPending(int[] proposedIsr) {
        if (pendingIsr != proposedIsr) {
            return false;
        }
        pendingIsr = null;
        return true;
    }

    /**
     * The partition epoch {@code proposedIsr} was computed against, while it is still the change in flight (the array
     * {@link #onFollowerFetch} or {@link #proposeShrink} returned); -1 once it is not: a newer committed ISR replaced
     * it, or it was abandoned. An ISR change is sent with this epoch, so the controller fences a proposal made against
     * an ISR that has changed since (a committed change always ends the change in flight, so the epoch held while it
     * is in flight is the one it was computed against).
     */
    public synchronized int pendingBaseEpoch(int[] proposedIsr) {
        return pendingIsr == proposedIsr ? partitionEpoch : -1;
    }

    /**
     * The high watermark the ISR supports: the smallest log end offset among the maximal ISR, this leader's being
     * {@code leaderEndOffset}. A member that has not fetched yet holds it at {@link FollowerProgress#UNKNOWN_OFFSET}.
     */
    public synchronized long highWatermarkCandidate(long leaderEndOffset) {
        long min = leaderEndOffset;
        int[] members = pendingIsr == null ? isr : union(isr, pendingIsr);
        for (int id : members) {
            if (id == selfId) {
                continue;
            }
            FollowerProgress progress = followers.get(id);
            long end = progress == null ? FollowerProgress.UNKNOWN_OFFSET : progress.logEndOffset();
            min = Math.min(min, end);
        }
        return min;
    }
}
