package io.sluice.log.producer;

/**
 * What is remembered of one of a producer's recent batches, enough to answer a retry with the original offsets.
 * Immutable.
 */
public record BatchMetadata(int lastSeq, long lastOffset, int offsetDelta, long timestamp) {

    /** First sequence of the batch, wrapping below 0 back to Integer.MAX_VALUE like Kafka's sequences. */
    public int firstSeq() {
        long first = (long) lastSeq - offsetDelta;
        return first < 0 ? (int) (first + Integer.MAX_VALUE + 1) : (int) first;
    }

    public long firstOffset() {
        return lastOffset - offsetDelta;
    }
}
