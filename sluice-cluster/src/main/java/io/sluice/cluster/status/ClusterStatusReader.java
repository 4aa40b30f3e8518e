package io.sluice.cluster.status;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.controller.ControllerEpochDescriptor;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ClusterStateException;
import io.sluice.cluster.state.ClusterStateFollower;
import io.sluice.cluster.state.StateReader;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.zk.ClusterConnection;
import io.sluice.cluster.zk.ConnectString;
import io.sluice.cluster.zk.ZkPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Reads a cluster's status from ZooKeeper without writing anything: the cluster id, the recorded controller, the
 * registered brokers and, by following the published state once, the live brokers, topics and partitions.
 * Stateless; thread-safe.
 */
public final class ClusterStatusReader {
    /** How often the wait for the follower looks at its progress. */
    private static final long POLL_MILLIS = 10;

    private ClusterStatusReader() {}

    /**
     * Connects to the hosts of {@code connect} (the chroot is checked, never created) and reads the status.
     *
     * @param connect   a ZooKeeper connect string, {@code host:port[,host:port...][/chroot]}
     * @param config    the connection timeout and state layout
     * @param stateWait how long the follower may take to load what is published
     * @throws ClusterStatusException.Unreachable when no server answers within the connection timeout
     * @throws ClusterStatusException.NoCluster   when the chroot, or the cluster id and state, do not exist
     * @throws ClusterStatusException.NoState     when no state arrives within the wait
     */
    public static ClusterStatus read(String connect, ClusterConfig config, Duration stateWait) throws Exception {
        try (ClusterConnection connection = connect(connect, config)) {
            return read(inChroot(connection.client(), connect), config, connect, stateWait);
        }
    }

    /**
     * @param client    a connected client, already inside the cluster's chroot
     * @param where     the connect string, for messages
     * @param stateWait how long the follower may take to load what is published
     * @throws ClusterStatusException.NoCluster when nothing of a Sluice cluster is there
     * @throws ClusterStatusException.NoState   when no state arrives within the wait
     */
    private static ClusterStatus read(CuratorFramework client, ClusterConfig config, String where, Duration stateWait)
            throws Exception {
        String clusterId = clusterId(client);
        byte[] controller = dataOrNull(client, ZkPaths.CONTROLLER_EPOCH);
        int controllerId = controller == null
                ? ControllerEpochDescriptor.NO_CONTROLLER
                : ControllerEpochDescriptor.controllerId(controller);
        int controllerEpoch = controller == null ? -1 : ControllerEpochDescriptor.epoch(controller);
        long publishedSeq = publishedSeq(client, config);
        if (clusterId == null && publishedSeq < 0) {
            throw new ClusterStatusException.NoCluster("no Sluice cluster in ZooKeeper '" + where + "': "
                    + ZkPaths.CLUSTER_ID + " and " + ZkPaths.STATE + " do not exist (wrong address or chroot?)");
        }
        // Our own thread, not the follower's: closing the follower then lets a refresh in flight finish instead of
        // interrupting it (which it would log as a failed refresh).
        ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "sluice-cluster-status");
            t.setDaemon(true);
            return t;
        });
        try (ClusterStateFollower follower = new ClusterStateFollower(client, config, "cluster-status", thread)) {
            follower.start();
            ClusterState state = awaitState(follower, Math.max(publishedSeq, 0), stateWait);
            if (state.appliedSeq() < 0) {
                ClusterStateException error = follower.lastError();
                throw new ClusterStatusException.NoState("the cluster state in ZooKeeper '" + where
                        + "' stayed empty for "
                        + stateWait.toMillis() + " ms"
                        + (error == null ? " (no controller has published it yet)" : ": " + error.getMessage()));
            }
            return new ClusterStatus(
                    clusterId, controllerId, controllerEpoch, registeredBrokers(client), state, publishedSeq);
        } finally {
            thread.shutdown();
        }
    }

    /** Connects to the hosts only: the chroot is checked, never created (ClusterConnection creates it). */
    private static ClusterConnection connect(String connect, ClusterConfig config)
            throws ClusterStatusException.Unreachable {
        try {
            return ClusterConnection.open(ConnectString.parse(connect).hosts(), config);
        } catch (IOException e) {
            throw new ClusterStatusException.Unreachable("ZooKeeper '" + connect + "' unreachable: no server answered"
                    + " within " + config.connectionTimeout().toMillis() + " ms");
        }
    }

    private static CuratorFramework inChroot(CuratorFramework client, String connect) throws Exception {
        ConnectString parsed = ConnectString.parse(connect);
        if (!parsed.hasChroot()) {
            return client;
        }
        if (client.checkExists().forPath("/" + parsed.chroot()) == null) {
            throw new ClusterStatusException.NoCluster(
                    "no Sluice cluster in ZooKeeper '" + connect + "': chroot /" + parsed.chroot() + " does not exist");
        }
        return client.usingNamespace(parsed.chroot());
    }

    /** Waits until the follower reached {@code seq}, failed, or the wait ran out; returns what it holds then. */
    private static ClusterState awaitState(ClusterStateFollower follower, long seq, Duration wait)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (follower.current().appliedSeq() < seq
                && follower.lastError() == null
                && System.nanoTime() - deadline < 0) {
            Thread.sleep(POLL_MILLIS);
        }
        return follower.current();
    }

    /** The newest sequence number published: the head snapshot's or the last delta's, whichever is newer. */
    private static long publishedSeq(CuratorFramework client, ClusterConfig config) throws Exception {
        try (StateReader reader = new StateReader(client, config)) {
            SnapshotManifest head = reader.readHead(null);
            long[] deltas = reader.listDeltas(null);
            long newest = head == null ? -1 : head.lastDeltaSeq();
            return deltas.length == 0 ? newest : Math.max(newest, deltas[deltas.length - 1]);
        }
    }

    /** Ids under /brokers/ids; a child that is not a number is not a Sluice registration and is skipped. */
    private static SortedSet<Integer> registeredBrokers(CuratorFramework client) throws Exception {
        SortedSet<Integer> ids = new TreeSet<>();
        List<String> children;
        try {
            children = client.getChildren().forPath(ZkPaths.BROKER_IDS);
        } catch (KeeperException.NoNodeException absent) {
            return ids;
        }
        for (String child : children) {
            try {
                ids.add(Integer.parseInt(child));
            } catch (NumberFormatException notAnId) {
                // someone else's znode
            }
        }
        return ids;
    }

    private static String clusterId(CuratorFramework client) throws Exception {
        byte[] bytes = dataOrNull(client, ZkPaths.CLUSTER_ID);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] dataOrNull(CuratorFramework client, String path) throws Exception {
        try {
            return client.getData().forPath(path);
        } catch (KeeperException.NoNodeException absent) {
            return null;
        }
    }
}
