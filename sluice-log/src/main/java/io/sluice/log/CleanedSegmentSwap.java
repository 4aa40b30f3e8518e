package io.sluice.log;

import io.sluice.log.checkpoint.AtomicFile;
import io.sluice.log.segment.CleanFaults;
import io.sluice.log.segment.CleanStep;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentFileNames;
import io.sluice.log.ship.SegmentPins;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Swaps a cleaned segment in for the segments it replaces, Kafka's way: {@code .cleaned} to {@code .swap}, the
 * replaced segments to {@code .deleted} (their files stay open for in-flight reads), {@code .swap} to the final
 * names, each step made durable before the next; the new chain is installed and the replaced segments' files are
 * deleted after the delete delay.
 * Stateless and thread-safe: {@link #replace} takes the partition's lock.
 */
final class CleanedSegmentSwap {
    private CleanedSegmentSwap() {}

    /**
     * Swaps {@code cleaned} in for {@code replaced} in the log of {@code state}, under its lock.
     *
     * @return false, changing nothing, when the log changed meanwhile (see {@link PartitionLog#replaceSegments})
     */
    static boolean replace(
            PartitionLogState state, LogSegment[] replaced, int[] sizes, LogSegment cleaned, CleanFaults faults)
            throws IOException {
        state.lock.lock();
        try {
            if (state.closed) {
                return false;
            }
            LogSegment[] next = swapIn(state.dir, state.segments, replaced, sizes, cleaned, state.pins, faults);
            if (next == null) {
                return false;
            }
            state.segments = next;
            long deleteAtMs = state.clock.getAsLong() + state.config.fileDeleteDelayMs();
            for (LogSegment old : replaced) {
                state.deletions.deleteAt(old, deleteAtMs);
            }
            return true;
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * Renames the files and returns the new chain: {@code chain} with {@code cleaned} in place of the consecutive
     * segments {@code replaced}.
     *
     * @param sizes the sizes of {@code replaced} when the clean read them
     * @return null, changing nothing, when the chain no longer holds {@code replaced} as read (truncated, retention,
     *         appended to, or pinned by a move)
     */
    private static LogSegment[] swapIn(
            Path dir,
            LogSegment[] chain,
            LogSegment[] replaced,
            int[] sizes,
            LogSegment cleaned,
            SegmentPins pins,
            CleanFaults faults)
            throws IOException {
        int first = -1;
        for (int i = 0; i < chain.length - 1 && first < 0; i++) {
            if (chain[i] == replaced[0]) {
                first = i;
            }
        }
        if (first < 0 || first + replaced.length > chain.length - 1) {
            return null;
        }
        for (int i = 0; i < replaced.length; i++) {
            LogSegment old = chain[first + i];
            if (old != replaced[i] || old.size() != sizes[i] || pins.holds(old.nextOffset())) {
                return null;
            }
        }
        cleaned.changeFileSuffixes(SegmentFileNames.CLEANED_SUFFIX, SegmentFileNames.SWAP_SUFFIX);
        AtomicFile.fsyncDirectory(dir);
        faults.reached(CleanStep.SWAP_RENAMED);
        // an I/O error from here on leaves the old segments in the chain, readable through their open channels,
        // and the swap for the next start's recovery to complete
        for (LogSegment old : replaced) {
            old.renameForDeletion();
            faults.reached(CleanStep.OLD_SEGMENT_DELETED);
        }
        cleaned.changeFileSuffixes(SegmentFileNames.SWAP_SUFFIX, "");
        AtomicFile.fsyncDirectory(dir);
        faults.reached(CleanStep.SWAP_COMPLETED);
        LogSegment[] next = new LogSegment[chain.length - replaced.length + 1];
        System.arraycopy(chain, 0, next, 0, first);
        next[first] = cleaned;
        System.arraycopy(chain, first + replaced.length, next, first + 1, chain.length - first - replaced.length);
        return next;
    }
}
