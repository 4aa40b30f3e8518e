package io.sluice.cluster.state;

/**
 * A change written by an older controller than one already applied; it is ignored. Immutable; safe to share.
 */
public final class StaleEpochException extends ClusterStateException {
    private static final long serialVersionUID = 1L;

    private final int seenEpoch;
    private final int currentEpoch;

    public StaleEpochException(String what, int seenEpoch, int currentEpoch) {
        super(what + ": controller epoch " + seenEpoch + " is older than the current epoch " + currentEpoch);
        this.seenEpoch = seenEpoch;
        this.currentEpoch = currentEpoch;
    }

    public int seenEpoch() {
        return seenEpoch;
    }

    public int currentEpoch() {
        return currentEpoch;
    }
}
