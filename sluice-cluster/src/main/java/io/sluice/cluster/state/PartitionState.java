package io.sluice.cluster.state;

import java.util.Arrays;

/**
 * One partition's assignment as the controller decided it. The arrays are never modified after construction
 * (every change makes a new instance). Immutable by contract; safe to share.
 *
 * @param replicas       replica broker ids, preferred leader first
 * @param leader         leader broker id, {@link #NO_LEADER} when offline
 * @param leaderEpoch    bumped on every leader change (also when the leader stays but is a new incarnation, and when
 *                       the partition goes offline)
 * @param isr            in-sync replica broker ids
 * @param partitionEpoch Kafka's partition epoch: bumped by every change of this partition (leader, leader epoch, ISR,
 *                       replicas), so an AlterPartition built on an older state is refused
 */
public record PartitionState(int[] replicas, int leader, int leaderEpoch, int[] isr, int partitionEpoch) {
    public static final int NO_LEADER = -1;

    /** A partition at partition epoch 0 (a new partition, or one read from a state that did not carry the epoch). */
    public PartitionState(int[] replicas, int leader, int leaderEpoch, int[] isr) {
        this(replicas, leader, leaderEpoch, isr, 0);
    }

    public boolean isOffline() {
        return leader == NO_LEADER;
    }

    public boolean hasReplica(int brokerId) {
        return contains(replicas, brokerId);
    }

    public boolean inIsr(int brokerId) {
        return contains(isr, brokerId);
    }

    /** The preferred replica (first assigned), the one leadership is balanced towards. */
    public int preferredReplica() {
        return replicas.length == 0 ? NO_LEADER : replicas[0];
    }

    /** A change of this partition: the given leader, leader epoch and ISR, under the next partition epoch. */
    public PartitionState withLeader(int newLeader, int newLeaderEpoch, int[] newIsr) {
        return new PartitionState(replicas, newLeader, newLeaderEpoch, newIsr, partitionEpoch + 1);
    }

    /** This partition with every leadership field as given (what a published change record says). */
    public PartitionState with(int newLeader, int newLeaderEpoch, int[] newIsr, int newPartitionEpoch) {
        return new PartitionState(replicas, newLeader, newLeaderEpoch, newIsr, newPartitionEpoch);
    }

    static boolean contains(int[] ids, int id) {
        for (int v : ids) {
            if (v == id) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionState p && leader == p.leader && leaderEpoch == p.leaderEpoch
                && partitionEpoch == p.partitionEpoch && Arrays.equals(replicas, p.replicas)
                && Arrays.equals(isr, p.isr);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * Arrays.hashCode(replicas) + leader) + leaderEpoch) + partitionEpoch;
    }

    @Override
    public String toString() {
        return "PartitionState{replicas=" + Arrays.toString(replicas) + ", leader=" + leader + ", leaderEpoch="
                + leaderEpoch + ", isr=" + Arrays.toString(isr) + ", partitionEpoch=" + partitionEpoch + "}";
    }
}
