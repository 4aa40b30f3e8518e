package io.sluice.cluster.state;

/**
 * Base of the typed errors on cluster state read from ZooKeeper. Immutable; safe to share.
 */
public class ClusterStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ClusterStateException(String message) {
        super(message);
    }

    public ClusterStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
