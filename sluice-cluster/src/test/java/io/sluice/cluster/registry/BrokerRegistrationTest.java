package io.sluice.cluster.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.CorruptStateException;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.zk.ZkPaths;
import io.sluice.codec.endpoint.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerRegistrationTest {
    @TempDir
    Path dir;

    TestingServer server;
    CuratorFramework a;
    CuratorFramework b;

    @BeforeEach
    void start() throws Exception {
        server = ZkTesting.server(dir);
        a = ZkTesting.client(server.getConnectString());
        b = ZkTesting.client(server.getConnectString());
    }

    @AfterEach
    void stop() throws Exception {
        b.close();
        a.close();
        server.close();
    }

    @Test
    void shouldRegisterEphemeralZnodeWithIdRackAndEndpointBytes() throws Exception {
        BrokerInfo self = new BrokerInfo(
                7,
                "rack-a",
                List.of("PLAINTEXT", "INTERNAL"),
                List.of(Endpoint.of("10.0.0.7", 9092), Endpoint.of("broker7.internal", 19092)));
        try (BrokerRegistration reg = new BrokerRegistration(a, self, ZkTesting.SESSION)) {
            reg.register();
            Stat stat = new Stat();
            byte[] data = b.getData().storingStatIn(stat).forPath(ZkPaths.broker(7));
            assertEquals(a.getZookeeperClient().getZooKeeper().getSessionId(), stat.getEphemeralOwner());
            assertEquals(self, StateSerializer.decodeBroker(ZkPaths.broker(7), data));
        }
        assertNull(b.checkExists().forPath(ZkPaths.broker(7)), "a clean close deletes the registration");
    }

    @Test
    void shouldRefuseDuplicateBrokerIdNamingIdAndHolderEndpoint() throws Exception {
        try (BrokerRegistration first = new BrokerRegistration(a, ZkTesting.broker(3, ""), ZkTesting.SESSION);
                BrokerRegistration second = new BrokerRegistration(
                        b, BrokerInfo.of(3, "", Endpoint.of("10.9.9.9", 9999)), ZkTesting.SESSION)) {
            first.register();
            DuplicateBrokerIdException e = assertThrows(DuplicateBrokerIdException.class, second::register);
            assertEquals(3, e.brokerId());
            assertEquals(ZkTesting.broker(3, "").primaryEndpoint(), e.holderEndpoint());
            assertTrue(
                    e.getMessage().contains("broker.id 3")
                            && e.getMessage()
                                    .contains(ZkTesting.broker(3, "")
                                            .primaryEndpoint()
                                            .toString()),
                    e.getMessage());
        }
    }

    @Test
    void shouldWaitOutOwnStaleRegistrationThenTakeIt() throws Exception {
        BrokerInfo self = ZkTesting.broker(4, "");
        // The previous run of this broker died (kill -9): its registration lingers until its session expires.
        a.create()
                .creatingParentContainersIfNeeded()
                .withMode(org.apache.zookeeper.CreateMode.EPHEMERAL)
                .forPath(ZkPaths.broker(4), StateSerializer.encodeBroker(self));
        // The restarted broker (a new session, same data) waits for the old session to expire, then registers.
        Thread killer = new Thread(() -> {
            try {
                Thread.sleep(200);
                ZkTesting.expireSession(a);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        try (BrokerRegistration fresh = new BrokerRegistration(b, self, Duration.ofSeconds(30))) {
            killer.start();
            fresh.register();
            Stat stat = b.checkExists().forPath(ZkPaths.broker(4));
            assertEquals(b.getZookeeperClient().getZooKeeper().getSessionId(), stat.getEphemeralOwner());
            killer.join();
        }
    }

    @Test
    void shouldReRegisterAfterSessionLoss() throws Exception {
        try (BrokerRegistration reg = new BrokerRegistration(a, ZkTesting.broker(5, ""), ZkTesting.SESSION)) {
            reg.register();
            long before = b.checkExists().forPath(ZkPaths.broker(5)).getEphemeralOwner();
            ZkTesting.expireSession(a);
            ZkTesting.await("re-registration under a new session", () -> {
                try {
                    Stat s = b.checkExists().forPath(ZkPaths.broker(5));
                    return s != null && s.getEphemeralOwner() != before;
                } catch (Exception e) {
                    return false;
                }
            });
            assertNotEquals(before, b.checkExists().forPath(ZkPaths.broker(5)).getEphemeralOwner());
            assertNull(reg.lastError());
        }
    }

    @Test
    void shouldRejectGarbageRegistrationBytesWithTypedError() {
        byte[] good = StateSerializer.encodeBroker(ZkTesting.broker(9, "r"));
        for (int len = 0; len < good.length; len++) {
            byte[] truncated = Arrays.copyOf(good, len);
            assertThrows(
                    CorruptStateException.class,
                    () -> StateSerializer.decodeBroker("/x", truncated),
                    "truncated at " + len);
        }
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        assertThrows(CorruptStateException.class, () -> StateSerializer.decodeBroker("/x", trailing));
        Random random = new Random(42);
        for (int i = 0; i < 2000; i++) {
            byte[] garbage = new byte[random.nextInt(64)];
            random.nextBytes(garbage);
            try {
                BrokerInfo info = StateSerializer.decodeBroker("/x", garbage);
                assertNotNull(info);
            } catch (CorruptStateException expected) {
                assertNotNull(expected.getMessage());
            }
        }
    }
}
