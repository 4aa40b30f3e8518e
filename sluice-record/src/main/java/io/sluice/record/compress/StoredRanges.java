package io.sluice.record.compress;

/**
 * The from/to pairs {@link PayloadDecompressor#storedRanges} writes: one place that appends a
 * range and refuses when the caller's array is full.
 *
 * <p>Stateless; thread-safe.
 */
final class StoredRanges {

    private StoredRanges() {}

    /**
     * Appends {@code [from, to)} as range number {@code count} of {@code ranges} unless it is empty;
     * returns the new count, or {@link PayloadDecompressor#NOT_STORED} when the array has no room.
     */
    static int append(int[] ranges, int count, int from, int to) {
        if (from == to) {
            return count;
        }
        if (2 * count + 1 >= ranges.length) {
            return PayloadDecompressor.NOT_STORED;
        }
        ranges[2 * count] = from;
        ranges[2 * count + 1] = to;
        return count + 1;
    }
}
