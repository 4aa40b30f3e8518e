package io.sluice.cluster.controller;

import io.sluice.cluster.zk.ZkPaths;

/**
 * When the controller folds its deltas into a new snapshot. A snapshot costs O(state) to write, so folding after a
 * fixed number of deltas makes the amortised cost of a delta grow with the cluster. Instead the controller folds once
 * the deltas written since the last snapshot weigh as much as that snapshot (and at least {@code minDeltas} were
 * written): the snapshot's bytes, and the work of compressing them, are then paid for by at least as many delta
 * bytes, so the amortised cost per delta is at most its own size whatever the cluster size, and a follower that
 * starts late reads at most about twice the snapshot. {@code maxDeltas} bounds the delta log so that listing the
 * state directory (a follower's getChildren) always fits one ZooKeeper response.
 *
 * <p>Immutable; safe to share.
 *
 * @param minDeltas fewest deltas between two snapshots ({@code ClusterConfig.deltasPerSnapshot})
 * @param maxDeltas most deltas between two snapshots, whatever their weight
 */
public record SnapshotPolicy(int minDeltas, int maxDeltas) {
    /**
     * Bytes one delta's name takes in a getChildren response: the name ({@code delta-} and ten digits) and its
     * length prefix.
     */
    static final int LISTED_DELTA_BYTES = ZkPaths.DELTA_PREFIX.length() + 10 + Integer.BYTES;
    /**
     * Deltas between two snapshots may use this fraction of a response: the directory also holds the deltas of the
     * previous interval (pruned one fold later), the snapshots and the head.
     */
    static final int LISTING_SHARE_DIVISOR = 4;

    public SnapshotPolicy {
        if (minDeltas < 1 || maxDeltas < minDeltas) {
            throw new IllegalArgumentException(
                    "need 1 <= minDeltas <= maxDeltas, were " + minDeltas + " and " + maxDeltas);
        }
    }

    /** The policy for {@code deltasPerSnapshot} and parts (and responses) of at most {@code partBytes}. */
    public static SnapshotPolicy of(int deltasPerSnapshot, int partBytes) {
        int listable = partBytes / (LISTED_DELTA_BYTES * LISTING_SHARE_DIVISOR);
        return new SnapshotPolicy(deltasPerSnapshot, Math.max(deltasPerSnapshot, listable));
    }

    /**
     * Whether to fold now.
     *
     * @param deltas        deltas written since the last snapshot
     * @param deltaBytes    their bytes
     * @param snapshotBytes the last snapshot's compressed bytes (0 when there is none)
     */
    public boolean shouldFold(int deltas, long deltaBytes, long snapshotBytes) {
        return deltas >= maxDeltas || deltas >= minDeltas && deltaBytes >= snapshotBytes;
    }

    /** Deltas of {@code deltaBytes} each between two snapshots of {@code snapshotBytes}; for reports. */
    public int deltasPerFold(long snapshotBytes, long deltaBytes) {
        long byWeight = deltaBytes <= 0 ? maxDeltas : (snapshotBytes + deltaBytes - 1) / deltaBytes;
        return (int) Math.min(maxDeltas, Math.max(minDeltas, byWeight));
    }
}
