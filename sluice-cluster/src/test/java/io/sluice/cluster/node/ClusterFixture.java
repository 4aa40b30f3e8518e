package io.sluice.cluster.node;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;

/** A TestingServer and brokers on it, each with its own ZooKeeper session; closes everything it made. */
public final class ClusterFixture implements AutoCloseable {
    public final TestingServer server;
    public final ClusterConfig config;
    private final List<AutoCloseable> owned = new ArrayList<>();

    public ClusterFixture(Path dir, ClusterConfig config) throws Exception {
        this.server = ZkTesting.server(dir);
        this.config = config;
    }

    public CuratorFramework client() throws Exception {
        CuratorFramework c = ZkTesting.client(server.getConnectString());
        owned.add(c);
        return c;
    }

    /** A started broker node on its own session. */
    public Broker broker(int id, String rack, boolean controllerEligible) throws Exception {
        CuratorFramework c = client();
        ClusterNode node = new ClusterNode(c, ZkTesting.broker(id, rack), config, controllerEligible);
        owned.add(node);
        node.start();
        return new Broker(node, c);
    }

    public record Broker(ClusterNode node, CuratorFramework client) {
        public BrokerInfo info() {
            return node.self();
        }
    }

    /** Waits until one of {@code brokers} is the controller and returns it. */
    public static Broker awaitController(List<Broker> brokers) throws InterruptedException {
        Broker[] found = new Broker[1];
        ZkTesting.await("a controller", () -> {
            for (Broker b : brokers) {
                if (b.node().isController()) {
                    found[0] = b;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    /** Waits until every broker's follower holds the same content as the controller's published state. */
    public static ClusterState awaitConverged(Broker controller, List<Broker> brokers) throws InterruptedException {
        ZkTesting.await("followers converge", () -> {
            ClusterState s = controller.node().controller().state();
            if (s == null) {
                return false;
            }
            for (Broker b : brokers) {
                ClusterState f = b.node().current();
                if (f.appliedSeq() != s.appliedSeq() || !f.sameContent(s)) {
                    return false;
                }
            }
            return true;
        });
        return controller.node().controller().state();
    }

    @Override
    public void close() throws Exception {
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).close();
            } catch (Exception e) {
                // keep closing the rest
            }
        }
        server.close();
    }
}
