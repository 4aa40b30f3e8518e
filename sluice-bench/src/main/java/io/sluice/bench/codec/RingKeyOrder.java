package io.sluice.bench.codec;

import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.endpoint.SeededHash;

/**
 * The keys of a {@link RingForest} and their order in ring k: by the ring hash under seed k, then by the slot's
 * endpoint bytes ({@link Endpoint#compareTo}). A key is one long, the ring hash's high 32 bits above the slot (see
 * {@link #key}), so a block is one run of longs and comparing prefixes is comparing longs; equal prefixes (rare) are
 * ordered by the full hash, recomputed from the slot's endpoint, then by bytes. Not thread-safe; one per
 * {@link RingForest}.
 */
final class RingKeyOrder {
    /** The ring hash's bits kept in a key, above the slot (see {@link #key}). */
    private static final long PREFIX = 0xFFFF_FFFF_0000_0000L;

    /** The mixed seed of each ring, so a ring hash is one mix of the endpoint's base hash. */
    private final long[] ringSeeds;
    /** Applied to every ring hash: all ones in production; tests narrow it to force equal hashes. */
    private final long hashMask;
    /** The endpoint of each slot, shared with the view (which replaces it when it grows). */
    private Endpoint[] endpoints;

    RingKeyOrder(int rings, long hashMask, Endpoint[] endpoints) {
        this.hashMask = hashMask;
        this.endpoints = endpoints;
        this.ringSeeds = new long[rings];
        for (int k = 0; k < rings; k++) {
            ringSeeds[k] = SeededHash.seedMix(k);
        }
    }

    void useEndpoints(Endpoint[] bySlot) {
        this.endpoints = bySlot;
    }

    long ringHash(long baseHash, int k) {
        return SeededHash.seededByMix(baseHash, ringSeeds[k]) & hashMask;
    }

    /** The member a stored key stands for. */
    Endpoint endpoint(long key) {
        return endpoints[slot(key)];
    }

    /**
     * A stored key: the ring hash's high 32 bits above the slot. Keys with different prefixes order as their longs do;
     * equal prefixes (about one search in 2^32 / N) are ordered by the full ring hash, recomputed from the slot's
     * endpoint, then by its bytes.
     */
    static long key(long h, int s) {
        return h & PREFIX | s;
    }

    static int slot(long key) {
        return (int) key;
    }

    /**
     * How many of the n keys from {@code base} order before (h, e) in ring k, or not after it when {@code inclusive}:
     * a linear scan that stops at the first key whose prefix is not below h's (one mispredicted branch per block;
     * measured faster here than a branch-free count of the whole block, interpolation from the block's first and last
     * key, or a halving step first); a run of equal prefixes is then ordered by full hash and bytes.
     */
    int rank(long[] keys, int base, int n, int k, long h, Endpoint e, boolean inclusive) {
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
    int compare(int k, long h, Endpoint e, int s) {
        Endpoint other = endpoints[s];
        int order = Long.compare(h, ringHash(other.baseHash(), k));
        return order != 0 ? order : e.compareTo(other);
    }
}
