package io.sluice.cluster.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.registry.BrokerRegistration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectionTest {

    @Test
    void shouldParseHostListAndChroot() {
        ConnectString cs = ConnectString.parse("zk1:2181,zk2:2182/sluice/prod/");
        assertEquals("zk1:2181,zk2:2182", cs.hosts());
        assertEquals("sluice/prod", cs.chroot());
        assertTrue(cs.hasChroot());
        assertFalse(ConnectString.parse("localhost:2181").hasChroot());
    }

    @Test
    void shouldRejectMalformedConnectStrings() {
        for (String bad : new String[] {
            "", "  ", "/chroot", "host", "host:", "host:abc", "host:0", "host:70000", "a:1,b/x", "a:1//x"
        }) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> ConnectString.parse(bad), bad);
            assertNotNull(e.getMessage());
        }
    }

    @Test
    void shouldServeFromEmbeddedZooKeeperAndCreateChroot(@TempDir Path dir) throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"));
                ClusterConnection conn =
                        ClusterConnection.open(zk.connectString() + "/sluice/test", ZkTesting.config());
                CuratorFramework raw = ZkTesting.client(zk.connectString())) {
            assertTrue(zk.port() > 0);
            assertNotNull(raw.checkExists().forPath("/sluice/test"), "chroot created on connect");
            try (BrokerRegistration reg =
                    new BrokerRegistration(conn.client(), ZkTesting.broker(1, ""), ZkTesting.SESSION)) {
                reg.register();
                assertNotNull(raw.checkExists().forPath("/sluice/test/brokers/ids/1"), "paths live under the chroot");
                assertEquals(null, raw.checkExists().forPath("/brokers/ids/1"));
            }
        }
        assertTrue(Files.list(dir.resolve("zk")).findAny().isPresent(), "data kept under the data dir");
    }

    @Test
    void shouldFailWithTypedErrorWhenNoServerAnswers() {
        IOException e = assertThrows(
                IOException.class,
                () -> ClusterConnection.open(
                        "127.0.0.1:1", ZkTesting.config().withConnectionTimeout(java.time.Duration.ofSeconds(1))));
        assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
    }
}
