package io.sluice.bench.codec;

import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.endpoint.SeededHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The K rings of a {@link MembershipView}: ring k is a B+tree of keys (ring hash under seed k, member slot), ordered by
 * the hash and, for equal hashes, by the slot's endpoint bytes ({@link Endpoint#compareTo}).
 *
 * <p>All blocks live in primitive arrays shared by the K rings, no node objects. A key is one long: the ring hash's
 * high 32 bits above the slot (see {@link #key}), so a block is one run of longs and comparing prefixes is comparing
 * longs; equal prefixes (rare) are ordered by the full hash, recomputed from the slot's endpoint, then by bytes. A leaf
 * block holds up to {@link #LEAF_KEYS} keys sorted; the leaves of a ring form a circular doubly linked list, so a
 * successor or predecessor across a block boundary, or wrapping around the ring, is one link. An inner block holds up
 * to {@link #INNER_CHILDREN} children and between them separators, each the exact least key of the subtree on its
 * right (so its slot is always a live member). Inserts split a full block in two halves; removes merge a block that
 * falls below a quarter full with a sibling or borrow from it, and collapse a root of one child; freed blocks go to
 * free lists and are reused. So every block but a root is at least a quarter full, the height is O(log N), insert and
 * remove are O(log N) per ring, and nothing is allocated beyond amortized array growth. Within a block a key's
 * position is found by a linear scan that stops at the first key not below it (measured faster here than a branch-free
 * count of the whole block, interpolation from the block's first and last key, or a halving step first); an insert
 * shifts the block's tail with one array copy. Inserts descend the K rings' inner levels in lockstep (measured a few
 * per cent faster than ring after ring). Not thread-safe; one per {@link MembershipView}.
 */
final class RingForest {
    /** Keys per leaf block. */
    static final int LEAF_KEYS = 64;
    /** Children per inner block. */
    static final int INNER_CHILDREN = 32;
    /** A non-root block below this many keys (children) is merged with or refilled from a sibling. */
    static final int LEAF_MIN = LEAF_KEYS / 4;

    static final int INNER_MIN = INNER_CHILDREN / 4;
    /** Inner levels: INNER_MIN^30 far exceeds any int-indexed membership. */
    private static final int MAX_HEIGHT = 30;

    private static final int NONE = -1;
    private static final int INITIAL_LEAVES_PER_RING = 2;
    /** The ring hash's bits kept in a key, above the slot (see {@link #key}). */
    private static final long PREFIX = 0xFFFF_FFFF_0000_0000L;

    private final int rings;
    /** The mixed seed of each ring, so a ring hash is one mix of the endpoint's base hash. */
    private final long[] ringSeeds;
    /** Applied to every ring hash: all ones in production; tests narrow it to force equal hashes. */
    private final long hashMask;
    /** The endpoint of each slot, shared with the view (which replaces it when it grows). */
    private Endpoint[] endpoints;

    /** Per ring: the root block (a leaf when the height is 0) and the number of inner levels above the leaves. */
    private final int[] root;

    private final int[] height;

    /** Leaf block b: its keys sorted from b * LEAF_KEYS; see {@link #key}. */
    private long[] leafKeys;

    private int[] leafCount;
    private int[] leafNext;
    private int[] leafPrev;
    private int leafBlocks;
    private int freeLeaf = NONE;
    private int leavesInUse;

    /** Inner block b: separator key i (i < count - 1) at b * INNER_CHILDREN + i, child i at the same index. */
    private long[] innerKeys;

    private int[] innerChildren;
    private int[] innerCount;
    private int innerBlocks;
    private int freeInner = NONE;
    private int innersInUse;

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
        this.hashMask = hashMask;
        this.endpoints = endpoints;
        this.ringSeeds = new long[rings];
        for (int k = 0; k < rings; k++) {
            ringSeeds[k] = SeededHash.seedMix(k);
        }
        this.keyHash = new long[rings];
        this.reached = new int[rings];
        this.root = new int[rings];
        this.height = new int[rings];
        int leaves = INITIAL_LEAVES_PER_RING * rings;
        leafKeys = new long[leaves * LEAF_KEYS];
        leafCount = new int[leaves];
        leafNext = new int[leaves];
        leafPrev = new int[leaves];
        int inners = rings;
        innerKeys = new long[inners * INNER_CHILDREN];
        innerChildren = new int[inners * INNER_CHILDREN];
        innerCount = new int[inners];
        for (int k = 0; k < rings; k++) {
            int b = newLeaf();
            leafNext[b] = b;
            leafPrev[b] = b;
            root[k] = b;
        }
    }

    void useEndpoints(Endpoint[] bySlot) {
        this.endpoints = bySlot;
    }

    long ringHash(long baseHash, int k) {
        return SeededHash.seededByMix(baseHash, ringSeeds[k]) & hashMask;
    }

    /** Blocks (leaves and inner) currently in the rings, not counting freed ones. */
    int blocksInUse() {
        return leavesInUse + innersInUse;
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
            keyHash[k] = ringHash(base, k);
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
            remove(k, ringHash(base, k), s, e);
        }
    }

    /** The least member after (h, e) in ring k, wrapping; the ring must hold a member other than e. */
    Endpoint successor(int k, Endpoint e) {
        long h = ringHash(e.baseHash(), k);
        int b = leafOf(k, h, e);
        int pos = rank(leafKeys, b * LEAF_KEYS, leafCount[b], k, h, e, true);
        if (pos == leafCount[b]) {
            b = leafNext[b];
            pos = 0;
        }
        return endpoints[slot(leafKeys[b * LEAF_KEYS + pos])];
    }

    /** The greatest member before (h, e) in ring k, wrapping; the ring must hold a member other than e. */
    Endpoint predecessor(int k, Endpoint e) {
        long h = ringHash(e.baseHash(), k);
        int b = leafOf(k, h, e);
        int pos = rank(leafKeys, b * LEAF_KEYS, leafCount[b], k, h, e, false);
        if (pos == 0) {
            b = leafPrev[b];
            pos = leafCount[b];
        }
        return endpoints[slot(leafKeys[b * LEAF_KEYS + pos - 1])];
    }

    /** The members of ring k in order. */
    List<Endpoint> ring(int k, int size) {
        List<Endpoint> out = new ArrayList<>(size);
        int first = leftmostLeaf(k);
        int b = first;
        do {
            for (int i = b * LEAF_KEYS, end = i + leafCount[b]; i < end; i++) {
                out.add(endpoints[slot(leafKeys[i])]);
            }
            b = leafNext[b];
        } while (b != first);
        return out;
    }

    // ---- keys and search --------------------------------------------------------------------------------------

    /**
     * A stored key: the ring hash's high 32 bits above the slot. Keys with different prefixes order as their longs do;
     * equal prefixes (about one search in 2^32 / N) are ordered by the full ring hash, recomputed from the slot's
     * endpoint, then by its bytes.
     */
    private static long key(long h, int s) {
        return h & PREFIX | s;
    }

    private static int slot(long key) {
        return (int) key;
    }

    /**
     * How many of the n keys from {@code base} order before (h, e) in ring k, or not after it when {@code inclusive}:
     * a linear scan that stops at the first key whose prefix is not below h's (one mispredicted branch per block); a
     * run of equal prefixes is then ordered by full hash and bytes.
     */
    private int rank(long[] keys, int base, int n, int k, long h, Endpoint e, boolean inclusive) {
        long bound = h & PREFIX;
        int end = base + n;
        int i = base;
        while (i < end && keys[i] < bound) {
            i++;
        }
        int below = i - base;
        for (; i < end && (keys[i] & PREFIX) == bound; i++) {
            int order = compare(k, h, e, slot(keys[i]));
            if (order < 0 || order == 0 && !inclusive) {
                break;
            }
            below++;
        }
        return below;
    }

    /** Order of the key (h, e) against the member in slot s in ring k: full ring hash, then bytes. */
    private int compare(int k, long h, Endpoint e, int s) {
        Endpoint other = endpoints[s];
        int order = Long.compare(h, ringHash(other.baseHash(), k));
        return order != 0 ? order : e.compareTo(other);
    }

    /** The child of inner block b whose subtree holds (h, e): the one after every separator not above the key. */
    private int child(int k, int b, long h, Endpoint e) {
        int base = b * INNER_CHILDREN;
        return innerChildren[base + rank(innerKeys, base, innerCount[b] - 1, k, h, e, true)];
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
            b = innerChildren[b * INNER_CHILDREN];
        }
        return b;
    }

    /** Walks ring k down to (h, e), recording each inner block and child index in the path; returns the leaf. */
    private int descendRecording(int k, long h, Endpoint e) {
        int b = root[k];
        for (int level = 0; level < height[k]; level++) {
            int base = b * INNER_CHILDREN;
            int i = rank(innerKeys, base, innerCount[b] - 1, k, h, e, true);
            pathBlock[level] = b;
            pathIndex[level] = i;
            b = innerChildren[base + i];
        }
        return b;
    }

    // ---- insert -----------------------------------------------------------------------------------------------

    private void insertIntoLeaf(int k, int b, long h, int s, Endpoint e) {
        int count = leafCount[b];
        int base = b * LEAF_KEYS;
        int pos = rank(leafKeys, base, count, k, h, e, false);
        if (count < LEAF_KEYS) {
            putInLeaf(b, pos, key(h, s));
            return;
        }
        // full: the lockstep descent recorded no path; record it now (one split per LEAF_KEYS / 2 inserts)
        descendRecording(k, h, e);
        int r = newLeaf();
        int half = LEAF_KEYS / 2;
        int moved = LEAF_KEYS - half;
        System.arraycopy(leafKeys, base + half, leafKeys, r * LEAF_KEYS, moved);
        leafCount[b] = half;
        leafCount[r] = moved;
        int after = leafNext[b];
        leafNext[b] = r;
        leafPrev[r] = b;
        leafNext[r] = after;
        leafPrev[after] = r;
        if (pos <= half) {
            putInLeaf(b, pos, key(h, s));
        } else {
            putInLeaf(r, pos - half, key(h, s));
        }
        insertIntoParent(k, height[k] - 1, b, leafKeys[r * LEAF_KEYS], r);
    }

    private void putInLeaf(int b, int pos, long key) {
        int at = b * LEAF_KEYS + pos;
        System.arraycopy(leafKeys, at, leafKeys, at + 1, leafCount[b] - pos);
        leafKeys[at] = key;
        leafCount[b]++;
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
            int count = innerCount[p];
            int base = p * INNER_CHILDREN;
            if (count < INNER_CHILDREN) {
                int tail = count - 1 - i;
                System.arraycopy(innerKeys, base + i, innerKeys, base + i + 1, tail);
                System.arraycopy(innerChildren, base + i + 1, innerChildren, base + i + 2, tail);
                innerKeys[base + i] = sep;
                innerChildren[base + i + 1] = right;
                innerCount[p] = count + 1;
                return;
            }
            // full: lay out its INNER_CHILDREN children plus the new one in the scratch, then halve
            int seps = INNER_CHILDREN - 1;
            System.arraycopy(innerKeys, base, splitKeys, 0, i);
            splitKeys[i] = sep;
            System.arraycopy(innerKeys, base + i, splitKeys, i + 1, seps - i);
            System.arraycopy(innerChildren, base, splitChildren, 0, i + 1);
            splitChildren[i + 1] = right;
            System.arraycopy(innerChildren, base + i + 1, splitChildren, i + 2, seps - i);
            int leftChildren = (INNER_CHILDREN + 1) / 2;
            int rightChildren = INNER_CHILDREN + 1 - leftChildren;
            int q = newInner();
            int qb = q * INNER_CHILDREN;
            System.arraycopy(splitKeys, 0, innerKeys, base, leftChildren - 1);
            System.arraycopy(splitChildren, 0, innerChildren, base, leftChildren);
            innerCount[p] = leftChildren;
            System.arraycopy(splitKeys, leftChildren, innerKeys, qb, rightChildren - 1);
            System.arraycopy(splitChildren, leftChildren, innerChildren, qb, rightChildren);
            innerCount[q] = rightChildren;
            sep = splitKeys[leftChildren - 1];
            left = p;
            right = q;
            level--;
        }
        if (height[k] == MAX_HEIGHT) {
            throw new IllegalStateException("ring " + k + " height would exceed " + MAX_HEIGHT);
        }
        int r = newInner();
        int rb = r * INNER_CHILDREN;
        innerChildren[rb] = left;
        innerChildren[rb + 1] = right;
        innerKeys[rb] = sep;
        innerCount[r] = 2;
        root[k] = r;
        height[k]++;
    }

    // ---- remove -----------------------------------------------------------------------------------------------

    private void remove(int k, long h, int s, Endpoint e) {
        int b = descendRecording(k, h, e);
        int base = b * LEAF_KEYS;
        int count = leafCount[b];
        int pos = rank(leafKeys, base, count, k, h, e, false);
        if (pos == count || slot(leafKeys[base + pos]) != s) {
            throw new IllegalStateException("slot " + s + " (" + e + ") missing from ring " + k);
        }
        System.arraycopy(leafKeys, base + pos + 1, leafKeys, base + pos, count - pos - 1);
        leafCount[b] = --count;
        if (pos == 0 && count > 0) {
            replaceSeparator(k, leafKeys[base]);
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
                innerKeys[pathBlock[level] * INNER_CHILDREN + i - 1] = least;
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
        int left = innerChildren[pb + sepIndex];
        int right = innerChildren[pb + sepIndex + 1];
        int lc = leafCount[left];
        int rc = leafCount[right];
        int lb = left * LEAF_KEYS;
        int rb = right * LEAF_KEYS;
        if (lc + rc <= LEAF_KEYS) {
            System.arraycopy(leafKeys, rb, leafKeys, lb + lc, rc);
            leafCount[left] = lc + rc;
            int after = leafNext[right];
            leafNext[left] = after;
            leafPrev[after] = left;
            freeLeaf(right);
            removeFromInner(k, level, sepIndex);
            return;
        }
        if (lc < rc) {
            int n = (rc - lc) / 2;
            System.arraycopy(leafKeys, rb, leafKeys, lb + lc, n);
            System.arraycopy(leafKeys, rb + n, leafKeys, rb, rc - n);
            leafCount[left] = lc + n;
            leafCount[right] = rc - n;
        } else {
            int n = (lc - rc) / 2;
            System.arraycopy(leafKeys, rb, leafKeys, rb + n, rc);
            System.arraycopy(leafKeys, lb + lc - n, leafKeys, rb, n);
            leafCount[left] = lc - n;
            leafCount[right] = rc + n;
        }
        innerKeys[pb + sepIndex] = leafKeys[rb];
    }

    /**
     * Drops separator {@code sep} and the child after it from the inner block at path level {@code level} of ring k,
     * then restores the block's minimum: collapse a root of one child, or merge with or borrow from a sibling.
     */
    private void removeFromInner(int k, int level, int sep) {
        while (true) {
            int p = pathBlock[level];
            int pb = p * INNER_CHILDREN;
            int count = innerCount[p];
            int tail = count - 2 - sep;
            System.arraycopy(innerKeys, pb + sep + 1, innerKeys, pb + sep, tail);
            System.arraycopy(innerChildren, pb + sep + 2, innerChildren, pb + sep + 1, tail);
            innerCount[p] = --count;
            if (level == 0) {
                if (count == 1) {
                    root[k] = innerChildren[pb];
                    height[k]--;
                    freeInner(p);
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
            int left = innerChildren[gb + gSep];
            int right = innerChildren[gb + gSep + 1];
            int lc = innerCount[left];
            int rc = innerCount[right];
            if (lc + rc > INNER_CHILDREN) {
                rotate(gb + gSep, left, right, lc < rc);
                return;
            }
            // merge: left's children, the grandparent's separator, right's children
            int lb = left * INNER_CHILDREN;
            int rb = right * INNER_CHILDREN;
            innerKeys[lb + lc - 1] = innerKeys[gb + gSep];
            System.arraycopy(innerKeys, rb, innerKeys, lb + lc, rc - 1);
            System.arraycopy(innerChildren, rb, innerChildren, lb + lc, rc);
            innerCount[left] = lc + rc;
            freeInner(right);
            level--;
            sep = gSep;
        }
    }

    /** Moves one child between inner siblings through their parent's separator at {@code sep}. */
    private void rotate(int sep, int left, int right, boolean toLeft) {
        int lb = left * INNER_CHILDREN;
        int rb = right * INNER_CHILDREN;
        int lc = innerCount[left];
        int rc = innerCount[right];
        if (toLeft) {
            innerKeys[lb + lc - 1] = innerKeys[sep];
            innerChildren[lb + lc] = innerChildren[rb];
            innerKeys[sep] = innerKeys[rb];
            System.arraycopy(innerKeys, rb + 1, innerKeys, rb, rc - 2);
            System.arraycopy(innerChildren, rb + 1, innerChildren, rb, rc - 1);
            innerCount[left] = lc + 1;
            innerCount[right] = rc - 1;
        } else {
            System.arraycopy(innerKeys, rb, innerKeys, rb + 1, rc - 1);
            System.arraycopy(innerChildren, rb, innerChildren, rb + 1, rc);
            innerKeys[rb] = innerKeys[sep];
            innerChildren[rb] = innerChildren[lb + lc - 1];
            innerKeys[sep] = innerKeys[lb + lc - 2];
            innerCount[left] = lc - 1;
            innerCount[right] = rc + 1;
        }
    }

    // ---- block pools ------------------------------------------------------------------------------------------

    private int newLeaf() {
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

    private void freeLeaf(int b) {
        leavesInUse--;
        leafCount[b] = 0;
        leafNext[b] = freeLeaf;
        freeLeaf = b;
    }

    private int newInner() {
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
    private void freeInner(int b) {
        innersInUse--;
        innerCount[b] = freeInner;
        freeInner = b;
    }

    // ---- structure check (tests) ------------------------------------------------------------------------------

    /**
     * Checks every invariant of the K rings holding {@code size} members: keys strictly ordered along each ring's
     * leaf list, the list equal to the tree's leaf order, uniform leaf depth, block occupancy, separators equal to the
     * least key on their right, and the block count. Throws IllegalStateException naming the first broken one.
     */
    void checkStructure(int size) {
        int blocks = 0;
        for (int k = 0; k < rings; k++) {
            List<Integer> leaves = new ArrayList<>();
            blocks += checkBlock(k, root[k], height[k], true, leaves);
            int keys = 0;
            for (int j = 0; j < leaves.size(); j++) {
                int b = leaves.get(j);
                int next = leaves.get((j + 1) % leaves.size());
                if (leafNext[b] != next || leafPrev[next] != b) {
                    throw new IllegalStateException("ring " + k + ": leaf list breaks after leaf " + b);
                }
                if (j + 1 < leaves.size() && compareKeys(k, b, leafCount[b] - 1, next, 0) >= 0) {
                    throw new IllegalStateException("ring " + k + ": leaf " + b + " does not order before " + next);
                }
                for (int i = 1; i < leafCount[b]; i++) {
                    if (compareKeys(k, b, i - 1, b, i) >= 0) {
                        throw new IllegalStateException("ring " + k + ": leaf " + b + " unordered at " + i);
                    }
                }
                keys += leafCount[b];
            }
            if (keys != size) {
                throw new IllegalStateException("ring " + k + " holds " + keys + " keys, size is " + size);
            }
        }
        if (blocks != blocksInUse()) {
            throw new IllegalStateException("rings reach " + blocks + " blocks, in use " + blocksInUse());
        }
    }

    /** Checks the subtree of block b ({@code levels} inner levels above its leaves); returns its block count. */
    private int checkBlock(int k, int b, int levels, boolean isRoot, List<Integer> leaves) {
        if (levels == 0) {
            if (leafCount[b] < (isRoot ? 0 : LEAF_MIN) || leafCount[b] > LEAF_KEYS) {
                throw new IllegalStateException("ring " + k + ": leaf " + b + " holds " + leafCount[b]);
            }
            leaves.add(b);
            return 1;
        }
        int count = innerCount[b];
        if (count < (isRoot ? 2 : INNER_MIN) || count > INNER_CHILDREN) {
            throw new IllegalStateException("ring " + k + ": inner block " + b + " has " + count + " children");
        }
        int blocks = 1;
        for (int i = 0; i < count; i++) {
            int first = leaves.size();
            blocks += checkBlock(k, innerChildren[b * INNER_CHILDREN + i], levels - 1, false, leaves);
            int least = leaves.get(first);
            if (i > 0 && innerKeys[b * INNER_CHILDREN + i - 1] != leafKeys[least * LEAF_KEYS]) {
                throw new IllegalStateException("ring " + k + ": separator " + (i - 1) + " of inner block " + b
                        + " is not the least key on its right");
            }
        }
        return blocks;
    }

    /** Order in ring k of key i of leaf a against key j of leaf b; also checks each key's prefix. */
    private int compareKeys(int k, int a, int i, int b, int j) {
        long keyA = leafKeys[a * LEAF_KEYS + i];
        Endpoint ea = endpoints[slot(keyA)];
        long ha = ringHash(ea.baseHash(), k);
        if (key(ha, slot(keyA)) != keyA) {
            throw new IllegalStateException("ring " + k + ": leaf " + a + " key " + i + " has a wrong hash prefix");
        }
        return compare(k, ha, ea, slot(leafKeys[b * LEAF_KEYS + j]));
    }
}
