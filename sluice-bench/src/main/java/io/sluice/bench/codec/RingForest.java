package io.sluice.bench.codec;

import static io.sluice.bench.codec.RingBlocks.INNER_CHILDREN;
import static io.sluice.bench.codec.RingBlocks.LEAF_KEYS;
import static io.sluice.bench.codec.RingKeyOrder.key;
import static io.sluice.bench.codec.RingKeyOrder.slot;

import io.sluice.codec.endpoint.Endpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * The K rings of a {@link MembershipView}: ring k is a B+tree of keys (ring hash under seed k, member slot), ordered by
 * the hash and, for equal hashes, by the slot's endpoint bytes ({@link RingKeyOrder}).
 *
 * <p>All blocks live in primitive arrays shared by the K rings ({@link RingBlocks}), no node objects. A leaf block
 * holds up to {@link RingBlocks#LEAF_KEYS} keys sorted; the leaves of a ring form a circular doubly linked list, so a
 * successor or predecessor across a block boundary, or wrapping around the ring, is one link. An inner block holds up
 * to {@link RingBlocks#INNER_CHILDREN} children and between them separators, each the exact least key of the subtree
 * on its right (so its slot is always a live member). Inserts split a full block in two halves; removes merge a block
 * that falls below a quarter full with a sibling or borrow from it, and collapse a root of one child; freed blocks go
 * to free lists and are reused. So every block but a root is at least a quarter full, the height is O(log N), insert
 * and remove are O(log N) per ring, and nothing is allocated beyond amortized array growth. Within a block a key's
 * position is found by a linear scan ({@link RingKeyOrder#rank}); an insert shifts the block's tail with one array
 * copy. Inserts descend the K rings' inner levels in lockstep (measured a few per cent faster than ring after ring).
 * Not thread-safe; one per {@link MembershipView}.
 */
final class RingForest {
    /** A non-root block below this many keys (children) is merged with or refilled from a sibling. */
    static final int LEAF_MIN = LEAF_KEYS / 4;

    static final int INNER_MIN = INNER_CHILDREN / 4;
    /** Inner levels: INNER_MIN^30 far exceeds any int-indexed membership. */
    private static final int MAX_HEIGHT = 30;

    private final int rings;
    private final RingKeyOrder order;
    private final RingBlocks blocks;

    /** Per ring: the root block (a leaf when the height is 0) and the number of inner levels above the leaves. */
    private final int[] root;

    private final int[] height;

    /** Scratch of one ring's insert or remove: the inner block and the child index taken at each level. */
    private final int[] pathBlock = new int[MAX_HEIGHT];

    private final int[] pathIndex = new int[MAX_HEIGHT];
    /** Scratch of a lockstep insert: per ring, the key's hash and the block reached. */
    private final long[] keyHash;

    private final int[] reached;
    /** Scratch of an inner split: the full block's content plus the new separator and child. */
    private final long[] splitKeys = new long[INNER_CHILDREN];

    private final int[] splitChildren = new int[INNER_CHILDREN + 1];

    RingForest(int rings, long hashMask, Endpoint[] endpoints) {
        this.rings = rings;
        this.order = new RingKeyOrder(rings, hashMask, endpoints);
        this.blocks = new RingBlocks(rings);
        this.keyHash = new long[rings];
        this.reached = new int[rings];
        this.root = new int[rings];
        this.height = new int[rings];
        for (int k = 0; k < rings; k++) {
            int b = blocks.newLeaf();
            blocks.leafNext[b] = b;
            blocks.leafPrev[b] = b;
            root[k] = b;
        }
    }

    void useEndpoints(Endpoint[] bySlot) {
        order.useEndpoints(bySlot);
    }

    /** Blocks (leaves and inner) currently in the rings, not counting freed ones. */
    int blocksInUse() {
        return blocks.blocksInUse();
    }

    /** Inner levels above ring k's leaves. */
    int height(int k) {
        return height[k];
    }

    /** Inserts slot s (endpoint e, not yet in any ring) into every ring. */
    void insert(int s, Endpoint e) {
        long base = e.baseHash();
        int levels = 0;
        for (int k = 0; k < rings; k++) {
            keyHash[k] = order.ringHash(base, k);
            reached[k] = root[k];
            levels = Math.max(levels, height[k]);
        }
        // inner levels in lockstep (a ring of lower height joins in later), so the K rings' loads overlap
        for (int level = 0; level < levels; level++) {
            for (int k = 0; k < rings; k++) {
                if (level >= levels - height[k]) {
                    reached[k] = child(k, reached[k], keyHash[k], e);
                }
            }
        }
        for (int k = 0; k < rings; k++) {
            insertIntoLeaf(k, reached[k], keyHash[k], s, e);
        }
    }

    /** Removes slot s (endpoint e, in every ring) from every ring. */
    void remove(int s, Endpoint e) {
        long base = e.baseHash();
        for (int k = 0; k < rings; k++) {
            remove(k, order.ringHash(base, k), s, e);
        }
    }

    /** The least member after (h, e) in ring k, wrapping; the ring must hold a member other than e. */
    Endpoint successor(int k, Endpoint e) {
        long h = order.ringHash(e.baseHash(), k);
        int b = leafOf(k, h, e);
        int pos = order.rank(blocks.leafKeys, b * LEAF_KEYS, blocks.leafCount[b], k, h, e, true);
        if (pos == blocks.leafCount[b]) {
            b = blocks.leafNext[b];
            pos = 0;
        }
        return order.endpoint(blocks.leafKeys[b * LEAF_KEYS + pos]);
    }

    /** The greatest member before (h, e) in ring k, wrapping; the ring must hold a member other than e. */
    Endpoint predecessor(int k, Endpoint e) {
        long h = order.ringHash(e.baseHash(), k);
        int b = leafOf(k, h, e);
        int pos = order.rank(blocks.leafKeys, b * LEAF_KEYS, blocks.leafCount[b], k, h, e, false);
        if (pos == 0) {
            b = blocks.leafPrev[b];
            pos = blocks.leafCount[b];
        }
        return order.endpoint(blocks.leafKeys[b * LEAF_KEYS + pos - 1]);
    }

    /** The members of ring k in order. */
    List<Endpoint> ring(int k, int size) {
        List<Endpoint> out = new ArrayList<>(size);
        int first = leftmostLeaf(k);
        int b = first;
        do {
            for (int i = b * LEAF_KEYS, end = i + blocks.leafCount[b]; i < end; i++) {
                out.add(order.endpoint(blocks.leafKeys[i]));
            }
            b = blocks.leafNext[b];
        } while (b != first);
        return out;
    }

    /**
     * Checks every invariant of the K rings holding {@code size} members ({@link RingStructureCheck}). Throws
     * IllegalStateException naming the first broken one.
     */
    void checkStructure(int size) {
        new RingStructureCheck(blocks, order).check(root, height, size);
    }

    // ---- descent ----------------------------------------------------------------------------------------------

    /** The child of inner block b whose subtree holds (h, e): the one after every separator not above the key. */
    private int child(int k, int b, long h, Endpoint e) {
        int base = b * INNER_CHILDREN;
        return blocks.innerChildren[base + order.rank(blocks.innerKeys, base, blocks.innerCount[b] - 1, k, h, e, true)];
    }

    private int leafOf(int k, long h, Endpoint e) {
        int b = root[k];
        for (int level = height[k]; level > 0; level--) {
            b = child(k, b, h, e);
        }
        return b;
    }

    private int leftmostLeaf(int k) {
        int b = root[k];
        for (int level = height[k]; level > 0; level--) {
            b = blocks.innerChildren[b * INNER_CHILDREN];
        }
        return b;
    }

    /** Walks ring k down to (h, e), recording each inner block and child index in the path; returns the leaf. */
    private int descendRecording(int k, long h, Endpoint e) {
        int b = root[k];
        for (int level = 0; level < height[k]; level++) {
            int base = b * INNER_CHILDREN;
            int i = order.rank(blocks.innerKeys, base, blocks.innerCount[b] - 1, k, h, e, true);
            pathBlock[level] = b;
            pathIndex[level] = i;
            b = blocks.innerChildren[base + i];
        }
        return b;
    }

    // ---- insert -----------------------------------------------------------------------------------------------

    private void insertIntoLeaf(int k, int b, long h, int s, Endpoint e) {
        int count = blocks.leafCount[b];
        int base = b * LEAF_KEYS;
        int pos = order.rank(blocks.leafKeys, base, count, k, h, e, false);
        if (count < LEAF_KEYS) {
            putInLeaf(b, pos, key(h, s));
            return;
        }
        // full: the lockstep descent recorded no path; record it now (one split per LEAF_KEYS / 2 inserts)
        descendRecording(k, h, e);
        int r = blocks.newLeaf();
        int half = LEAF_KEYS / 2;
        int moved = LEAF_KEYS - half;
        System.arraycopy(blocks.leafKeys, base + half, blocks.leafKeys, r * LEAF_KEYS, moved);
        blocks.leafCount[b] = half;
        blocks.leafCount[r] = moved;
        int after = blocks.leafNext[b];
        blocks.leafNext[b] = r;
        blocks.leafPrev[r] = b;
        blocks.leafNext[r] = after;
        blocks.leafPrev[after] = r;
        if (pos <= half) {
            putInLeaf(b, pos, key(h, s));
        } else {
            putInLeaf(r, pos - half, key(h, s));
        }
        insertIntoParent(k, height[k] - 1, b, blocks.leafKeys[r * LEAF_KEYS], r);
    }

    private void putInLeaf(int b, int pos, long key) {
        int at = b * LEAF_KEYS + pos;
        System.arraycopy(blocks.leafKeys, at, blocks.leafKeys, at + 1, blocks.leafCount[b] - pos);
        blocks.leafKeys[at] = key;
        blocks.leafCount[b]++;
    }

    /**
     * Puts separator {@code sep} and its right child {@code right} after {@code left} into the inner block at path
     * level {@code level} of ring k, splitting full blocks upwards; level -1 means left was the root, so a new root is
     * made.
     */
    private void insertIntoParent(int k, int level, int left, long sep, int right) {
        while (level >= 0) {
            int p = pathBlock[level];
            int i = pathIndex[level];
            int count = blocks.innerCount[p];
            int base = p * INNER_CHILDREN;
            if (count < INNER_CHILDREN) {
                int tail = count - 1 - i;
                System.arraycopy(blocks.innerKeys, base + i, blocks.innerKeys, base + i + 1, tail);
                System.arraycopy(blocks.innerChildren, base + i + 1, blocks.innerChildren, base + i + 2, tail);
                blocks.innerKeys[base + i] = sep;
                blocks.innerChildren[base + i + 1] = right;
                blocks.innerCount[p] = count + 1;
                return;
            }
            // full: lay out its INNER_CHILDREN children plus the new one in the scratch, then halve
            int seps = INNER_CHILDREN - 1;
            System.arraycopy(blocks.innerKeys, base, splitKeys, 0, i);
            splitKeys[i] = sep;
            System.arraycopy(blocks.innerKeys, base + i, splitKeys, i + 1, seps - i);
            System.arraycopy(blocks.innerChildren, base, splitChildren, 0, i + 1);
            splitChildren[i + 1] = right;
            System.arraycopy(blocks.innerChildren, base + i + 1, splitChildren, i + 2, seps - i);
            int leftChildren = (INNER_CHILDREN + 1) / 2;
            int rightChildren = INNER_CHILDREN + 1 - leftChildren;
            int q = blocks.newInner();
            int qb = q * INNER_CHILDREN;
            System.arraycopy(splitKeys, 0, blocks.innerKeys, base, leftChildren - 1);
            System.arraycopy(splitChildren, 0, blocks.innerChildren, base, leftChildren);
            blocks.innerCount[p] = leftChildren;
            System.arraycopy(splitKeys, leftChildren, blocks.innerKeys, qb, rightChildren - 1);
            System.arraycopy(splitChildren, leftChildren, blocks.innerChildren, qb, rightChildren);
            blocks.innerCount[q] = rightChildren;
            sep = splitKeys[leftChildren - 1];
            left = p;
            right = q;
            level--;
        }
        if (height[k] == MAX_HEIGHT) {
            throw new IllegalStateException("ring " + k + " height would exceed " + MAX_HEIGHT);
        }
        int r = blocks.newInner();
        int rb = r * INNER_CHILDREN;
        blocks.innerChildren[rb] = left;
        blocks.innerChildren[rb + 1] = right;
        blocks.innerKeys[rb] = sep;
        blocks.innerCount[r] = 2;
        root[k] = r;
        height[k]++;
    }

    // ---- remove -----------------------------------------------------------------------------------------------

    private void remove(int k, long h, int s, Endpoint e) {
        int b = descendRecording(k, h, e);
        int base = b * LEAF_KEYS;
        int count = blocks.leafCount[b];
        int pos = order.rank(blocks.leafKeys, base, count, k, h, e, false);
        if (pos == count || slot(blocks.leafKeys[base + pos]) != s) {
            throw new IllegalStateException("slot " + s + " (" + e + ") missing from ring " + k);
        }
        System.arraycopy(blocks.leafKeys, base + pos + 1, blocks.leafKeys, base + pos, count - pos - 1);
        blocks.leafCount[b] = --count;
        if (pos == 0 && count > 0) {
            replaceSeparator(k, blocks.leafKeys[base]);
        }
        if (height[k] > 0 && count < LEAF_MIN) {
            refillLeaf(k, b);
        }
    }

    /**
     * The removed key was the least of its leaf, so it is the separator in the nearest ancestor where the path turned
     * right (if any: the least key of a ring separates nothing); the leaf's new least key takes its place.
     */
    private void replaceSeparator(int k, long least) {
        for (int level = height[k] - 1; level >= 0; level--) {
            int i = pathIndex[level];
            if (i > 0) {
                blocks.innerKeys[pathBlock[level] * INNER_CHILDREN + i - 1] = least;
                return;
            }
        }
    }

    /** Leaf b of ring k fell below {@link #LEAF_MIN}: merge it with a sibling or borrow keys from one. */
    private void refillLeaf(int k, int b) {
        int level = height[k] - 1;
        int p = pathBlock[level];
        int i = pathIndex[level];
        int pb = p * INNER_CHILDREN;
        int sepIndex = i > 0 ? i - 1 : 0;
        int left = blocks.innerChildren[pb + sepIndex];
        int right = blocks.innerChildren[pb + sepIndex + 1];
        int lc = blocks.leafCount[left];
        int rc = blocks.leafCount[right];
        int lb = left * LEAF_KEYS;
        int rb = right * LEAF_KEYS;
        if (lc + rc <= LEAF_KEYS) {
            System.arraycopy(blocks.leafKeys, rb, blocks.leafKeys, lb + lc, rc);
            blocks.leafCount[left] = lc + rc;
            int after = blocks.leafNext[right];
            blocks.leafNext[left] = after;
            blocks.leafPrev[after] = left;
            blocks.freeLeaf(right);
            removeFromInner(k, level, sepIndex);
            return;
        }
        if (lc < rc) {
            int n = (rc - lc) / 2;
            System.arraycopy(blocks.leafKeys, rb, blocks.leafKeys, lb + lc, n);
            System.arraycopy(blocks.leafKeys, rb + n, blocks.leafKeys, rb, rc - n);
            blocks.leafCount[left] = lc + n;
            blocks.leafCount[right] = rc - n;
        } else {
            int n = (lc - rc) / 2;
            System.arraycopy(blocks.leafKeys, rb, blocks.leafKeys, rb + n, rc);
            System.arraycopy(blocks.leafKeys, lb + lc - n, blocks.leafKeys, rb, n);
            blocks.leafCount[left] = lc - n;
            blocks.leafCount[right] = rc + n;
        }
        blocks.innerKeys[pb + sepIndex] = blocks.leafKeys[rb];
    }

    /**
     * Drops separator {@code sep} and the child after it from the inner block at path level {@code level} of ring k,
     * then restores the block's minimum: collapse a root of one child, or merge with or borrow from a sibling.
     */
    private void removeFromInner(int k, int level, int sep) {
        while (true) {
            int p = pathBlock[level];
            int pb = p * INNER_CHILDREN;
            int count = blocks.innerCount[p];
            int tail = count - 2 - sep;
            System.arraycopy(blocks.innerKeys, pb + sep + 1, blocks.innerKeys, pb + sep, tail);
            System.arraycopy(blocks.innerChildren, pb + sep + 2, blocks.innerChildren, pb + sep + 1, tail);
            blocks.innerCount[p] = --count;
            if (level == 0) {
                if (count == 1) {
                    root[k] = blocks.innerChildren[pb];
                    height[k]--;
                    blocks.freeInner(p);
                }
                return;
            }
            if (count >= INNER_MIN) {
                return;
            }
            int g = pathBlock[level - 1];
            int i = pathIndex[level - 1];
            int gb = g * INNER_CHILDREN;
            int gSep = i > 0 ? i - 1 : 0;
            int left = blocks.innerChildren[gb + gSep];
            int right = blocks.innerChildren[gb + gSep + 1];
            int lc = blocks.innerCount[left];
            int rc = blocks.innerCount[right];
            if (lc + rc > INNER_CHILDREN) {
                rotate(gb + gSep, left, right, lc < rc);
                return;
            }
            // merge: left's children, the grandparent's separator, right's children
            int lb = left * INNER_CHILDREN;
            int rb = right * INNER_CHILDREN;
            blocks.innerKeys[lb + lc - 1] = blocks.innerKeys[gb + gSep];
            System.arraycopy(blocks.innerKeys, rb, blocks.innerKeys, lb + lc, rc - 1);
            System.arraycopy(blocks.innerChildren, rb, blocks.innerChildren, lb + lc, rc);
            blocks.innerCount[left] = lc + rc;
            blocks.freeInner(right);
            level--;
            sep = gSep;
        }
    }

    /** Moves one child between inner siblings through their parent's separator at {@code sep}. */
    private void rotate(int sep, int left, int right, boolean toLeft) {
        int lb = left * INNER_CHILDREN;
        int rb = right * INNER_CHILDREN;
        int lc = blocks.innerCount[left];
        int rc = blocks.innerCount[right];
        long[] keys = blocks.innerKeys;
        int[] children = blocks.innerChildren;
        if (toLeft) {
            keys[lb + lc - 1] = keys[sep];
            children[lb + lc] = children[rb];
            keys[sep] = keys[rb];
            System.arraycopy(keys, rb + 1, keys, rb, rc - 2);
            System.arraycopy(children, rb + 1, children, rb, rc - 1);
            blocks.innerCount[left] = lc + 1;
            blocks.innerCount[right] = rc - 1;
        } else {
            System.arraycopy(keys, rb, keys, rb + 1, rc - 1);
            System.arraycopy(children, rb, children, rb + 1, rc);
            keys[rb] = keys[sep];
            children[rb] = children[lb + lc - 1];
            keys[sep] = keys[lb + lc - 2];
            blocks.innerCount[left] = lc - 1;
            blocks.innerCount[right] = rc + 1;
        }
    }
}
