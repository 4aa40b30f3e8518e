package io.sluice.broker.network;

/**
 * A growable ring of arrival times, one per queued frame; no allocation once it fits the connection's pipeline.
 *
 * <p>Not thread-safe: one per connection, used on its request thread.
 */
final class ArrivalTimes {
    private long[] times;
    private int head;
    private int size;

    ArrivalTimes(int capacity) {
        times = new long[capacity];
    }

    void add(long nanos) {
        if (size == times.length) {
            long[] grown = new long[times.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = times[(head + i) % times.length];
            }
            times = grown;
            head = 0;
        }
        times[(head + size) % times.length] = nanos;
        size++;
    }

    /** The oldest arrival time; the current time when none is held (a frame queued before timing was on). */
    long poll() {
        if (size == 0) {
            return System.nanoTime();
        }
        long nanos = times[head];
        head = (head + 1) % times.length;
        size--;
        return nanos;
    }

    void clear() {
        head = 0;
        size = 0;
    }
}
