package io.sluice.cluster.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.node.ClusterFixture;
import io.sluice.cluster.registry.BrokerRegistration;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's work for one join does not grow with the cluster: the bytes its thread allocates for a join
 * arriving alone are about the same at 20 and at 400 brokers (a copy of the broker map, or a set of every live id,
 * per join would make them several times larger). Allocation, not time, so the machine's load does not matter.
 */
class ControllerCostPerJoinTest {
    static final int MEASURED_JOINS = 10;

    @TempDir
    Path dir;

    private int nextId = 1_000;

    @Test
    void shouldAllocateAboutTheSamePerSingleJoinAt400BrokersAsAt20() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterController controller =
                    ClusterFixture.awaitController(List.of(b1)).node().controller();
            CuratorFramework session = cluster.client();
            registerTogether(cluster, controller, 19);
            joinOneAtATime(session, controller, MEASURED_JOINS); // warm-up: class loading and JIT
            long at20 = joinOneAtATime(session, controller, MEASURED_JOINS);
            registerTogether(cluster, controller, 400 - controller.state().brokerCount());
            assertEquals(400, controller.state().brokerCount());
            long at400 = joinOneAtATime(session, controller, MEASURED_JOINS);
            assertTrue(
                    at400 < at20 * 3 / 2,
                    "controller bytes per join: " + at20 + " at 20 brokers, " + at400 + " at 400");
        }
    }

    /** Registers {@code count} brokers at once, 20 to a session, and waits until the controller lists them. */
    private void registerTogether(ClusterFixture cluster, ClusterController controller, int count) throws Exception {
        int expected = controller.state().brokerCount() + count;
        CuratorFramework session = null;
        for (int i = 0; i < count; i++) {
            if (i % 20 == 0) {
                session = cluster.client();
            }
            new BrokerRegistration(session, ZkTesting.broker(nextId++, ""), ZkTesting.SESSION).register();
        }
        ZkTesting.await(expected + " brokers", () -> controller.state().brokerCount() == expected);
    }

    /** Joins {@code count} brokers one after another; the controller thread's allocated bytes per join. */
    private long joinOneAtATime(CuratorFramework session, ClusterController controller, int count) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = controller.controllerThread().getId();
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < count; i++) {
            int id = nextId++;
            new BrokerRegistration(session, ZkTesting.broker(id, ""), ZkTesting.SESSION).register();
            ZkTesting.await("broker " + id, () -> controller.state().hasBroker(id));
        }
        return (mx.getThreadAllocatedBytes(tid) - before) / count;
    }
}
