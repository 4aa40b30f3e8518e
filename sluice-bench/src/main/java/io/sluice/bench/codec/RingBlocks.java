package io.sluice.bench.codec;

import java.util.Arrays;

/**
 * The block storage of a {@link RingForest}: its leaf and inner blocks in primitive arrays shared by the K rings, no
 * node objects, with free lists so that freed blocks are reused. Leaf block b holds up to {@link #LEAF_KEYS} keys
 * sorted from {@code b * LEAF_KEYS} and links to the next and previous leaf of its ring; inner block b holds up to
 * {@link #INNER_CHILDREN} children from {@code b * INNER_CHILDREN} and, at the same index, the separator key after
 * each child but the last. The arrays grow by doubling (the only allocation), so the forest reads them through these
 * fields rather than caching them. Not thread-safe; one per {@link RingForest}.
 */
final class RingBlocks {
    /** Keys per leaf block. */
    static final int LEAF_KEYS = 64;
    /** Children per inner block. */
    static final int INNER_CHILDREN = 32;

    private static final int NONE = -1;
    private static final int INITIAL_LEAVES_PER_RING = 2;

    /** Leaf block b: its keys sorted from b * LEAF_KEYS; see {@link RingKeyOrder#key}. */
    long[] leafKeys;

    int[] leafCount;
    int[] leafNext;
    int[] leafPrev;
    private int leafBlocks;
    private int freeLeaf = NONE;
    private int leavesInUse;

    /** Inner block b: separator key i (i < count - 1) at b * INNER_CHILDREN + i, child i at the same index. */
    long[] innerKeys;

    int[] innerChildren;
    int[] innerCount;
    private int innerBlocks;
    private int freeInner = NONE;
    private int innersInUse;

    RingBlocks(int rings) {
        int leaves = INITIAL_LEAVES_PER_RING * rings;
        leafKeys = new long[leaves * LEAF_KEYS];
        leafCount = new int[leaves];
        leafNext = new int[leaves];
        leafPrev = new int[leaves];
        int inners = rings;
        innerKeys = new long[inners * INNER_CHILDREN];
        innerChildren = new int[inners * INNER_CHILDREN];
        innerCount = new int[inners];
    }

    /** Blocks (leaves and inner) currently in the rings, not counting freed ones. */
    int blocksInUse() {
        return leavesInUse + innersInUse;
    }

    /** An empty leaf block, reused from the free list or appended (doubling the leaf arrays when full). */
    int newLeaf() {
        leavesInUse++;
        if (freeLeaf != NONE) {
            int b = freeLeaf;
            freeLeaf = leafNext[b];
            return b;
        }
        if (leafBlocks == leafCount.length) {
            int blocks = leafBlocks * 2;
            leafKeys = Arrays.copyOf(leafKeys, blocks * LEAF_KEYS);
            leafCount = Arrays.copyOf(leafCount, blocks);
            leafNext = Arrays.copyOf(leafNext, blocks);
            leafPrev = Arrays.copyOf(leafPrev, blocks);
        }
        return leafBlocks++;
    }

    /** A free leaf block's next link links the free list. */
    void freeLeaf(int b) {
        leavesInUse--;
        leafCount[b] = 0;
        leafNext[b] = freeLeaf;
        freeLeaf = b;
    }

    /** An inner block, reused from the free list or appended (doubling the inner arrays when full). */
    int newInner() {
        innersInUse++;
        if (freeInner != NONE) {
            int b = freeInner;
            freeInner = innerCount[b];
            return b;
        }
        if (innerBlocks == innerCount.length) {
            int blocks = innerBlocks * 2;
            innerKeys = Arrays.copyOf(innerKeys, blocks * INNER_CHILDREN);
            innerChildren = Arrays.copyOf(innerChildren, blocks * INNER_CHILDREN);
            innerCount = Arrays.copyOf(innerCount, blocks);
        }
        return innerBlocks++;
    }

    /** A free inner block's count field links the free list. */
    void freeInner(int b) {
        innersInUse--;
        innerCount[b] = freeInner;
        freeInner = b;
    }
}
