package io.sluice.log;

/**
 * An offset, the timestamp found for it and the leader epoch of its batch, answering ListOffsets. Immutable.
 */
public record OffsetAndTimestamp(long offset, long timestamp, int leaderEpoch) {

    /** Without a known leader epoch (-1). */
    public OffsetAndTimestamp(long offset, long timestamp) {
        this(offset, timestamp, -1);
    }
}
