package io.sluice.cluster.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.registry.BrokerRegistration;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.zk.FaultyZkProxy;
import io.sluice.cluster.zk.ZkPaths;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registration deleted while a full scan reads the registrations, then made again before the watch's events are
 * read, is a bounce the controller must not miss. The tracker's ZooKeeper client goes through a proxy that holds the
 * scan's read of that registration until the test deleted it.
 */
class MembershipScanRaceTest {
    private static final int BROKER = 5;

    @TempDir
    Path dir;

    @Test
    void shouldNotMissABounceWhoseRegistrationWentAwayDuringAFullScan() throws Exception {
        try (TestingServer server = ZkTesting.server(dir);
                FaultyZkProxy proxy = new FaultyZkProxy(server.getPort());
                CuratorFramework brokerSession = ZkTesting.client(server.getConnectString());
                CuratorFramework viaProxy = ZkTesting.client(proxy.connectString())) {
            BrokerRegistration first =
                    new BrokerRegistration(brokerSession, ZkTesting.broker(BROKER, ""), ZkTesting.SESSION);
            first.register();
            DeltaRecord joined = new DeltaRecord();
            joined.prevSeq = ClusterState.EMPTY.appliedSeq();
            joined.joined.add(BrokerRecord.of(ZkTesting.broker(BROKER, "")));
            ClusterState state = ClusterState.EMPTY.apply(joined, 0);
            AtomicInteger reconcileAsks = new AtomicInteger();
            MembershipTracker tracker =
                    new MembershipTracker(viaProxy, 1, new ControllerStats(), reconcileAsks::incrementAndGet);
            tracker.start();
            try {
                FaultyZkProxy.HeldRequest scanRead =
                        proxy.holdNextRequest(FaultyZkProxy.EXISTS_OP_TYPE, ZkPaths.broker(BROKER));
                CompletableFuture<MembershipChange> scan = CompletableFuture.supplyAsync(() -> {
                    try {
                        return tracker.read(state, new DeltaRecord());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                ZkTesting.await("the scan reads the registration", scanRead::arrived);
                int asksBefore = reconcileAsks.get();
                first.close();
                scanRead.release();
                MembershipChange change = scan.get(60, TimeUnit.SECONDS);
                assertEquals(Set.of(BROKER), change.left, "gone when the scan read it: left");

                BrokerRegistration again =
                        new BrokerRegistration(brokerSession, ZkTesting.broker(BROKER, ""), ZkTesting.SESSION);
                again.register();
                // the deletion's event and the creation's
                ZkTesting.await("the registration's events", () -> reconcileAsks.get() >= asksBefore + 2);
                DeltaRecord leave = new DeltaRecord();
                leave.prevSeq = state.appliedSeq();
                leave.left = new int[] {BROKER};
                ClusterState published = state.apply(leave, 1);
                MembershipChange next = tracker.read(published, new DeltaRecord());
                assertEquals(Set.of(BROKER), next.joined, "the new registration joins");
                again.close();
            } finally {
                tracker.stop();
            }
        }
    }
}
