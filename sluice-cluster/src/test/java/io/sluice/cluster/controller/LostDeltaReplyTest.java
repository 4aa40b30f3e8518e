package io.sluice.cluster.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.ClusterStateFollower;
import io.sluice.cluster.state.StateReader;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.zk.FaultyZkProxy;
import io.sluice.cluster.zk.ZkPaths;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reply to a delta's write is lost with its connection after ZooKeeper applied the write; the ZooKeeper client
 * reconnects and sends the write again. The delta must still be in the log once, so that readers can follow the chain.
 */
class LostDeltaReplyTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteADeltaOnceWhenTheReplyToItsWriteIsLost() throws Exception {
        ClusterConfig config = ZkTesting.config();
        try (TestingServer server = ZkTesting.server(dir);
                FaultyZkProxy proxy = new FaultyZkProxy(server.getPort());
                CuratorFramework direct = ZkTesting.client(server.getConnectString());
                CuratorFramework viaProxy = ZkTesting.client(proxy.connectString());
                StateReader reader = new StateReader(viaProxy, config)) {
            ControllerElection.ensureEpochZnode(direct);
            Stat epoch = direct.setData().forPath(ZkPaths.CONTROLLER_EPOCH, ControllerEpochDescriptor.encode(1, 1));
            direct.create().creatingParentsIfNeeded().forPath(ZkPaths.STATE);
            FencedWriter writer = new FencedWriter(viaProxy, ZkPaths.CONTROLLER_EPOCH, 1, epoch.getVersion());
            try (StatePublisher publisher = new StatePublisher(
                    viaProxy, 1, config, reader, new ControllerStats(), Runnable::run, e -> {}, (b, d, a) -> {})) {
                publisher.start(writer, new StateLoader(viaProxy, 1, reader).load());

                publisher.publish(brokerJoins(1));
                proxy.loseReplyToNextMultiHolding(ZkPaths.STATE + "/" + ZkPaths.DELTA_PREFIX);
                publisher.publish(brokerJoins(2));
                assertEquals(1, proxy.repliesDropped(), "the reply to the second delta's write was lost");
                publisher.publish(brokerJoins(3));

                Map<Long, Long> deltaByPrevSeq = new HashMap<>();
                long[] seqs = reader.listDeltas(null);
                for (long seq : seqs) {
                    Long before = deltaByPrevSeq.put(reader.readDelta(seq).prevSeq, seq);
                    assertNull(before, "deltas " + before + " and " + seq + " follow the same delta");
                }
                assertEquals(3, seqs.length, "one delta per change");
                assertEquals(seqs[2], publisher.state().appliedSeq());

                try (ClusterStateFollower follower = new ClusterStateFollower(direct, config, "reader", null)) {
                    follower.start();
                    ZkTesting.await(
                            "the follower applies every delta",
                            () -> follower.current().appliedSeq()
                                    == publisher.state().appliedSeq());
                    assertTrue(follower.current().sameContent(publisher.state()));
                }
            }
        }
    }

    private static DeltaRecord brokerJoins(int brokerId) {
        DeltaRecord d = new DeltaRecord();
        d.joined.add(BrokerRecord.of(ZkTesting.broker(brokerId, "")));
        return d;
    }
}
