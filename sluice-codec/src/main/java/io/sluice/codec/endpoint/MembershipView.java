package io.sluice.codec.endpoint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The membership of a cluster as K rings (Rapid's monitoring topology): ring k orders the members by their hash under
 * seed k (ties by endpoint bytes), and in each ring a member's observer is its successor and its subject its
 * predecessor, wrapping around.
 *
 * <p>Members live in slots of primitive arrays: each member's K ring hashes are computed once on insert; each ring is
 * a treap over slot numbers (child links in int arrays, priorities from the endpoint hash), so insert and remove are
 * O(K log N) expected and allocate nothing beyond amortized array growth; lookups by endpoint go through an
 * open-addressing index keyed by the endpoint's cached hash. The configuration id is an order-independent sum of
 * per-member hashes, updated in O(1): it changes with every membership change and is equal on every node holding the
 * same members. Not thread-safe; one per membership service, driven by its single event thread.
 */
public final class MembershipView {
    /** Seed of the configuration-id hash; distinct from the ring seeds 0..K-1. */
    private static final long CONFIG_SEED = 0x5eed_c0f1_6a11_d00dL;
    /** Seed of the treap priorities. */
    private static final long PRIORITY_SEED = 0x7a3b_1c5d_9e2f_4a6bL;
    private static final int NONE = -1;
    private static final int INITIAL_SLOTS = 16;

    private final int rings;
    private int capacity;
    private Endpoint[] endpoints;
    /** ringHash[k][slot]: hash of the slot's endpoint under ring seed k (ring-major, so one ring's walk stays in cache). */
    private final long[][] ringHash;
    private int[] priority;
    /** left[k][slot], right[k][slot]: treap children in ring k. */
    private final int[][] left;
    private final int[][] right;
    private final int[] root;
    private int[] freeSlots;
    private int freeCount;
    private int nextSlot;
    private int size;
    private long configSum;

    /** Open-addressing index endpoint -> slot (linear probing, backward-shift deletion). */
    private Endpoint[] indexKeys;
    private int[] indexSlots;

    /** Second result of {@link #split}. */
    private int splitLeft;
    private int splitRight;

    public MembershipView(int rings) {
        if (rings < 1) {
            throw new IllegalArgumentException("rings must be >= 1, was " + rings);
        }
        this.rings = rings;
        this.capacity = INITIAL_SLOTS;
        this.endpoints = new Endpoint[capacity];
        this.ringHash = new long[rings][capacity];
        this.priority = new int[capacity];
        this.left = new int[rings][capacity];
        this.right = new int[rings][capacity];
        this.root = new int[rings];
        Arrays.fill(root, NONE);
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
        for (int k = 0; k < rings; k++) {
            ringHash[k][s] = e.seededHash(k);
        }
        priority[s] = (int) e.seededHash(PRIORITY_SEED);
        for (int k = 0; k < rings; k++) {
            left[k][s] = NONE;
            right[k][s] = NONE;
            root[k] = insert(k, root[k], s);
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
            root[k] = remove(k, root[k], s);
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
        long h = e.seededHash(k);
        int candidate = NONE;
        for (int t = root[k]; t != NONE; ) {
            if (compare(h, e, k, t) < 0) {
                candidate = t;
                t = left[k][t];
            } else {
                t = right[k][t];
            }
        }
        return endpoints[candidate != NONE ? candidate : extreme(k, left[k])];
    }

    /** The subject of {@code e} in ring {@code k}: its predecessor, wrapping; null if no other member exists. */
    public Endpoint subject(Endpoint e, int k) {
        if (size == 0 || size == 1 && contains(e)) {
            return null;
        }
        long h = e.seededHash(k);
        int candidate = NONE;
        for (int t = root[k]; t != NONE; ) {
            if (compare(h, e, k, t) > 0) {
                candidate = t;
                t = right[k][t];
            } else {
                t = left[k][t];
            }
        }
        return endpoints[candidate != NONE ? candidate : extreme(k, right[k])];
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
        int[] stack = new int[64];
        int depth = 0;
        int t = root[k];
        while (t != NONE || depth > 0) {
            while (t != NONE) {
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = t;
                t = left[k][t];
            }
            t = stack[--depth];
            out.add(endpoints[t]);
            t = right[k][t];
        }
        return out;
    }

    // ---- treap over slots ------------------------------------------------------------------------------------

    /** Order of the key (h, e) against slot t in ring k. */
    private int compare(long h, Endpoint e, int k, int t) {
        int c = Long.compare(h, ringHash[k][t]);
        return c != 0 ? c : e.compareTo(endpoints[t]);
    }

    private boolean less(int k, int a, int b) {
        return compare(ringHash[k][a], endpoints[a], k, b) < 0;
    }

    private int extreme(int k, int[] child) {
        int t = root[k];
        while (child[t] != NONE) {
            t = child[t];
        }
        return t;
    }

    private int insert(int k, int t, int s) {
        if (t == NONE) {
            return s;
        }
        if (priority[s] > priority[t]) {
            split(k, t, s);
            left[k][s] = splitLeft;
            right[k][s] = splitRight;
            return s;
        }
        if (less(k, s, t)) {
            left[k][t] = insert(k, left[k][t], s);
        } else {
            right[k][t] = insert(k, right[k][t], s);
        }
        return t;
    }

    /** Splits tree {@code t} of ring k into keys below and above slot s's key: {@link #splitLeft}/{@link #splitRight}. */
    private void split(int k, int t, int s) {
        if (t == NONE) {
            splitLeft = NONE;
            splitRight = NONE;
            return;
        }
        if (less(k, t, s)) {
            split(k, right[k][t], s);
            right[k][t] = splitLeft;
            splitLeft = t;
        } else {
            split(k, left[k][t], s);
            left[k][t] = splitRight;
            splitRight = t;
        }
    }

    private int remove(int k, int t, int s) {
        if (t == s) {
            return merge(k, left[k][t], right[k][t]);
        }
        if (less(k, s, t)) {
            left[k][t] = remove(k, left[k][t], s);
        } else {
            right[k][t] = remove(k, right[k][t], s);
        }
        return t;
    }

    private int merge(int k, int a, int b) {
        if (a == NONE) {
            return b;
        }
        if (b == NONE) {
            return a;
        }
        if (priority[a] > priority[b]) {
            right[k][a] = merge(k, right[k][a], b);
            return a;
        }
        left[k][b] = merge(k, a, left[k][b]);
        return b;
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
            left[k] = Arrays.copyOf(left[k], newCapacity);
            right[k] = Arrays.copyOf(right[k], newCapacity);
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
