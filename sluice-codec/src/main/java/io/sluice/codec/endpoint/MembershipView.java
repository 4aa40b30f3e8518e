package io.sluice.codec.endpoint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The membership of a cluster as K rings (Rapid's monitoring topology): ring k orders the members by their hash under
 * seed k (ties by endpoint bytes), and in each ring a member's observer is its successor and its subject its
 * predecessor, wrapping around.
 *
 * <p>Members live in slots of primitive arrays: each member's K ring hashes are computed once on insert (one mix of
 * the endpoint's cached base hash per ring); each ring is a treap over slot numbers (a slot's ring hash and both child
 * links side by side in one int array per ring, so a step down reads one cache line; priorities from the endpoint
 * hash). Inserts and removes work top down without recursion, one store per link changed, and an insert descends all
 * K rings in lockstep so their cache misses overlap; so insert and remove are O(K log N) expected and
 * allocate nothing beyond amortized array growth. Lookups by endpoint go through an open-addressing index keyed by the
 * endpoint's cached hash. The configuration id is an order-independent sum of per-member hashes, updated in O(1): it
 * changes with every membership change and is equal on every node holding the same members. Not thread-safe; one per
 * membership service, driven by its single event thread.
 */
public final class MembershipView {
    /** Seed of the configuration-id hash; distinct from the ring seeds 0..K-1. */
    private static final long CONFIG_SEED = 0x5eed_c0f1_6a11_d00dL;
    /** Seed of the treap priorities. */
    private static final long PRIORITY_SEED = 0x7a3b_1c5d_9e2f_4a6bL;
    private static final int NONE = 0;
    private static final int FIRST_SLOT = 1;
    private static final int INITIAL_SLOTS = 16;
    /** Sides of a treap node, added to the index of its left link. */
    private static final int LEFT = 0;
    private static final int RIGHT = 1;
    /**
     * A treap node of slot t in a ring's node array: 4 ints from {@code t * NODE_INTS}, the ring hash's high and low
     * halves then the left and right child slots, so a step down the tree reads one cache line.
     */
    private static final int NODE_INTS = 4;
    private static final int HASH_HIGH = 0;
    private static final int HASH_LOW = 1;
    private static final int CHILDREN = 2;
    /** Slot 0 is no member: its left link holds the ring's root. */
    private static final int ROOT_LINK = CHILDREN + LEFT;

    private final int rings;
    /** The mixed seed of each ring, so a ring hash is one mix of the endpoint's base hash. */
    private final long[] ringSeeds;
    private int capacity;
    private Endpoint[] endpoints;
    private int[] priority;
    /** Scratch of {@link #add}, per ring: the new key's hash, the link reached and the node below it. */
    private final long[] addHash;
    private final int[] addLink;
    private final int[] addNode;
    /** nodes[k]: the treap of ring k, a node per slot (see {@link #NODE_INTS}); child NONE for none. */
    private final int[][] nodes;
    private int[] freeSlots;
    private int freeCount;
    private int nextSlot = FIRST_SLOT;
    private int size;
    private long configSum;

    /**
     * Open-addressing index endpoint -> slot (linear probing, backward-shift deletion): the slot (NONE when empty) and
     * the endpoint's cached hash side by side in int arrays.
     */
    private int[] indexSlots;
    private int[] indexHashes;

    public MembershipView(int rings) {
        if (rings < 1) {
            throw new IllegalArgumentException("rings must be >= 1, was " + rings);
        }
        this.rings = rings;
        this.ringSeeds = new long[rings];
        for (int k = 0; k < rings; k++) {
            ringSeeds[k] = SeededHash.seedMix(k);
        }
        this.addHash = new long[rings];
        this.addLink = new int[rings];
        this.addNode = new int[rings];
        this.capacity = INITIAL_SLOTS;
        this.endpoints = new Endpoint[capacity];
        this.priority = new int[capacity];
        this.nodes = new int[rings][NODE_INTS * capacity];
        this.freeSlots = new int[capacity];
        this.indexSlots = new int[capacity * 2];
        this.indexHashes = new int[capacity * 2];
    }

    public int ringCount() {
        return rings;
    }

    public int size() {
        return size;
    }

    public boolean contains(Endpoint e) {
        return slotOf(e) != NONE;
    }

    /** Adds {@code e}; false if already a member. O(K log N). */
    public boolean add(Endpoint e) {
        if (slotOf(e) != NONE) {
            return false;
        }
        int s = allocateSlot();
        endpoints[s] = e;
        long base = e.baseHash();
        int p = (int) e.seededHash(PRIORITY_SEED);
        priority[s] = p;
        for (int k = 0; k < rings; k++) {
            long h = SeededHash.seededByMix(base, ringSeeds[k]);
            int[] c = nodes[k];
            c[s * NODE_INTS + HASH_HIGH] = (int) (h >>> Integer.SIZE);
            c[s * NODE_INTS + HASH_LOW] = (int) h;
            addHash[k] = h;
            addLink[k] = ROOT_LINK;
            addNode[k] = c[ROOT_LINK];
        }
        descendAllRings(e, p);
        for (int k = 0; k < rings; k++) {
            splitInto(nodes[k], s, addHash[k], e, addLink[k], addNode[k]);
        }
        indexPut(e.hashCode(), s);
        size++;
        configSum += SeededHash.mix(e.seededHash(CONFIG_SEED));
        return true;
    }

