package io.sluice.cluster.zk;

import org.apache.zookeeper.KeeperException;

/**
 * Tells callers outside sluice-cluster whether an operation failed in ZooKeeper itself (unreachable, the session lost
 * mid-write, a znode conflict), so they can answer a retriable error without naming ZooKeeper's types. Stateless;
 * thread-safe.
 */
public final class ZooKeeperFailures {
    private ZooKeeperFailures() {}

    /** Whether {@code failure} is an error ZooKeeper returned (a {@code KeeperException}). */
    public static boolean isZooKeeperFailure(Throwable failure) {
        return failure instanceof KeeperException;
    }
}
