package io.sluice.broker.replica;

/**
 * What the leader knows of one follower of a partition, learned from its fetches: its log end offset (the offset it
 * fetches from), its log start offset and when it was last caught up with the leader, Kafka's rule for ISR membership
 * ({@code replica.lag.time.max.ms}).
 *
 * <p>Thread-safe: fetch handler threads update it under the owning {@link LeaderState}'s lock; readers see volatile
 * fields.
 */
public final class FollowerProgress {
    /** The follower has not fetched since this broker became leader: its log end offset is unknown. */
    public static final long UNKNOWN_OFFSET = -1;

    private final int brokerId;
    private volatile long logEndOffset = UNKNOWN_OFFSET;
    private volatile long logStartOffset = UNKNOWN_OFFSET;
    private volatile long lastCaughtUpMs;
    private long lastFetchMs;
    private long leaderEndOffsetAtLastFetch = UNKNOWN_OFFSET;

    FollowerProgress(int brokerId, long nowMs) {
        this.brokerId = brokerId;
        this.lastCaughtUpMs = nowMs;
    }

    public int brokerId() {
        return brokerId;
    }

    public long logEndOffset() {
        return logEndOffset;
    }

    /** The log start offset the follower reported in its last fetch (DeleteRecords' low watermark), or unknown. */
    public long logStartOffset() {
        return logStartOffset;
    }

    void onLogStart(long followerLogStart) {
        logStartOffset = followerLogStart;
    }

    public long lastCaughtUpMs() {
        return lastCaughtUpMs;
    }

    /**
     * Records a fetch from {@code fetchOffset} answered when the leader's log ended at {@code leaderEndOffset}. The
     * follower was caught up at this fetch when it asked for the leader's end, and at its previous fetch when it now
     * asks for what the leader's end was then.
     */
    void onFetch(long fetchOffset, long leaderEndOffset, long nowMs) {
        if (fetchOffset >= leaderEndOffset) {
            lastCaughtUpMs = Math.max(lastCaughtUpMs, nowMs);
        } else if (leaderEndOffsetAtLastFetch != UNKNOWN_OFFSET && fetchOffset >= leaderEndOffsetAtLastFetch) {
            lastCaughtUpMs = Math.max(lastCaughtUpMs, lastFetchMs);
        }
        logEndOffset = fetchOffset;
        lastFetchMs = nowMs;
        leaderEndOffsetAtLastFetch = leaderEndOffset;
    }
}
