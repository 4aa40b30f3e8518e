package io.sluice.cluster.controller;

import java.util.concurrent.atomic.AtomicLong;

/** Counters of the controller's ZooKeeper writes and membership work. Thread-safe. */
public final class ControllerStats {
    public final AtomicLong transactions = new AtomicLong();
    public final AtomicLong operations = new AtomicLong();
    public final AtomicLong bytesWritten = new AtomicLong();
    public final AtomicLong deltas = new AtomicLong();
    public final AtomicLong membershipDeltas = new AtomicLong();
    public final AtomicLong snapshots = new AtomicLong();
    public final AtomicLong snapshotRepairs = new AtomicLong();
    public final AtomicLong joins = new AtomicLong();
    public final AtomicLong leaves = new AtomicLong();
    public final AtomicLong bounces = new AtomicLong();
    /** Reconciliations that compared every registration (take-over, reconnect, failure); joins read only theirs. */
    public final AtomicLong fullScans = new AtomicLong();

    public final AtomicLong fencedWrites = new AtomicLong();
    public final AtomicLong lastSnapshotParts = new AtomicLong();
    public final AtomicLong lastSnapshotBytes = new AtomicLong();
    /** Leader-imbalance checks that moved some leadership back to preferred replicas. */
    public final AtomicLong rebalances = new AtomicLong();

    @Override
    public String toString() {
        return "transactions=" + transactions + ", operations=" + operations + ", bytesWritten=" + bytesWritten
                + ", deltas=" + deltas + " (membership " + membershipDeltas + "), snapshots=" + snapshots
                + ", repairs=" + snapshotRepairs + ", joins=" + joins + ", leaves=" + leaves + ", bounces="
                + bounces
                + ", fullScans=" + fullScans + ", fenced=" + fencedWrites + ", rebalances=" + rebalances;
    }
}
