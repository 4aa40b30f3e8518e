package io.sluice.cluster.node;

import io.sluice.cluster.zk.ZkPaths;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The cluster id kept in {@code /cluster/id}: the first broker to start writes its candidate, every later broker
 * adopts what is there, so all brokers of one ZooKeeper (chroot) report the same id and a broker whose data belongs
 * to another cluster can be refused.
 *
 * <p>Stateless; thread-safe.
 */
public final class ClusterIdStore {
    private ClusterIdStore() {}

    /** The id recorded in ZooKeeper; {@code candidate} is recorded first when there is none yet. */
    public static String resolve(CuratorFramework client, String candidate) throws Exception {
        while (true) {
            try {
                byte[] stored = client.getData().forPath(ZkPaths.CLUSTER_ID);
                return new String(stored, StandardCharsets.UTF_8);
            } catch (KeeperException.NoNodeException absent) {
                try {
                    client.create()
                            .creatingParentContainersIfNeeded()
                            .forPath(ZkPaths.CLUSTER_ID, candidate.getBytes(StandardCharsets.UTF_8));
                    return candidate;
                } catch (KeeperException.NodeExistsException raced) {
                    // Another broker wrote it first: read theirs.
                }
            }
        }
    }
}
