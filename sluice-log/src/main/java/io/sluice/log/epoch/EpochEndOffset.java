package io.sluice.log.epoch;

/**
 * Answer to OffsetsForLeaderEpoch: the largest epoch at most the one asked for, and the offset where it ended
 * (the start of the next epoch, or the log end for the latest). Both -1 when unknown. Immutable.
 */
public record EpochEndOffset(int epoch, long endOffset) {
    public static final int UNDEFINED_EPOCH = -1;
    public static final long UNDEFINED_OFFSET = -1L;
    public static final EpochEndOffset UNDEFINED = new EpochEndOffset(UNDEFINED_EPOCH, UNDEFINED_OFFSET);
}
