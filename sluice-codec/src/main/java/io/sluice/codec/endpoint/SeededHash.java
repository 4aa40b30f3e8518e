package io.sluice.codec.endpoint;

/**
 * Seeded 64-bit hashes of an endpoint: one pass over the host bytes and port gives a 64-bit base hash (FNV-1a then the
 * MurmurHash3 finalizer), computed once per endpoint; each seed's hash is the finalizer applied to the base mixed with
 * the seed, so K ring orders cost one pass over the bytes plus K mixes, and different seeds give independent orders.
 * Stateless; safe to share.
 */
public final class SeededHash {
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;

    private SeededHash() {}

    private static final long SEED_STEP = 0x9e3779b97f4a7c15L;

    /** The base hash of host bytes and port. */
    public static long base(byte[] bytes, int port) {
        long h = FNV_OFFSET;
        for (byte b : bytes) {
            h = (h ^ (b & 0xFF)) * FNV_PRIME;
        }
        h = (h ^ port) * FNV_PRIME;
        return mix(h);
    }

    /** The hash under {@code seed} of an endpoint whose base hash is {@code base}. */
    public static long seeded(long base, long seed) {
        return seededByMix(base, seedMix(seed));
    }

    /** The part of {@link #seeded} that depends only on the seed, for callers hashing many endpoints per seed. */
    public static long seedMix(long seed) {
        return mix(seed * SEED_STEP + SEED_STEP);
    }

    /** {@code seeded(base, seed)} given {@code seedMix(seed)}: one mix. */
    public static long seededByMix(long base, long seedMix) {
        return mix(base ^ seedMix);
    }

    /** Shorthand for {@code seeded(base(bytes, port), seed)}. */
    public static long hash(byte[] bytes, int port, long seed) {
        return seeded(base(bytes, port), seed);
    }

    /** MurmurHash3 fmix64. */
    public static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
