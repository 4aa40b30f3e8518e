package io.sluice.broker.produce;

import java.io.IOException;

/**
 * Hands out producer ids that are never reused across brokers, restarts or crashes: ids come in
 * blocks reserved cluster-wide (in ZooKeeper) before any id of a block is handed out. A restart
 * reserves a new block and skips the unused rest of the old one.
 *
 * <p>Thread-safe.
 */
public final class ProducerIdManager {
    /** Ids reserved per ZooKeeper write; bounds the writes to one per this many new producers. */
    static final int BLOCK_SIZE = 1000;

    /** Reserves {@code size} ids cluster-wide and returns the first. */
    @FunctionalInterface
    public interface BlockSource {
        long reserve(int size) throws Exception;
    }

    private final BlockSource blocks;
    private long nextId;
    private long blockEnd;

    public ProducerIdManager(BlockSource blocks) {
        this.blocks = blocks;
    }

    public synchronized long nextProducerId() throws IOException {
        if (nextId >= blockEnd) {
            long first;
            try {
                first = blocks.reserve(BLOCK_SIZE);
            } catch (IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException("cannot reserve a block of producer ids: " + e.getMessage(), e);
            }
            nextId = first;
            blockEnd = first + BLOCK_SIZE;
        }
        return nextId++;
    }
}
