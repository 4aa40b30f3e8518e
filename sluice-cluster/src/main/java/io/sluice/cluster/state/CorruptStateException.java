package io.sluice.cluster.state;

/**
 * Cluster state in ZooKeeper that cannot be read: a missing, truncated or corrupt snapshot part, a manifest that does
 * not match its parts, or an undecodable delta. The reader keeps its last good state. Immutable; safe to share.
 */
public final class CorruptStateException extends ClusterStateException {
    private static final long serialVersionUID = 1L;

    public CorruptStateException(String message) {
        super(message);
    }

    public CorruptStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
