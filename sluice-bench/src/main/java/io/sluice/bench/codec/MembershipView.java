package io.sluice.bench.codec;

import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.endpoint.SeededHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The membership of a cluster as K rings (Rapid's monitoring topology): ring k orders the members by their 64-bit hash
 * under seed k (ties by endpoint bytes, {@link Endpoint#compareTo}), and in each ring a member's observer is its
 * successor and its subject its predecessor, wrapping around.
 *
 * <p>Members live in slots (the endpoint per slot in one array); each ring is a B+tree of (ring hash, slot) keys in
 * primitive arrays ({@link RingForest}): sorted leaf blocks of up to 64 keys of one long each (hash prefix and slot),
 * inner blocks of up to 32 children with separators, leaves linked in a circle so that successor and predecessor,
 * wrap-around included, are one step past the key's position. A ring hash is one mix of the endpoint's cached base
 * hash, computed when needed rather than stored. Insert and remove are O(K log N) (blocks split when full, merge or
 * borrow when under a quarter full, freed blocks are reused); an insert descends the K rings in lockstep, and with
 * 1,000 members each ring is two levels deep, so a join costs 2K short linear scans and K small array copies instead
 * of K treap walks of ~14 dependent loads each. Nothing is allocated per operation beyond amortized array growth.
 * Lookups by endpoint go through an open-addressing index keyed by the endpoint's cached hash. The configuration id is
 * an order-independent sum of per-member hashes, updated in O(1): it changes with every membership change and is equal
 * on every node holding the same members. Not thread-safe; one per membership service, driven by its single event
 * thread.
 */
public final class MembershipView {
    /** Seed of the configuration-id hash; distinct from the ring seeds 0..K-1. */
    private static final long CONFIG_SEED = 0x5eed_c0f1_6a11_d00dL;

    private static final long FULL_HASH = -1L;
    private static final int NONE = 0;
    private static final int FIRST_SLOT = 1;
    private static final int INITIAL_SLOTS = 16;

    private final int rings;
    private final RingForest forest;
    private int capacity;
    private Endpoint[] endpoints;
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
        this(rings, FULL_HASH);
    }

    /**
     * For tests: every ring hash is ANDed with {@code ringHashMask}, so a narrow mask forces equal ring hashes and the
     * rings order those members by their bytes.
     */
    MembershipView(int rings, long ringHashMask) {
        if (rings < 1) {
            throw new IllegalArgumentException("rings must be >= 1, was " + rings);
        }
        this.rings = rings;
        this.capacity = INITIAL_SLOTS;
        this.endpoints = new Endpoint[capacity];
        this.forest = new RingForest(rings, ringHashMask, endpoints);
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
        forest.insert(s, e);
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
        forest.remove(s, e);
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
        return forest.successor(k, e);
    }

    /** The subject of {@code e} in ring {@code k}: its predecessor, wrapping; null if no other member exists. */
    public Endpoint subject(Endpoint e, int k) {
        if (size == 0 || size == 1 && contains(e)) {
            return null;
        }
        return forest.predecessor(k, e);
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
        return forest.ring(k, size);
    }

    /** For tests: the ring blocks in use (all K rings). */
    int blocksInUse() {
        return forest.blocksInUse();
    }

    /** For tests: the inner levels above ring k's leaves. */
    int ringHeight(int k) {
        return forest.height(k);
    }

    /** For tests: checks the rings' structure, throwing IllegalStateException at the first broken invariant. */
    void checkStructure() {
        forest.checkStructure(size);
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
        forest.useEndpoints(endpoints);
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
