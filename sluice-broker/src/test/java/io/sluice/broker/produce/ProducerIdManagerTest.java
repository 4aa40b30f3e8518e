package io.sluice.broker.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.node.ProducerIdBlocks;
import io.sluice.cluster.zk.ClusterConnection;
import io.sluice.cluster.zk.EmbeddedZooKeeper;
import io.sluice.cluster.zk.ZkPaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducerIdManagerTest {
    @TempDir
    Path dir;

    @Test
    void shouldNeverReuseAnIdAcrossBrokersOrRestarts() throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"));
                ClusterConnection a = ClusterConnection.open(zk.connectString() + "/ids", ClusterConfig.defaults());
                ClusterConnection b = ClusterConnection.open(zk.connectString() + "/ids", ClusterConfig.defaults())) {
            Set<Long> seen = new HashSet<>();
            for (int restart = 0; restart < 3; restart++) {
                ProducerIdManager first = new ProducerIdManager(new ProducerIdBlocks(a.client())::reserve);
                ProducerIdManager second = new ProducerIdManager(new ProducerIdBlocks(b.client())::reserve);
                for (int i = 0; i < ProducerIdManager.BLOCK_SIZE + 10; i++) {
                    assertTrue(seen.add(first.nextProducerId()), "an id was handed out twice");
                    assertTrue(seen.add(second.nextProducerId()), "an id was handed out twice");
                }
            }
            assertEquals(6 * (ProducerIdManager.BLOCK_SIZE + 10), seen.size());
        }
    }

    @Test
    void shouldRefuseACorruptBlockRecord() throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"));
                ClusterConnection c = ClusterConnection.open(zk.connectString(), ClusterConfig.defaults())) {
            c.client().create().forPath(ZkPaths.PRODUCER_ID_BLOCK, new byte[] {1, 2, 3});
            ProducerIdManager ids = new ProducerIdManager(new ProducerIdBlocks(c.client())::reserve);
            IOException e = assertThrows(IOException.class, ids::nextProducerId);
            assertTrue(e.getMessage().contains("3 bytes, expected 8"), e.getMessage());
        }
    }
}
