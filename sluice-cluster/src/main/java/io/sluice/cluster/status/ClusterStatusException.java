package io.sluice.cluster.status;

/**
 * Why a cluster's status could not be read, in one line a person can act on; the subclass says which case it is.
 * Immutable.
 */
public class ClusterStatusException extends Exception {
    private static final long serialVersionUID = 1L;

    ClusterStatusException(String message) {
        super(message);
    }

    /** No ZooKeeper server answered within the connection timeout. */
    public static final class Unreachable extends ClusterStatusException {
        private static final long serialVersionUID = 1L;

        Unreachable(String message) {
            super(message);
        }
    }

    /** ZooKeeper answered but holds no Sluice cluster there: the chroot, or the cluster id and state, are absent. */
    public static final class NoCluster extends ClusterStatusException {
        private static final long serialVersionUID = 1L;

        NoCluster(String message) {
            super(message);
        }
    }

    /** The cluster exists but no cluster state arrived within the wait (none published yet, or it failed to load). */
    public static final class NoState extends ClusterStatusException {
        private static final long serialVersionUID = 1L;

        NoState(String message) {
            super(message);
        }
    }
}
