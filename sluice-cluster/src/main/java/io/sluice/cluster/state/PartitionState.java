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
 * @param addingReplicas   replicas a reassignment (KIP-455) adds: already in {@code replicas}, not yet in the ISR;
 *                         empty when no reassignment is in progress
 * @param removingReplicas replicas a reassignment removes once every adding replica is in sync: still in
 *                         {@code replicas}; empty when no reassignment is in progress
 */
public record PartitionState(
        int[] replicas,
        int leader,
        int leaderEpoch,
        int[] isr,
        int partitionEpoch,
        int[] addingReplicas,
        int[] removingReplicas) {
    public static final int NO_LEADER = -1;
    private static final int[] NONE = new int[0];

    /** A partition with no reassignment in progress. */
    public PartitionState(int[] replicas, int leader, int leaderEpoch, int[] isr, int partitionEpoch) {
        this(replicas, leader, leaderEpoch, isr, partitionEpoch, NONE, NONE);
    }

    /** A partition at partition epoch 0 (a new partition, or one read from a state that did not carry the epoch). */
    public PartitionState(int[] replicas, int leader, int leaderEpoch, int[] isr) {
        this(replicas, leader, leaderEpoch, isr, 0);
    }

    /** Whether a reassignment is in progress (some replica being added or removed). */
    public boolean isReassigning() {
        return addingReplicas.length > 0 || removingReplicas.length > 0;
    }

    /** The replica set a reassignment in progress ends with: the replicas without the removing ones. */
    public int[] targetReplicas() {
        return removingReplicas.length == 0 ? replicas : BrokerIds.minus(replicas, removingReplicas);
    }

    /** The replica set a cancelled reassignment returns to: the replicas without the adding ones. */
    public int[] originalReplicas() {
        return addingReplicas.length == 0 ? replicas : BrokerIds.minus(replicas, addingReplicas);
    }

    public boolean isAdding(int brokerId) {
        return BrokerIds.contains(addingReplicas, brokerId);
    }

    public boolean isOffline() {
        return leader == NO_LEADER;
    }

    public boolean hasReplica(int brokerId) {
        return BrokerIds.contains(replicas, brokerId);
    }

    public boolean inIsr(int brokerId) {
        return BrokerIds.contains(isr, brokerId);
    }

    /** The preferred replica (first assigned), the one leadership is balanced towards. */
    public int preferredReplica() {
        return replicas.length == 0 ? NO_LEADER : replicas[0];
    }

    /** A change of this partition: the given leader, leader epoch and ISR, under the next partition epoch. */
    public PartitionState withLeader(int newLeader, int newLeaderEpoch, int[] newIsr) {
        return new PartitionState(
                replicas, newLeader, newLeaderEpoch, newIsr, partitionEpoch + 1, addingReplicas, removingReplicas);
    }

    /** This partition with every leadership field as given (what a published change record says). */
    public PartitionState with(int newLeader, int newLeaderEpoch, int[] newIsr, int newPartitionEpoch) {
        return new PartitionState(
                replicas, newLeader, newLeaderEpoch, newIsr, newPartitionEpoch, addingReplicas, removingReplicas);
    }

    /** A change of this partition's replica set (a reassignment step) and leadership, under the next partition epoch. */
    public PartitionState withReplicas(
            int[] newReplicas, int[] newAdding, int[] newRemoving, int newLeader, int newLeaderEpoch, int[] newIsr) {
        return new PartitionState(
                newReplicas, newLeader, newLeaderEpoch, newIsr, partitionEpoch + 1, newAdding, newRemoving);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionState p
                && leader == p.leader
                && leaderEpoch == p.leaderEpoch
                && partitionEpoch == p.partitionEpoch
                && Arrays.equals(replicas, p.replicas)
                && Arrays.equals(isr, p.isr)
                && Arrays.equals(addingReplicas, p.addingReplicas)
                && Arrays.equals(removingReplicas, p.removingReplicas);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * Arrays.hashCode(replicas) + leader) + leaderEpoch) + partitionEpoch;
    }

    @Override
    public String toString() {
        return "PartitionState{replicas=" + Arrays.toString(replicas) + ", leader=" + leader + ", leaderEpoch="
                + leaderEpoch + ", isr=" + Arrays.toString(isr) + ", partitionEpoch=" + partitionEpoch
                + (isReassigning()
                        ? ", adding=" + Arrays.toString(addingReplicas) + ", removing="
                                + Arrays.toString(removingReplicas)
                        : "")
                + "}";
    }
}
