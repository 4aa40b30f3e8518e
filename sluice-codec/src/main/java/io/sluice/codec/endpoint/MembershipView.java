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
 * the endpoint's cached base hash per ring); each ring is a treap over slot numbers (both child links of a slot side by
 * side in one int array per ring, priorities from the endpoint hash), inserted into and removed from iteratively, top
 * down, without recursion and with one store per link changed; so insert and remove are O(K log N) expected and
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
    /** Slot 0 is no member: its left link in each ring's child array holds the ring's root. */
    private static final int ROOT_LINK = 0;
    private static final int FIRST_SLOT = 1;
    private static final int INITIAL_SLOTS = 16;
    private static final int LEFT = 0;
    private static final int RIGHT = 1;

    private final int rings;
    /** The mixed seed of each ring, so a ring hash is one mix of the endpoint's base hash. */
    private final long[] ringSeeds;
    private int capacity;
    private Endpoint[] endpoints;
    /** ringHash[k][slot]: hash of the slot's endpoint under ring seed k (ring-major, so one ring's walk stays in cache). */
    private final long[][] ringHash;
    private int[] priority;
    /** child[k][2 * slot + LEFT], child[k][2 * slot + RIGHT]: treap children in ring k; NONE for none. */
    private final int[][] child;
    private int[] freeSlots;
    private int freeCount;
    private int nextSlot = FIRST_SLOT;
    private int size;
    private long configSum;

    /** Open-addressing index endpoint -> slot (linear probing, backward-shift deletion). */
    private Endpoint[] indexKeys;
    private int[] indexSlots;

    public MembershipView(int rings) {
        if (rings < 1) {
            throw new IllegalArgumentException("rings must be >= 1, was " + rings);
        }
        this.rings = rings;
        this.ringSeeds = new long[rings];
        for (int k = 0; k < rings; k++) {
            ringSeeds[k] = SeededHash.seedMix(k);
        }
        this.capacity = INITIAL_SLOTS;
        this.endpoints = new Endpoint[capacity];
        this.ringHash = new long[rings][capacity];
        this.priority = new int[capacity];
        this.child = new int[rings][2 * capacity];
        this.freeSlots = new int[capacity];
        this.indexKeys = new Endpoint[capacity * 2];
        this.indexSlots = new int[capacity * 2];
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
        priority[s] = (int) e.seededHash(PRIORITY_SEED);
        for (int k = 0; k < rings; k++) {
            long h = SeededHash.seededByMix(base, ringSeeds[k]);
            ringHash[k][s] = h;
            insert(k, s, h, e);
        }
        indexPut(e, s);
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
            remove(k, s);
        }
        indexRemove(e);
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
        int[] c = child[k];
        int candidate = NONE;
        for (int t = c[ROOT_LINK]; t != NONE; ) {
            if (compare(h, e, k, t) < 0) {
                candidate = t;
                t = c[2 * t + LEFT];
            } else {
                t = c[2 * t + RIGHT];
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
        int[] c = child[k];
        int candidate = NONE;
        for (int t = c[ROOT_LINK]; t != NONE; ) {
            if (compare(h, e, k, t) > 0) {
                candidate = t;
                t = c[2 * t + RIGHT];
            } else {
                t = c[2 * t + LEFT];
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
        int[] c = child[k];
        int[] stack = new int[64];
        int depth = 0;
        int t = c[ROOT_LINK];
        while (t != NONE || depth > 0) {
            while (t != NONE) {
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = t;
                t = c[2 * t + LEFT];
            }
            t = stack[--depth];
            out.add(endpoints[t]);
            t = c[2 * t + RIGHT];
        }
        return out;
    }

    // ---- treap over slots ------------------------------------------------------------------------------------
    // A link is an index into a ring's child array: 2 * slot + LEFT or RIGHT, or ROOT_LINK for the root.

    /** Order of the key (h, e) against slot t in ring k: by hash, ties (rare) by endpoint bytes. */
    private int compare(long h, Endpoint e, int k, int t) {
        int c = Long.compare(h, ringHash[k][t]);
        return c != 0 ? c : e.compareTo(endpoints[t]);
    }

    /** RIGHT when the key (h, e) orders after slot t in ring k, else LEFT; without a branch unless the hashes tie. */
    private int side(long h, Endpoint e, int k, int t) {
        return (-compare(h, e, k, t)) >>> (Integer.SIZE - 1);
    }

    private int extreme(int[] c, int side) {
        int t = c[ROOT_LINK];
        while (c[2 * t + side] != NONE) {
            t = c[2 * t + side];
        }
        return t;
    }

    /**
     * Inserts slot s (key h, e) into ring k top down: walks down while the nodes have higher priority, then splits the
     * rest of that path into s's left and right subtrees, filling each side's open link as it goes.
     */
    private void insert(int k, int s, long h, Endpoint e) {
        int[] c = child[k];
        int p = priority[s];
        int link = ROOT_LINK;
        int t = c[link];
        while (t != NONE && priority[t] >= p) {
            link = 2 * t + side(h, e, k, t);
            t = c[link];
        }
        c[link] = s;
        int leftLink = 2 * s + LEFT;
        int rightLink = 2 * s + RIGHT;
        while (t != NONE) {
            if (side(h, e, k, t) == RIGHT) {
                c[leftLink] = t;
                leftLink = 2 * t + RIGHT;
                t = c[leftLink];
            } else {
                c[rightLink] = t;
                rightLink = 2 * t + LEFT;
                t = c[rightLink];
            }
        }
        c[leftLink] = NONE;
        c[rightLink] = NONE;
    }

    /** Removes slot s from ring k: finds its link, then merges its two subtrees into it top down. */
    private void remove(int k, int s) {
        int[] c = child[k];
        long h = ringHash[k][s];
        Endpoint e = endpoints[s];
        int link = ROOT_LINK;
        for (int t = c[link]; t != s; t = c[link]) {
            link = 2 * t + side(h, e, k, t);
        }
        int a = c[2 * s + LEFT];
        int b = c[2 * s + RIGHT];
        while (a != NONE && b != NONE) {
            if (priority[a] > priority[b]) {
                c[link] = a;
                link = 2 * a + RIGHT;
                a = c[link];
            } else {
                c[link] = b;
                link = 2 * b + LEFT;
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
            ringHash[k] = Arrays.copyOf(ringHash[k], newCapacity);
            child[k] = Arrays.copyOf(child[k], 2 * newCapacity);
        }
        freeSlots = Arrays.copyOf(freeSlots, newCapacity);
        capacity = newCapacity;
        Endpoint[] oldKeys = indexKeys;
        int[] oldSlots = indexSlots;
        indexKeys = new Endpoint[newCapacity * 2];
        indexSlots = new int[newCapacity * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                indexPut(oldKeys[i], oldSlots[i]);
            }
        }
    }

    private int indexOf(Endpoint e) {
        int mask = indexKeys.length - 1;
        return (int) SeededHash.mix(e.hashCode()) & mask;
    }

    private int slotOf(Endpoint e) {
        int mask = indexKeys.length - 1;
        for (int i = indexOf(e); ; i = (i + 1) & mask) {
            Endpoint k = indexKeys[i];
            if (k == null) {
                return NONE;
            }
            if (k.equals(e)) {
                return indexSlots[i];
            }
        }
    }

    private void indexPut(Endpoint e, int slot) {
        int mask = indexKeys.length - 1;
        int i = indexOf(e);
        while (indexKeys[i] != null) {
            i = (i + 1) & mask;
        }
        indexKeys[i] = e;
        indexSlots[i] = slot;
    }

    private void indexRemove(Endpoint e) {
        int mask = indexKeys.length - 1;
        int i = indexOf(e);
        while (!indexKeys[i].equals(e)) {
            i = (i + 1) & mask;
        }
        indexKeys[i] = null;
        // backward-shift the following run so probing never stops early
        for (int j = (i + 1) & mask; indexKeys[j] != null; j = (j + 1) & mask) {
            int home = indexOf(indexKeys[j]);
            boolean movable = i <= j ? home <= i || home > j : home <= i && home > j;
            if (movable) {
                indexKeys[i] = indexKeys[j];
                indexSlots[i] = indexSlots[j];
                indexKeys[j] = null;
                i = j;
            }
        }
    }
}
