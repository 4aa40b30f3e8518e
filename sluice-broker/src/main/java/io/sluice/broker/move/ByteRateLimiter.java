package io.sluice.broker.move;

/**
 * Bounds the byte rate of partition-move traffic; Kafka's {@code leader.replication.throttled.rate} (source side)
 * and {@code follower.replication.throttled.rate} (target side) plug in here. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface ByteRateLimiter {
    /** No limit. */
    ByteRateLimiter UNLIMITED = bytes -> 0L;

    /**
     * Records that {@code bytes} are about to move and returns how long the caller should wait before moving them,
     * in nanoseconds (0: at once). The source delays its answer without blocking a request thread; the target
     * parks its own transfer thread.
     */
    long reserveNanos(long bytes);

    /** The rate in force now, in bytes per second; {@link Long#MAX_VALUE} when unlimited. */
    default long bytesPerSecond() {
        return Long.MAX_VALUE;
    }
}
