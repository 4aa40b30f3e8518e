package io.sluice.broker.move;

/**
 * A {@link ByteRateLimiter} at a fixed rate: each reservation moves a virtual clock forward by its bytes' share of a
 * second, and the caller waits until the clock catches up with the real one. Thread-safe (synchronized).
 */
public final class FixedByteRateLimiter implements ByteRateLimiter {
    private final long bytesPerSecond;
    private long nextFreeNanos = System.nanoTime();

    public FixedByteRateLimiter(long bytesPerSecond) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("bytesPerSecond must be > 0, was " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    @Override
    public synchronized long reserveNanos(long bytes) {
        long now = System.nanoTime();
        long start = Math.max(now, nextFreeNanos);
        nextFreeNanos = start + (long) (bytes * 1e9 / bytesPerSecond);
        return start - now;
    }

    @Override
    public long bytesPerSecond() {
        return bytesPerSecond;
    }
}
