package io.sluice.bench.codec;

import static io.sluice.bench.codec.RingBlocks.INNER_CHILDREN;
import static io.sluice.bench.codec.RingBlocks.LEAF_KEYS;
import static io.sluice.bench.codec.RingKeyOrder.key;
import static io.sluice.bench.codec.RingKeyOrder.slot;

import io.sluice.codec.endpoint.Endpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * For tests: checks every invariant of a {@link RingForest}'s K rings and throws IllegalStateException naming the first
 * broken one. Not thread-safe; made per check, on the forest's thread.
 */
final class RingStructureCheck {
    private final RingBlocks blocks;
    private final RingKeyOrder order;

    RingStructureCheck(RingBlocks blocks, RingKeyOrder order) {
        this.blocks = blocks;
        this.order = order;
    }

    /**
     * Checks the rings with roots {@code root} and heights {@code height} holding {@code size} members: keys strictly
     * ordered along each ring's leaf list, the list equal to the tree's leaf order, uniform leaf depth, block
     * occupancy, separators equal to the least key on their right, and the block count.
     */
    void check(int[] root, int[] height, int size) {
        int reached = 0;
        for (int k = 0; k < root.length; k++) {
            List<Integer> leaves = new ArrayList<>();
            reached += checkBlock(k, root[k], height[k], true, leaves);
            int keys = 0;
            for (int j = 0; j < leaves.size(); j++) {
                int b = leaves.get(j);
                int next = leaves.get((j + 1) % leaves.size());
                if (blocks.leafNext[b] != next || blocks.leafPrev[next] != b) {
                    throw new IllegalStateException("ring " + k + ": leaf list breaks after leaf " + b);
                }
                if (j + 1 < leaves.size() && compareKeys(k, b, blocks.leafCount[b] - 1, next, 0) >= 0) {
                    throw new IllegalStateException("ring " + k + ": leaf " + b + " does not order before " + next);
                }
                for (int i = 1; i < blocks.leafCount[b]; i++) {
                    if (compareKeys(k, b, i - 1, b, i) >= 0) {
                        throw new IllegalStateException("ring " + k + ": leaf " + b + " unordered at " + i);
                    }
                }
                keys += blocks.leafCount[b];
            }
            if (keys != size) {
                throw new IllegalStateException("ring " + k + " holds " + keys + " keys, size is " + size);
            }
        }
        if (reached != blocks.blocksInUse()) {
            throw new IllegalStateException("rings reach " + reached + " blocks, in use " + blocks.blocksInUse());
        }
    }

    /** Checks the subtree of block b ({@code levels} inner levels above its leaves); returns its block count. */
    private int checkBlock(int k, int b, int levels, boolean isRoot, List<Integer> leaves) {
        if (levels == 0) {
            int count = blocks.leafCount[b];
            if (count < (isRoot ? 0 : RingForest.LEAF_MIN) || count > LEAF_KEYS) {
                throw new IllegalStateException("ring " + k + ": leaf " + b + " holds " + count);
            }
            leaves.add(b);
            return 1;
        }
        int count = blocks.innerCount[b];
        if (count < (isRoot ? 2 : RingForest.INNER_MIN) || count > INNER_CHILDREN) {
            throw new IllegalStateException("ring " + k + ": inner block " + b + " has " + count + " children");
        }
        int reached = 1;
        for (int i = 0; i < count; i++) {
            int first = leaves.size();
            reached += checkBlock(k, blocks.innerChildren[b * INNER_CHILDREN + i], levels - 1, false, leaves);
            int least = leaves.get(first);
            if (i > 0 && blocks.innerKeys[b * INNER_CHILDREN + i - 1] != blocks.leafKeys[least * LEAF_KEYS]) {
                throw new IllegalStateException("ring " + k + ": separator " + (i - 1) + " of inner block " + b
                        + " is not the least key on its right");
            }
        }
        return reached;
    }

    /** Order in ring k of key i of leaf a against key j of leaf b; also checks each key's prefix. */
    private int compareKeys(int k, int a, int i, int b, int j) {
        long keyA = blocks.leafKeys[a * LEAF_KEYS + i];
        Endpoint ea = order.endpoint(keyA);
        long ha = order.ringHash(ea.baseHash(), k);
        if (key(ha, slot(keyA)) != keyA) {
            throw new IllegalStateException("ring " + k + ": leaf " + a + " key " + i + " has a wrong hash prefix");
        }
        return order.compare(k, ha, ea, slot(blocks.leafKeys[b * LEAF_KEYS + j]));
    }
}