    /** Removes {@code e}; false if not a member. O(K log N). */
    public boolean remove(Endpoint e) {
        int s = slotOf(e);
        if (s == NONE) {
            return false;
        }
        for (int k = 0; k < rings; k++) {
            remove(nodes[k], s);
        }
        indexRemove(s);
        endpoints[s] = null;
        freeSlots[freeCount++] = s;
        size--;
        configSum -= SeededHash.mix(e.seededHash(CONFIG_SEED));
        return true;
    }

    /** Identifies this exact member set; changes with every add and remove. */
    public long configurationId() {
        return SeededHash.mix(configSum ^ size);
    }

    /** The observer of {@code e} in ring {@code k}: its successor, wrapping; null if no other member exists. */
    public Endpoint observer(Endpoint e, int k) {
        if (size == 0 || size == 1 && contains(e)) {
            return null;
        }
        long h = SeededHash.seededByMix(e.baseHash(), ringSeeds[k]);
        int[] c = nodes[k];
        int candidate = NONE;
        for (int t = c[ROOT_LINK]; t != NONE; ) {
            if (compare(h, e, c, t) < 0) {
                candidate = t;
                t = c[link(t, LEFT)];
            } else {
                t = c[link(t, RIGHT)];
            }
        }
        return endpoints[candidate != NONE ? candidate : extreme(c, LEFT)];
    }

    /** The subject of {@code e} in ring {@code k}: its predecessor, wrapping; null if no other member exists. */
    public Endpoint subject(Endpoint e, int k) {
        if (size == 0 || size == 1 && contains(e)) {
            return null;
        }
        long h = SeededHash.seededByMix(e.baseHash(), ringSeeds[k]);
        int[] c = nodes[k];
        int candidate = NONE;
        for (int t = c[ROOT_LINK]; t != NONE; ) {
            if (compare(h, e, c, t) > 0) {
                candidate = t;
                t = c[link(t, RIGHT)];
            } else {
                t = c[link(t, LEFT)];
            }
        }
        return endpoints[candidate != NONE ? candidate : extreme(c, RIGHT)];
    }

    /** The K observers of {@code e} (one per ring, may repeat in small clusters); also for a node about to join. */
    public List<Endpoint> observersOf(Endpoint e) {
        List<Endpoint> out = new ArrayList<>(rings);
        for (int k = 0; k < rings; k++) {
            Endpoint o = observer(e, k);
            if (o != null) {
                out.add(o);
            }
        }
        return out;
    }

