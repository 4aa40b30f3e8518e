package io.sluice.cluster.node;

import io.sluice.cluster.state.CorruptStateException;
import io.sluice.cluster.zk.ZkPaths;
import java.nio.ByteBuffer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Reserves blocks of producer ids for the whole cluster in {@code /latest_producer_id_block}, which holds the first
 * id not yet reserved (8 bytes, big-endian). A reservation is a compare-and-set on the znode version, so two brokers
 * never get overlapping blocks and a restarted broker never reuses an id.
 *
 * <p>Thread-safe (every call is one ZooKeeper compare-and-set loop).
 */
public final class ProducerIdBlocks {
    private final CuratorFramework client;

    public ProducerIdBlocks(CuratorFramework client) {
        this.client = client;
    }

    /**
     * Reserves {@code size} ids.
     *
     * @return the first id of the block; the block is {@code [first, first + size)}
     * @throws CorruptStateException when the znode does not hold one non-negative id
     */
    public long reserve(int size) throws Exception {
        if (size <= 0) {
            throw new IllegalArgumentException("block size must be > 0, was " + size);
        }
        while (true) {
            Stat stat = new Stat();
            byte[] current;
            try {
                current = client.getData().storingStatIn(stat).forPath(ZkPaths.PRODUCER_ID_BLOCK);
            } catch (KeeperException.NoNodeException absent) {
                try {
                    client.create().creatingParentContainersIfNeeded().forPath(ZkPaths.PRODUCER_ID_BLOCK, encode(size));
                    return 0;
                } catch (KeeperException.NodeExistsException raced) {
                    continue;
                }
            }
            long first = decode(current);
            try {
                client.setData()
                        .withVersion(stat.getVersion())
                        .forPath(ZkPaths.PRODUCER_ID_BLOCK, encode(first + size));
                return first;
            } catch (KeeperException.BadVersionException raced) {
                // Another broker reserved a block meanwhile: read its end and try again.
            }
        }
    }

    private static byte[] encode(long nextUnreserved) {
        return ByteBuffer.allocate(Long.BYTES).putLong(0, nextUnreserved).array();
    }

    private static long decode(byte[] bytes) {
        if (bytes == null || bytes.length != Long.BYTES) {
            throw new CorruptStateException(ZkPaths.PRODUCER_ID_BLOCK + ": " + (bytes == null ? 0 : bytes.length)
                    + " bytes, expected " + Long.BYTES);
        }
        long next = ByteBuffer.wrap(bytes).getLong(0);
        if (next < 0) {
            throw new CorruptStateException(ZkPaths.PRODUCER_ID_BLOCK + ": negative next producer id " + next);
        }
        return next;
    }
}
