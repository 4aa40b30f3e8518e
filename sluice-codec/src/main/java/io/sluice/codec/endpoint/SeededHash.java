package io.sluice.codec.endpoint;

/**
 * A seeded 64-bit hash over host bytes and port: FNV-1a over the bytes followed by the MurmurHash3 finalizer, so
 * every seed gives an independent, well-mixed order. Stateless; safe to share.
 */
public final class SeededHash {
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;

    private SeededHash() {
    }

    public static long hash(byte[] bytes, int port, long seed) {
        long h = FNV_OFFSET ^ mix(seed);
        for (byte b : bytes) {
            h = (h ^ (b & 0xFF)) * FNV_PRIME;
        }
        h = (h ^ port) * FNV_PRIME;
        return mix(h);
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