    /** The K subjects of {@code e}. */
    public List<Endpoint> subjectsOf(Endpoint e) {
        List<Endpoint> out = new ArrayList<>(rings);
        for (int k = 0; k < rings; k++) {
            Endpoint s = subject(e, k);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    /** Members in ring {@code k} order. */
    public List<Endpoint> ring(int k) {
        List<Endpoint> out = new ArrayList<>(size);
        int[] c = nodes[k];
        int[] stack = new int[64];
        int depth = 0;
        int t = c[ROOT_LINK];
        while (t != NONE || depth > 0) {
            while (t != NONE) {
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = t;
                t = c[link(t, LEFT)];
            }
            t = stack[--depth];
            out.add(endpoints[t]);
            t = c[link(t, RIGHT)];
        }
        return out;
    }

    // ---- treap over slots ------------------------------------------------------------------------------------
    // A link is the index of a child field in a ring's node array: link(slot, LEFT or RIGHT), or ROOT_LINK.

    private static int link(int t, int side) {
        return t * NODE_INTS + CHILDREN + side;
    }

    private static long hash(int[] c, int t) {
        return (long) c[t * NODE_INTS + HASH_HIGH] << Integer.SIZE | c[t * NODE_INTS + HASH_LOW] & 0xFFFF_FFFFL;
    }

    /** Order of the key (h, e) against slot t of ring c: by hash, ties (rare) by endpoint bytes. */
    private int compare(long h, Endpoint e, int[] c, int t) {
        int order = Long.compare(h, hash(c, t));
        return order != 0 ? order : e.compareTo(endpoints[t]);
    }

    /**
     * RIGHT when the key (h, e) orders after slot t of ring c, else LEFT. The descent's direction is random, so it is
     * computed without a branch (the sign of {@code ht < h} by Hacker's Delight 2-12; {@code Long.compare} compiles to
     * a jump that would be mispredicted at every other level); only equal hashes, which are rare, branch to the bytes.
     */
    private int side(long h, Endpoint e, int[] c, int t) {
        long ht = hash(c, t);
        if (ht == h) {
            return e.compareTo(endpoints[t]) > 0 ? RIGHT : LEFT;
        }
        long d = ht - h;
        return (int) ((d ^ ((ht ^ h) & (d ^ ht))) >>> (Long.SIZE - 1));
    }

    private int extreme(int[] c, int side) {
        int t = c[ROOT_LINK];
        while (c[link(t, side)] != NONE) {
            t = c[link(t, side)];
        }
        return t;
    }

    /**
     * The first half of a top-down insert in every ring at once: from {@link #addLink}/{@link #addNode} at the roots,
     * walks each ring down while its nodes have a higher priority than {@code p}, leaving there the link where the new
     * node goes and the node it displaces. The rings advance one level per sweep, so the K chains of dependent
     * loads (each a likely cache miss) overlap instead of running one after another.
     */
    private void descendAllRings(Endpoint e, int p) {
        boolean moved = true;
        while (moved) {
            moved = false;
            for (int k = 0; k < rings; k++) {
                int t = addNode[k];
                if (t != NONE && priority[t] >= p) {
                    int[] c = nodes[k];
                    int link = link(t, side(addHash[k], e, c, t));
                    addLink[k] = link;
                    addNode[k] = c[link];
                    moved = true;
                }
            }
        }
    }

    /**
     * The second half of a top-down insert of slot s (key h, e): s takes {@code link}, and the subtree {@code t} it
     * displaces is split along its search path into s's left and right subtrees, filling each side's open link.
     */
    private void splitInto(int[] c, int s, long h, Endpoint e, int link, int t) {
        c[link] = s;
        int leftLink = link(s, LEFT);
        int rightLink = link(s, RIGHT);
        while (t != NONE) {
            if (side(h, e, c, t) == RIGHT) {
                c[leftLink] = t;
                leftLink = link(t, RIGHT);
                t = c[leftLink];
            } else {
                c[rightLink] = t;
                rightLink = link(t, LEFT);
                t = c[rightLink];
            }
        }
        c[leftLink] = NONE;
        c[rightLink] = NONE;
    }

    /** Removes slot s from ring c: finds its link, then merges its two subtrees into it top down. */
    private void remove(int[] c, int s) {
        long h = hash(c, s);
        Endpoint e = endpoints[s];
        int link = ROOT_LINK;
        for (int t = c[link]; t != s; t = c[link]) {
            link = link(t, side(h, e, c, t));
        }
        int a = c[link(s, LEFT)];
        int b = c[link(s, RIGHT)];
        while (a != NONE && b != NONE) {
            if (priority[a] > priority[b]) {
                c[link] = a;
                link = link(a, RIGHT);
                a = c[link];
            } else {
                c[link] = b;
                link = link(b, LEFT);
                b = c[link];
            }
        }
        c[link] = a != NONE ? a : b;
    }

    // ---- slots and the endpoint index ------------------------------------------------------------------------

    private int allocateSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        if (nextSlot == capacity) {
            grow();
        }
        return nextSlot++;
    }

    private void grow() {
        int newCapacity = capacity * 2;
        endpoints = Arrays.copyOf(endpoints, newCapacity);
        priority = Arrays.copyOf(priority, newCapacity);
        for (int k = 0; k < rings; k++) {
            nodes[k] = Arrays.copyOf(nodes[k], NODE_INTS * newCapacity);
        }
        freeSlots = Arrays.copyOf(freeSlots, newCapacity);
        capacity = newCapacity;
        int[] oldSlots = indexSlots;
        int[] oldHashes = indexHashes;
        indexSlots = new int[newCapacity * 2];
        indexHashes = new int[newCapacity * 2];
        for (int i = 0; i < oldSlots.length; i++) {
            if (oldSlots[i] != NONE) {
                indexPut(oldHashes[i], oldSlots[i]);
            }
        }
    }

    private int home(int hash) {
        return (int) SeededHash.mix(hash) & (indexSlots.length - 1);
    }

    /** The slot of {@code e}, NONE if absent; compares the cached hashes first, so a miss touches no other endpoint. */
    private int slotOf(Endpoint e) {
        int hash = e.hashCode();
        int mask = indexSlots.length - 1;
        for (int i = home(hash); ; i = (i + 1) & mask) {
            int slot = indexSlots[i];
            if (slot == NONE) {
                return NONE;
            }
            if (indexHashes[i] == hash && endpoints[slot].equals(e)) {
                return slot;
            }
        }
    }

    private void indexPut(int hash, int slot) {
        int mask = indexSlots.length - 1;
        int i = home(hash);
        while (indexSlots[i] != NONE) {
            i = (i + 1) & mask;
        }
        indexSlots[i] = slot;
        indexHashes[i] = hash;
    }

    private void indexRemove(int slot) {
        int mask = indexSlots.length - 1;
        int i = home(endpoints[slot].hashCode());
        while (indexSlots[i] != slot) {
            i = (i + 1) & mask;
        }
        indexSlots[i] = NONE;
        // backward-shift the following run so probing never stops early
        for (int j = (i + 1) & mask; indexSlots[j] != NONE; j = (j + 1) & mask) {
            int home = home(indexHashes[j]);
            boolean movable = i <= j ? home <= i || home > j : home <= i && home > j;
            if (movable) {
                indexSlots[i] = indexSlots[j];
                indexHashes[i] = indexHashes[j];
                indexSlots[j] = NONE;
                i = j;
            }
        }
    }
}
