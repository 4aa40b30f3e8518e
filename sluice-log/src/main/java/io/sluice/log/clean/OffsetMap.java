package io.sluice.log.clean;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A bounded map from keys to the latest offset they were written at, holding a 128-bit hash of each key instead of the
 * key (so memory per key is fixed: {@link #ENTRY_BYTES}), in open-addressed arrays with linear probing. Two keys with
 * the same 128-bit hash would be confused (the older record of one removed because of the other); at 2^-128 per pair
 * this is the same bet Kafka's cleaner makes with MD5. The arrays start small and grow up to the memory given, so an
 * idle or small log costs little. Not thread-safe; one per cleaner thread.
 */
public final class OffsetMap {
    /** Two longs of hash and one of offset. */
    public static final int ENTRY_BYTES = 3 * Long.BYTES;

    private static final int INITIAL_SLOTS = 1 << 12;
    private static final long EMPTY = -1L;
    /** Fill of a table that may still grow at which it grows (probes stay short until the table is at its cap). */
    private static final double GROW_AT = 0.75;

    private final int maxSlots;
    private final double loadFactor;
    private long[] hashHigh;
    private long[] hashLow;
    private long[] offsets;
    private int size;
    private long latestOffset = -1L;
    private long lookupHigh;
    private long lookupLow;

    /**
     * @param memoryBytes most bytes the arrays may take
     * @param loadFactor  share of the slots that may be used before the map counts as full
     */
    public OffsetMap(long memoryBytes, double loadFactor) {
        this.maxSlots = (int) Math.max(16, Math.min(Integer.MAX_VALUE - 8, memoryBytes / ENTRY_BYTES));
        this.loadFactor = loadFactor;
        allocate(Math.min(maxSlots, INITIAL_SLOTS));
    }

    private void allocate(int slots) {
        hashHigh = new long[slots];
        hashLow = new long[slots];
        offsets = new long[slots];
        Arrays.fill(offsets, EMPTY);
        size = 0;
    }

    /** Keys this map may hold before {@link #put} refuses new ones. */
    public int maxEntries() {
        // one slot always stays empty, so a probe for an absent key ends
        return (int) Math.min(maxSlots - 1L, (long) (maxSlots * loadFactor));
    }

    /**
     * Records that the key in {@code key[position, position + length)} was written at {@code offset} (offsets come in
     * ascending order, so this is its latest).
     *
     * @return false, recording nothing, when the key is new and the map is full
     */
    public boolean put(ByteBuffer key, int position, int length, long offset) {
        hash(key, position, length);
        int slot = find(lookupHigh, lookupLow);
        if (offsets[slot] != EMPTY) {
            offsets[slot] = offset;
            return true;
        }
        if (size >= maxEntries()) {
            return false;
        }
        if (size + 1 > offsets.length * Math.min(loadFactor, GROW_AT) && offsets.length < maxSlots) {
            grow();
            slot = find(lookupHigh, lookupLow);
        }
        hashHigh[slot] = lookupHigh;
        hashLow[slot] = lookupLow;
        offsets[slot] = offset;
        size++;
        return true;
    }

    /** The latest offset recorded for the key, or -1 when it was not recorded. */
    public long get(ByteBuffer key, int position, int length) {
        hash(key, position, length);
        return offsets[find(lookupHigh, lookupLow)];
    }

    private int find(long high, long low) {
        int slots = offsets.length;
        int slot = (int) Long.remainderUnsigned(high ^ Long.rotateLeft(low, 17), slots);
        while (offsets[slot] != EMPTY && (hashHigh[slot] != high || hashLow[slot] != low)) {
            slot = slot + 1 == slots ? 0 : slot + 1;
        }
        return slot;
    }

    private void grow() {
        long[] oldHigh = hashHigh;
        long[] oldLow = hashLow;
        long[] oldOffsets = offsets;
        allocate((int) Math.min(maxSlots, 2L * oldOffsets.length));
        for (int i = 0; i < oldOffsets.length; i++) {
            if (oldOffsets[i] != EMPTY) {
                int slot = find(oldHigh[i], oldLow[i]);
                hashHigh[slot] = oldHigh[i];
                hashLow[slot] = oldLow[i];
                offsets[slot] = oldOffsets[i];
                size++;
            }
        }
    }

    /** Empties the map for the next clean, keeping its arrays. */
    public void clear() {
        Arrays.fill(offsets, EMPTY);
        size = 0;
        latestOffset = -1L;
    }

    public int size() {
        return size;
    }

    /** Keys held over the slots the whole memory gives (Kafka's buffer utilization: 0 empty, 1 every slot used). */
    public double utilization() {
        return (double) size / maxSlots;
    }

    /** The last offset of the last batch whose keys were all recorded; records after it are not in the map. */
    public long latestOffset() {
        return latestOffset;
    }

    public void latestOffset(long offset) {
        latestOffset = offset;
    }

    /** Bytes the arrays take now. */
    public long memoryBytes() {
        return (long) offsets.length * ENTRY_BYTES;
    }

    /** MurmurHash3 x64 128 (Austin Appleby's public-domain design) of the key bytes into lookupHigh/lookupLow. */
    private void hash(ByteBuffer b, int position, int length) {
        final long c1 = 0x87c37b91114253d5L;
        final long c2 = 0x4cf5ad432745937fL;
        long h1 = 0x9368e53c2f6af274L;
        long h2 = 0x586dcd208f7cd3fdL;
        int blocks = length / 16;
        int at = position;
        for (int i = 0; i < blocks; i++, at += 16) {
            long k1 = Long.reverseBytes(b.getLong(at));
            long k2 = Long.reverseBytes(b.getLong(at + 8));
            h1 ^= Long.rotateLeft(k1 * c1, 31) * c2;
            h1 = (Long.rotateLeft(h1, 27) + h2) * 5 + 0x52dce729;
            h2 ^= Long.rotateLeft(k2 * c2, 33) * c1;
            h2 = (Long.rotateLeft(h2, 31) + h1) * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        int tail = length & 15;
        for (int i = tail - 1; i >= 8; i--) {
            k2 = (k2 << 8) | (b.get(at + i) & 0xffL);
        }
        for (int i = Math.min(tail, 8) - 1; i >= 0; i--) {
            k1 = (k1 << 8) | (b.get(at + i) & 0xffL);
        }
        if (tail > 8) {
            h2 ^= Long.rotateLeft(k2 * c2, 33) * c1;
        }
        if (tail > 0) {
            h1 ^= Long.rotateLeft(k1 * c1, 31) * c2;
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = mix(h1);
        h2 = mix(h2);
        h1 += h2;
        h2 += h1;
        lookupHigh = h1;
        lookupLow = h2;
    }

    private static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
