package io.sluice.log.clean;

import java.util.function.LongSupplier;

/**
 * Holds the cleaner threads together to log.cleaner.io.max.bytes.per.second of reads plus writes: each call books its
 * bytes on one schedule and waits until the schedule says they may have passed (up to a second of unused rate may be
 * spent at once). Waits end early when {@link #stop()} is called or the rate changes. Thread-safe.
 */
final class IoThrottle {
    private static final long BURST_NANOS = 1_000_000_000L;

    private double bytesPerSecond;
    private final LongSupplier nanoClock;
    private long nextFreeNanos;
    private boolean stopped;

    IoThrottle(double bytesPerSecond, LongSupplier nanoClock) {
        this.bytesPerSecond = bytesPerSecond;
        this.nanoClock = nanoClock;
        this.nextFreeNanos = nanoClock.getAsLong();
    }

    synchronized boolean unlimited() {
        return bytesPerSecond >= Double.MAX_VALUE / 2;
    }

    /** Takes a new rate (log.cleaner.io.max.bytes.per.second changed): what was booked is forgiven, waiters re-check. */
    synchronized void rate(double newBytesPerSecond) {
        bytesPerSecond = newBytesPerSecond;
        nextFreeNanos = nanoClock.getAsLong();
        notifyAll();
    }

    synchronized double rate() {
        return bytesPerSecond;
    }

    /** Books {@code bytes} and waits until the rate allows them. */
    synchronized void acquire(long bytes) {
        if (unlimited() || bytes <= 0) {
            return;
        }
        long now = nanoClock.getAsLong();
        nextFreeNanos = Math.max(nextFreeNanos, now - BURST_NANOS) + (long) (bytes * 1e9 / bytesPerSecond);
        long waitNanos;
        while (!stopped && (waitNanos = nextFreeNanos - nanoClock.getAsLong()) > 0) {
            try {
                wait(Math.max(1, waitNanos / 1_000_000), 0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    synchronized void stop() {
        stopped = true;
        notifyAll();
    }
}
