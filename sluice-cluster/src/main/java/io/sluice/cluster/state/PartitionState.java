package io.sluice.cluster.state;

import java.util.Arrays;

/**
 * One partition's assignment as the controller decided it. The arrays are never modified after construction
 * (every change makes a new instance). Immutable by contract; safe to share.
 *
 * @param replicas    replica broker ids, preferred leader first
 * @param leader      leader broker id, {@link #NO_LEADER} when offline
 * @param leaderEpoch bumped on every leader change
 * @param isr         in-sync replica broker ids
 */
public record PartitionState(int[] replicas, int leader, int leaderEpoch, int[] isr) {
    public static final int NO_LEADER = -1;

    public boolean isOffline() {
        return leader == NO_LEADER;
    }

    public boolean hasReplica(int brokerId) {
        return contains(replicas, brokerId);
    }

    public boolean inIsr(int brokerId) {
        return contains(isr, brokerId);
    }

    public PartitionState withLeader(int newLeader, int newLeaderEpoch, int[] newIsr) {
        return new PartitionState(replicas, newLeader, newLeaderEpoch, newIsr);
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
                && Arrays.equals(replicas, p.replicas) && Arrays.equals(isr, p.isr);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(replicas) + leader) + leaderEpoch;
    }

    @Override
    public String toString() {
        return "PartitionState{replicas=" + Arrays.toString(replicas) + ", leader=" + leader + ", leaderEpoch="
                + leaderEpoch + ", isr=" + Arrays.toString(isr) + "}";
    }
}
