package io.sluice.broker.move;

/**
 * Whether two listings of a partition describe the same history where both reach: the leader epoch of every offset
 * from the later of their log starts up to the earlier of their boundaries is the same in both. Bytes staged from
 * one listing are a prefix of the other's files only then; after an unclean election the new leader's listing reuses
 * segment base offsets for records of another history, and its epochs differ from the divergence on (the new leader's
 * epoch starts where its log ended), so a staged prefix that reaches past the divergence is told apart.
 *
 * <p>Stateless; thread-safe.
 */
final class EpochHistoryMatch {
    private EpochHistoryMatch() {}

    /** Whether {@code earlier} and {@code later} agree on the epoch of every offset both cover below their boundaries. */
    static boolean agree(MoveSegmentList earlier, MoveSegmentList later) {
        long from = Math.max(earlier.logStartOffset, later.logStartOffset);
        long to = Math.min(earlier.boundaryOffset, later.boundaryOffset);
        if (from >= to) {
            return true;
        }
        if (epochAt(earlier, from) != epochAt(later, from)) {
            return false;
        }
        return changesAgree(earlier, later, from, to) && changesAgree(later, earlier, from, to);
    }

    /**
     * Whether at every offset in {@code (from, to)} where {@code one}'s epoch changes, {@code other} has the epoch
     * {@code one} has there. That is the epoch of {@code one}'s last entry starting at that offset: an entry followed
     * by another at the same offset holds no offset (a leader elected that wrote nothing before the next took over),
     * and a replica that was not that leader does not list it.
     */
    private static boolean changesAgree(MoveSegmentList one, MoveSegmentList other, long from, long to) {
        for (int i = 0; i < one.epochs.length; i++) {
            long start = one.epochStartOffsets[i];
            if (start > from && start < to && epochAt(other, start) != epochAt(one, start)) {
                return false;
            }
        }
        return true;
    }

    /** The epoch {@code listing} gives {@code offset}: its last entry starting at or below it (-1: none does). */
    private static int epochAt(MoveSegmentList listing, long offset) {
        int epoch = -1;
        for (int i = 0; i < listing.epochs.length && listing.epochStartOffsets[i] <= offset; i++) {
            epoch = listing.epochs[i];
        }
        return epoch;
    }
}
