package io.sluice.log.segment;

/**
 * The durable steps of one clean of a group of segments, in order; a crash after any of them leaves a directory that
 * {@link SwapRecovery} turns back into a valid log. Tests inject faults at each (see {@link CleanFaults}). Immutable.
 */
public enum CleanStep {
    /** Some batches written to the {@code .cleaned} files, not all. */
    CLEANED_PARTIAL,
    /** The {@code .cleaned} files written whole and fsynced. */
    CLEANED_WRITTEN,
    /** The {@code .cleaned} files renamed to {@code .swap} and the directory fsynced. */
    SWAP_RENAMED,
    /** One replaced segment renamed to {@code .deleted} (reached once per replaced segment). */
    OLD_SEGMENT_DELETED,
    /** The {@code .swap} files renamed to their final names. */
    SWAP_COMPLETED,
    /** The cleaner checkpoint written after the clean. */
    CHECKPOINT_WRITTEN
}
