package io.sluice.cluster.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.node.ClusterFixture;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.registry.BrokerRegistration;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller follows membership through its persistent watch: after the take-over's full comparison, joins and
 * leaves are read one registration at a time, never by listing every broker again.
 */
class MembershipWatchTest {
    @TempDir
    Path dir;

    @Test
    void shouldFollowJoinsAndLeavesThroughTheWatchAloneAfterTakeOver() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterFixture.Broker controllerBroker = ClusterFixture.awaitController(List.of(b1));
            ClusterController controller = controllerBroker.node().controller();
            ZkTesting.await(
                    "own registration",
                    () -> controller.state() != null && controller.state().hasBroker(1));
            long scansAfterTakeOver = controller.stats().fullScans.get();

            CuratorFramework session = cluster.client();
            List<BrokerRegistration> regs = new ArrayList<>();
            for (int id = 10; id < 15; id++) {
                BrokerRegistration r = new BrokerRegistration(session, ZkTesting.broker(id, ""), ZkTesting.SESSION);
                r.register();
                regs.add(r);
                int joined = id;
                ZkTesting.await("broker " + id, () -> controller.state().hasBroker(joined));
            }
            TopicState t = controller.createTopic("watched", 10, 1, Map.of()).get(60, TimeUnit.SECONDS);
            regs.get(0).close();
            regs.get(3).close();
            ZkTesting.await("two leaves", () -> controller.state().brokerCount() == 4);

            ClusterState s = controller.state();
            assertEquals(List.of(1, 11, 12, 14), List.copyOf(s.brokers().keySet()));
            for (int p = 0; p < t.partitionCount(); p++) {
                int leader = t.partition(p).leader();
                boolean gone = leader == 10 || leader == 13;
                assertEquals(
                        gone ? PartitionState.NO_LEADER : leader,
                        s.topic("watched").partition(p).leader(),
                        "partition " + p);
            }
            ControllerStats stats = controller.stats();
            assertEquals(scansAfterTakeOver, stats.fullScans.get(), "no full scan after take-over: " + stats);
            assertEquals(6, stats.joins.get(), stats.toString());
            assertEquals(2, stats.leaves.get(), stats.toString());
            assertTrue(stats.membershipDeltas.get() >= 7, "one delta per join or leave: " + stats);
            ClusterFixture.awaitConverged(controllerBroker, List.of(b1));
            for (BrokerRegistration r : regs) {
                r.close();
            }
        }
    }

    @Test
    void shouldFollowJoinsAndLeavesThroughTheWatchUnderAChroot() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            CuratorFramework raw = cluster.client();
            raw.create().forPath("/sluice-a");
            String chrooted = cluster.server.getConnectString() + "/sluice-a";
            try (CuratorFramework c1 = ZkTesting.client(chrooted);
                    CuratorFramework session = ZkTesting.client(chrooted);
                    ClusterNode node = new ClusterNode(c1, ZkTesting.broker(1, ""), cluster.config, true)) {
                node.start();
                ZkTesting.await("controller", node::isController);
                ClusterController controller = node.controller();
                ZkTesting.await(
                        "own registration",
                        () -> controller.state() != null && controller.state().hasBroker(1));
                long scansAfterTakeOver = controller.stats().fullScans.get();
                List<BrokerRegistration> regs = new ArrayList<>();
                for (int id = 20; id < 23; id++) {
                    BrokerRegistration r = new BrokerRegistration(session, ZkTesting.broker(id, ""), ZkTesting.SESSION);
                    r.register();
                    regs.add(r);
                    int joined = id;
                    ZkTesting.await("broker " + id, () -> controller.state().hasBroker(joined));
                }
                assertTrue(raw.checkExists().forPath("/sluice-a/brokers/ids/20") != null, "registered in the chroot");
                regs.get(1).close();
                ZkTesting.await("leave", () -> !controller.state().hasBroker(21));
                assertEquals(
                        scansAfterTakeOver,
                        controller.stats().fullScans.get(),
                        controller.stats().toString());
                assertEquals(4, controller.stats().joins.get());
                assertEquals(1, controller.stats().leaves.get());
                regs.get(0).close();
                regs.get(2).close();
            }
        }
    }
}
