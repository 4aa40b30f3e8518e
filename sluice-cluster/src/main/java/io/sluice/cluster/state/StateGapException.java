package io.sluice.cluster.state;

/**
 * A delta that does not follow the state it would be applied to (one was folded away in between); the reader
 * reloads the snapshot. Immutable; safe to share.
 */
public final class StateGapException extends ClusterStateException {
    private static final long serialVersionUID = 1L;

    public StateGapException(String message) {
        super(message);
    }
}
