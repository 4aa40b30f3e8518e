package io.sluice.broker.replica;

import io.sluice.broker.move.ByteRateLimiter;
import java.util.function.LongSupplier;

/**
 * One of Kafka's replication throttles (KIP-73: {@code leader.replication.throttled.rate} or
 * {@code follower.replication.throttled.rate}) as a byte budget on a virtual clock: each byte moved for a throttled
 * partition pushes the clock by its share of a second at the rate in force, and the quota is exceeded while the
 * clock runs ahead of real time. Up to one second of unused budget carries over, so short bursts pass (Kafka's quota
 * window does the same). The rate is read at every call, so a dynamic change applies at once; Long.MAX_VALUE means
 * unthrottled. The replica fetcher and the leader skip throttled partitions while it is exceeded; a partition move
 * waits {@link #reserveNanos} before each chunk.
 *
 * <p>Thread-safe (synchronized).
 */
public final class ReplicationQuota implements ByteRateLimiter {
    private static final long SECOND_NANOS = 1_000_000_000L;

    private final LongSupplier bytesPerSecond;
    private final LongSupplier nanoClock;
    private long budgetUsedUntilNanos;

    /** @param bytesPerSecond the rate in force now; Long.MAX_VALUE or below 1 means unthrottled */
    public ReplicationQuota(LongSupplier bytesPerSecond) {
        this(bytesPerSecond, System::nanoTime);
    }

    ReplicationQuota(LongSupplier bytesPerSecond, LongSupplier nanoClock) {
        this.bytesPerSecond = bytesPerSecond;
        this.nanoClock = nanoClock;
        this.budgetUsedUntilNanos = nanoClock.getAsLong() - SECOND_NANOS;
    }

    /** Whether the bytes recorded already use up the budget up to now. */
    public synchronized boolean isExceeded() {
        return !unthrottled() && budgetUsedUntilNanos > nanoClock.getAsLong();
    }

    /** Counts {@code bytes} moved for a throttled partition. */
    public synchronized void record(long bytes) {
        if (!unthrottled() && bytes > 0) {
            advance(bytes);
        }
    }

    @Override
    public synchronized long reserveNanos(long bytes) {
        if (unthrottled() || bytes <= 0) {
            return 0;
        }
        long now = nanoClock.getAsLong();
        long startsAt = Math.max(budgetUsedUntilNanos, now - SECOND_NANOS);
        advance(bytes);
        return Math.max(0, startsAt - now);
    }

    @Override
    public long bytesPerSecond() {
        return unthrottled() ? Long.MAX_VALUE : bytesPerSecond.getAsLong();
    }

    private void advance(long bytes) {
        long now = nanoClock.getAsLong();
        long from = Math.max(budgetUsedUntilNanos, now - SECOND_NANOS);
        budgetUsedUntilNanos = from + (long) (bytes * (double) SECOND_NANOS / bytesPerSecond.getAsLong());
    }

    private boolean unthrottled() {
        long rate = bytesPerSecond.getAsLong();
        return rate == Long.MAX_VALUE || rate < 1;
    }
}
