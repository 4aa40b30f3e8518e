package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.zk.ZkPaths;
import java.nio.file.Path;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delta log holding the same delta twice, as a controller wrote it when its write was sent again after a lost reply
 * (the controller went on from the second copy): a follower skips the copy and applies the deltas after it.
 */
class DuplicateDeltaTest {
    @TempDir
    Path dir;

    @Test
    void shouldSkipASecondCopyOfTheDeltaJustAppliedAndApplyTheDeltasAfterIt() throws Exception {
        ClusterConfig config = ZkTesting.config();
        try (TestingServer server = ZkTesting.server(dir);
                CuratorFramework client = ZkTesting.client(server.getConnectString());
                StateSerializer serializer = new StateSerializer(
                        config.compression(), config.partBytes(), config.maxSnapshotParts(), config.maxStateBytes())) {
            client.create().creatingParentsIfNeeded().forPath(ZkPaths.STATE);
            long first = write(client, serializer, brokerJoins(1, ClusterState.EMPTY.appliedSeq()));
            byte[] second = serializer.encodeDelta(brokerJoins(2, first));
            long secondSeq = write(client, second);
            long copySeq = write(client, second);
            long third = write(client, serializer, brokerJoins(3, copySeq));

            try (ClusterStateFollower follower = new ClusterStateFollower(client, config, "reader", null)) {
                follower.start();
                ZkTesting.await(
                        "the follower applies the delta after the copy",
                        () -> follower.current().appliedSeq() == third);
                assertEquals(
                        List.of(1, 2, 3),
                        List.copyOf(follower.current().brokers().keySet()));
                assertEquals(1, follower.duplicatesSkipped(), "copy of delta " + secondSeq + " skipped");
                assertEquals(3, follower.deltasApplied());
                assertNull(follower.lastError());
            }
        }
    }

    private static DeltaRecord brokerJoins(int brokerId, long prevSeq) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 1;
        d.prevSeq = prevSeq;
        d.joined.add(BrokerRecord.of(ZkTesting.broker(brokerId, "")));
        return d;
    }

    private static long write(CuratorFramework client, StateSerializer serializer, DeltaRecord delta) throws Exception {
        return write(client, serializer.encodeDelta(delta));
    }

    private static long write(CuratorFramework client, byte[] bytes) throws Exception {
        String path = client.create()
                .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .forPath(ZkPaths.STATE + "/" + ZkPaths.DELTA_PREFIX, bytes);
        return ZkPaths.deltaSeq(path.substring(path.lastIndexOf('/') + 1));
    }
}
