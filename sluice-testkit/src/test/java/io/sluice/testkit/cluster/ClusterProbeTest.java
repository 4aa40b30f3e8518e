package io.sluice.testkit.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.zk.ClusterConnection;
import io.sluice.cluster.zk.EmbeddedZooKeeper;
import io.sluice.cluster.zk.ZkPaths;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe against a real in-process ZooKeeper and a real controller from sluice-cluster. */
class ClusterProbeTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String CHROOT = "/probe-test";
    private static final ClusterConfig CONFIG =
            ClusterConfig.defaults().withSessionTimeout(ProcessCluster.TEST_SESSION_TIMEOUT);

    @TempDir
    Path dir;

    private EmbeddedZooKeeper zooKeeper;
    private ClusterConnection brokerConnection;
    private ClusterNode broker;
    private ClusterProbe probe;

    @BeforeEach
    void startZooKeeper() throws Exception {
        zooKeeper = EmbeddedZooKeeper.start(dir.resolve("zk"), 0, 0);
    }

    @AfterEach
    void closeAll() {
        if (probe != null) {
            probe.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (brokerConnection != null) {
            brokerConnection.close();
        }
        zooKeeper.close();
    }

    @Test
    void shouldSeeTheControllerItsStateAndTheZnodesItWrote() throws Exception {
        startBrokerAndProbe();

        ControllerRecord controller = probe.awaitController("broker 4 elected", WAIT, c -> c.brokerId() == 4);
        assertEquals(1, controller.epoch(), "first election");
        assertTrue(probe.isRegistered(4), "broker 4 registered");
        assertFalse(probe.isRegistered(5), "no broker 5");
        probe.awaitState("broker 4 published", WAIT, s -> s.hasBroker(4));

        broker.createTopic("orders", 3, 1, Map.of()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertEquals(
                3,
                probe.awaitState("orders published", WAIT, s -> s.topic("orders") != null)
                        .topic("orders")
                        .partitionCount());
        List<StateZnode> znodes = Poll.until("state znodes listed", WAIT, probe::stateZnodes, z -> !z.isEmpty());
        for (StateZnode znode : znodes) {
            assertEquals(controller.epoch(), znode.controllerEpoch(), znode.toString());
            assertTrue(
                    znode.writtenAfter(controller.modifiedZxid()),
                    "written after the election: " + znode + ", election at zxid " + controller.modifiedZxid());
        }
        assertEquals(0, probe.follower().rejected(), "nothing stale");
    }

    @Test
    void shouldShowAStaleEpochDeltaWrittenAfterTheElection() throws Exception {
        startBrokerAndProbe();
        ControllerRecord controller = probe.awaitController("broker 4 elected", WAIT, c -> c.brokerId() == 4);
        ClusterState published = probe.awaitState("broker 4 published", WAIT, s -> s.hasBroker(4));

        DeltaRecord forged = new DeltaRecord();
        forged.controllerEpoch = controller.epoch() - 1;
        forged.prevSeq = published.appliedSeq();
        forged.left = new int[] {4};
        try (StateSerializer serializer = new StateSerializer(
                CONFIG.compression(), CONFIG.partBytes(), CONFIG.maxSnapshotParts(), CONFIG.maxStateBytes())) {
            probe.client()
                    .create()
                    .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(ZkPaths.STATE + "/" + ZkPaths.DELTA_PREFIX, serializer.encodeDelta(forged));
        }

        List<StateZnode> stale = Poll.until(
                "the forged delta listed",
                WAIT,
                probe::stateZnodes,
                znodes -> znodes.stream().anyMatch(z -> z.controllerEpoch() < controller.epoch()));
        assertTrue(
                stale.stream()
                        .anyMatch(z -> z.controllerEpoch() == controller.epoch() - 1
                                && z.writtenAfter(controller.modifiedZxid())),
                "a stale delta written after the election: " + stale);
        Poll.until(
                "the follower refuses the stale delta",
                WAIT,
                () -> probe.follower().rejected(),
                n -> n > 0);
        assertTrue(probe.state().hasBroker(4), "the stale delta did not remove broker 4: " + probe.state());
    }

    /** Broker 4, controller-eligible, on its own session; then the probe on another. */
    private void startBrokerAndProbe() throws Exception {
        brokerConnection = ClusterConnection.open(zooKeeper.connectString() + CHROOT, CONFIG);
        broker = new ClusterNode(
                brokerConnection.client(), BrokerInfo.of(4, "", Endpoint.of("127.0.0.1", 9092)), CONFIG, true);
        broker.start();
        probe = ClusterProbe.open(zooKeeper.connectString() + CHROOT, ProcessCluster.TEST_SESSION_TIMEOUT);
    }

    @Test
    void shouldTellWritesAfterAZxidFromEarlierOnes() {
        StateZnode created = new StateZnode("/cluster/state/delta-0000000001", 10, 10, 1);
        StateZnode changedLater = new StateZnode("/cluster/state/head", 5, 12, 1);
        assertTrue(created.writtenAfter(9));
        assertFalse(created.writtenAfter(10));
        assertTrue(changedLater.writtenAfter(11));
        assertFalse(changedLater.writtenAfter(12));
    }
}
