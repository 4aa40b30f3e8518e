package io.sluice.log;

import io.sluice.log.segment.LogSegment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Segments removed from a partition's chain (already renamed to {@code .deleted}) waiting out
 * log.segment.delete.delay.ms with their channels open, so in-flight reads and file transfers finish; then closed and
 * deleted. Not thread-safe; owned by one partition log's {@link PartitionLogState} and used only under its lock.
 */
final class SegmentDeletionQueue {
    private record PendingDeletion(LogSegment segment, long deleteAtMs) {}

    private final List<PendingDeletion> pending = new ArrayList<>();

    /** Deletes the files of {@code segment}, renamed for deletion already, once {@code deleteAtMs} has passed. */
    void deleteAt(LogSegment segment, long deleteAtMs) {
        pending.add(new PendingDeletion(segment, deleteAtMs));
    }

    /** Closes and deletes the files of every segment whose time has come. */
    void deleteDue(long nowMs) throws IOException {
        Iterator<PendingDeletion> it = pending.iterator();
        while (it.hasNext()) {
            PendingDeletion next = it.next();
            if (next.deleteAtMs() <= nowMs) {
                next.segment().closeAndDelete();
                it.remove();
            }
        }
    }

    /** Closes and deletes the files of every waiting segment now (the log closes). */
    void deleteAllNow() throws IOException {
        for (PendingDeletion next : pending) {
            next.segment().closeAndDelete();
        }
        pending.clear();
    }
}
