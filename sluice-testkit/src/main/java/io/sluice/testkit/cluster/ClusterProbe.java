package io.sluice.testkit.cluster;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.controller.ControllerEpochDescriptor;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ClusterStateFollower;
import io.sluice.cluster.state.CorruptStateException;
import io.sluice.cluster.state.StateReader;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.zk.ClusterConnection;
import io.sluice.cluster.zk.ZkPaths;
import io.sluice.testkit.Poll;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

/**
 * A test's read-only window on a cluster's ZooKeeper data: its own session on the cluster's chroot, a
 * {@link ClusterStateFollower} (which, like a broker's, refuses changes from an older controller epoch), and readers
 * of {@code /controller_epoch} and of the state znodes with their ZooKeeper transaction ids, so that a test can tell
 * which writes happened after an election.
 *
 * <p>Thread-safe; one per test cluster.
 */
public final class ClusterProbe implements AutoCloseable {

    private final ClusterConnection connection;
    private final ClusterStateFollower follower;
    private final StateReader reader;

    private ClusterProbe(ClusterConnection connection, ClusterConfig config) {
        this.connection = connection;
        this.follower = new ClusterStateFollower(connection.client(), config, "test-probe", null);
        this.reader = new StateReader(connection.client(), config);
    }

    /** Connects to {@code zookeeperConnect} (with its chroot) and starts following the cluster state. */
    public static ClusterProbe open(String zookeeperConnect, Duration sessionTimeout) throws IOException {
        ClusterConfig config = ClusterConfig.defaults().withSessionTimeout(sessionTimeout);
        ClusterProbe probe = new ClusterProbe(ClusterConnection.open(zookeeperConnect, config), config);
        probe.follower.start();
        return probe;
    }

    /** The newest state the probe's follower applied. */
    public ClusterState state() {
        return follower.current();
    }

    public ClusterStateFollower follower() {
        return follower;
    }

    public CuratorFramework client() {
        return connection.client();
    }

    /** Waits until the followed state satisfies {@code done}; fails naming {@code what} and the last state. */
    public ClusterState awaitState(String what, Duration timeout, Predicate<ClusterState> done)
            throws InterruptedException {
        return Poll.until(what, timeout, this::state, done);
    }

    /** Who {@code /controller_epoch} names now, read from ZooKeeper (not from a cache). */
    public ControllerRecord controller() throws Exception {
        Stat stat = new Stat();
        byte[] data = connection.client().getData().storingStatIn(stat).forPath(ZkPaths.CONTROLLER_EPOCH);
        return new ControllerRecord(
                ControllerEpochDescriptor.controllerId(data), ControllerEpochDescriptor.epoch(data), stat.getMzxid());
    }

    /** Waits until the recorded controller satisfies {@code done}. */
    public ControllerRecord awaitController(String what, Duration timeout, Predicate<ControllerRecord> done)
            throws InterruptedException {
        return Poll.until(what, timeout, this::controller, done);
    }

    /** Whether broker {@code id}'s registration znode exists (it is live as far as ZooKeeper knows). */
    public boolean isRegistered(int brokerId) throws Exception {
        return connection.client().checkExists().forPath(ZkPaths.broker(brokerId)) != null;
    }

    /**
     * The head manifest, every snapshot's manifest and every delta present now, each with the epoch its content
     * names. A delta or snapshot folded away between listing and reading is left out.
     */
    public synchronized List<StateZnode> stateZnodes() throws Exception {
        List<StateZnode> znodes = new ArrayList<>();
        Stat headStat = connection.client().checkExists().forPath(ZkPaths.STATE_HEAD);
        SnapshotManifest head = reader.readHead(null);
        if (head != null && headStat != null) {
            znodes.add(new StateZnode(
                    ZkPaths.STATE_HEAD, headStat.getCzxid(), headStat.getMzxid(), head.controllerEpoch()));
        }
        for (long snapshotId : reader.listSnapshots()) {
            String path = ZkPaths.snapshotManifest(snapshotId);
            Stat stat = connection.client().checkExists().forPath(path);
            SnapshotManifest manifest = stat == null ? null : readManifestUnlessFolded(snapshotId, path);
            if (manifest != null) {
                znodes.add(new StateZnode(path, stat.getCzxid(), stat.getMzxid(), manifest.controllerEpoch()));
            }
        }
        for (long seq : reader.listDeltas(null)) {
            String path = ZkPaths.STATE + "/" + ZkPaths.deltaName(seq);
            Stat stat = connection.client().checkExists().forPath(path);
            DeltaRecord delta = reader.readDelta(seq);
            if (stat != null && delta != null) {
                znodes.add(new StateZnode(path, stat.getCzxid(), stat.getMzxid(), delta.controllerEpoch));
            }
        }
        return znodes;
    }

    private SnapshotManifest readManifestUnlessFolded(long snapshotId, String path) throws Exception {
        try {
            return reader.readManifest(snapshotId);
        } catch (CorruptStateException e) {
            if (connection.client().checkExists().forPath(path) == null) {
                return null;
            }
            throw e;
        }
    }

    @Override
    public void close() {
        follower.close();
        synchronized (this) {
            reader.close();
        }
        connection.close();
    }
}
