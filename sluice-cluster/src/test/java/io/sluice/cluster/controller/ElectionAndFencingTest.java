package io.sluice.cluster.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.zk.ZkPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ElectionAndFencingTest {
    @TempDir
    Path dir;

    TestingServer server;
    final List<AutoCloseable> closeables = new ArrayList<>();
    final ExecutorService callbacks = Executors.newSingleThreadExecutor();

    @BeforeEach
    void start() throws Exception {
        server = ZkTesting.server(dir);
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        callbacks.shutdownNow();
        server.close();
    }

    /** Records what the election says, in order. */
    static final class Recorder implements ControllerElection.Listener {
        final BlockingQueue<Object> events = new LinkedBlockingQueue<>();

        @Override
        public void elected(FencedWriter writer) {
            events.add(writer);
        }

        @Override
        public void resigned() {
            events.add("resigned");
        }

        FencedWriter awaitElected() throws InterruptedException {
            while (true) {
                Object e = events.poll(60, TimeUnit.SECONDS);
                if (e == null) {
                    throw new AssertionError("never elected");
                }
                if (e instanceof FencedWriter w) {
                    return w;
                }
            }
        }
    }

    private CuratorFramework client() throws Exception {
        CuratorFramework c = ZkTesting.client(server.getConnectString());
        closeables.add(c);
        return c;
    }

    private ControllerElection election(CuratorFramework c, int id, Recorder r) throws Exception {
        ControllerElection e = new ControllerElection(c, id, r, callbacks);
        closeables.add(e);
        e.start();
        return e;
    }

    @Test
    void shouldElectOneControllerWithIncreasingEpochAcrossFailovers() throws Exception {
        CuratorFramework ca = client();
        CuratorFramework cb = client();
        CuratorFramework cc = client();
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        Recorder rc = new Recorder();
        ControllerElection ea = election(ca, 1, ra);
        FencedWriter wa = ra.awaitElected();
        ControllerElection eb = election(cb, 2, rb);
        ControllerElection ec = election(cc, 3, rc);
        assertEquals(1, wa.epoch());
        assertTrue(ea.hasLeadership());
        assertTrue(rb.events.isEmpty() && rc.events.isEmpty(), "only one controller at a time");

        ea.close();
        FencedWriter wb = rb.awaitElected();
        assertEquals(2, wb.epoch());
        eb.close();
        FencedWriter wc = rc.awaitElected();
        assertEquals(3, wc.epoch());
        byte[] epochData = cc.getData().forPath(ZkPaths.CONTROLLER_EPOCH);
        assertEquals(3, ControllerEpochDescriptor.epoch(epochData));
        assertEquals(3, ControllerEpochDescriptor.controllerId(epochData));
        assertTrue(ec.hasLeadership());
    }

    @Test
    void shouldLeaveTheLatchWhenTheEpochCannotBeClaimedSoTheElectionGoesOn() throws Exception {
        CuratorFramework ca = client();
        CuratorFramework cb = client();
        ControllerElection.ensureEpochZnode(ca);
        byte[] sound = ca.getData().forPath(ZkPaths.CONTROLLER_EPOCH);
        ca.setData().forPath(ZkPaths.CONTROLLER_EPOCH, "not an epoch".getBytes(StandardCharsets.US_ASCII));
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        election(ca, 1, ra);
        election(cb, 2, rb);

        // whoever leads the latch cannot claim the corrupt epoch: it must give the latch up and join again (a new
        // latch znode, the third), not hold it while no broker is the controller
        ZkTesting.await("a broker leaving the latch and joining again", () -> latchNodesEverCreated(ca) >= 3);
        assertTrue(ra.events.stream().noneMatch(e -> e instanceof FencedWriter), "elected on a corrupt epoch");
        assertTrue(rb.events.stream().noneMatch(e -> e instanceof FencedWriter), "elected on a corrupt epoch");

        ca.setData().forPath(ZkPaths.CONTROLLER_EPOCH, sound);
        ZkTesting.await(
                "a controller once the epoch is readable",
                () -> Stream.concat(ra.events.stream(), rb.events.stream()).anyMatch(e -> e instanceof FencedWriter));
        assertEquals(1, ControllerEpochDescriptor.epoch(ca.getData().forPath(ZkPaths.CONTROLLER_EPOCH)));
    }

    /** One more than the highest sequence number among the election's latch znodes: how many were created. */
    private static long latchNodesEverCreated(CuratorFramework c) {
        try {
            return c.getChildren().forPath(ZkPaths.CONTROLLER_ELECTION).stream()
                            .mapToLong(name -> Long.parseLong(name.substring(name.length() - 10)))
                            .max()
                            .orElse(-1)
                    + 1;
        } catch (KeeperException.NoNodeException e) {
            return 0; // the latches create the election's parent as they start
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldFenceFormerControllerWhoseSessionExpired() throws Exception {
        CuratorFramework ca = client();
        CuratorFramework cb = client();
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        election(ca, 1, ra);
        FencedWriter paused = ra.awaitElected();
        election(cb, 2, rb);
        paused.commit("first write", List.of(ca.transactionOp().create().forPath("/owned-by-1")), 0);
        assertNotNull(cb.checkExists().forPath("/owned-by-1"));

        // Controller 1 "pauses" past its session timeout: its session expires, controller 2 is elected.
        ZkTesting.expireSession(ca);
        FencedWriter successor = rb.awaitElected();
        assertEquals(paused.epoch() + 1, successor.epoch());

        // Controller 1 wakes up still holding its old writer: nothing it tries lands.
        ControllerFencedException fenced = assertThrows(
                ControllerFencedException.class,
                () -> paused.commit(
                        "late write", List.of(ca.transactionOp().create().forPath("/late-write-of-1")), 0));
        assertEquals(paused.epoch(), fenced.epoch());
        assertThrows(
                ControllerFencedException.class,
                () -> paused.commit(
                        "late delete", List.of(ca.transactionOp().delete().forPath("/owned-by-1")), 0));
        assertNull(cb.checkExists().forPath("/late-write-of-1"));
        assertNotNull(cb.checkExists().forPath("/owned-by-1"));

        successor.commit("successor write", List.of(cb.transactionOp().create().forPath("/owned-by-2")), 0);
        assertNotNull(cb.checkExists().forPath("/owned-by-2"));
    }

    @Test
    void shouldReportOtherFailuresOfAFencedMultiAsThemselves() throws Exception {
        CuratorFramework ca = client();
        Recorder ra = new Recorder();
        election(ca, 1, ra);
        FencedWriter w = ra.awaitElected();
        assertThrows(
                org.apache.zookeeper.KeeperException.NoNodeException.class,
                () -> w.commit(
                        "delete missing", List.of(ca.transactionOp().delete().forPath("/does-not-exist")), 0));
    }
}
