package io.sluice.broker.move;

/** Where a partition move's transfer is. Immutable. */
public enum TransferPhase {
    /** Not started yet. */
    PENDING,
    /** Connecting to a source and asking for its segment list. */
    LISTING,
    /** Receiving and verifying segment chunks. */
    COPYING_SEGMENTS,
    /** Receiving the producer snapshot. */
    COPYING_PRODUCER_STATE,
    /** Renaming verified files into the log. */
    INSTALLING,
    /** Installed: the log ends at the boundary and follower fetch continues. */
    DONE,
    /** Cancelled; staging removed. */
    CANCELLED,
    /** Failed for good; staging removed. */
    FAILED
}
