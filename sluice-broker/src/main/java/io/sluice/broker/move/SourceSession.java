package io.sluice.broker.move;

import io.sluice.log.PartitionLog;
import io.sluice.log.ship.ClosedSegment;
import io.sluice.log.ship.SegmentRangeChecksum;
import io.sluice.log.ship.ShippableLog;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * One transfer a {@link MoveSource} serves: its pinned view, the listing it answered, the connections it came on and
 * how far each segment was answered. Thread-safe.
 */
final class SourceSession {
    final long transferId;
    final String topic;
    final int partition;
    final PartitionLog log;
    final ShippableLog view;
    final MoveSegmentList listing;
    final Set<InboundMoveConnection> connections = ConcurrentHashMap.newKeySet();
    /** Chunk checksums, continuing from the previous chunk's batch boundary; guarded by itself. */
    final SegmentRangeChecksum checksum = new SegmentRangeChecksum();

    /** Per segment of the view, the end of the bytes answered so far; guarded by itself. */
    private final long[] answeredEnds;

    volatile long detachedAtMs;

    SourceSession(
            long transferId,
            String topic,
            int partition,
            PartitionLog log,
            ShippableLog view,
            MoveSegmentList listing) {
        this.transferId = transferId;
        this.topic = topic;
        this.partition = partition;
        this.log = log;
        this.view = view;
        this.listing = listing;
        this.answeredEnds = new long[view.segments().size()];
    }

    /**
     * Records that segment {@code index} was answered up to {@code end} and lets retention take the segments below
     * the first one not yet answered to its end. A target asks for files out of order (its page cache lane works
     * from the partition's end while its disk lane works from the start), so the segment asked for last says
     * nothing about the ones below it.
     */
    void answered(int index, long end) {
        List<ClosedSegment> segments = view.segments();
        long releaseBelow;
        synchronized (answeredEnds) {
            answeredEnds[index] = Math.max(answeredEnds[index], end);
            int first = 0;
            while (first < answeredEnds.length
                    && answeredEnds[first] >= segments.get(first).sizeInBytes()) {
                first++;
            }
            releaseBelow = first < answeredEnds.length ? segments.get(first).baseOffset() : view.boundaryOffset();
        }
        view.releaseBelow(releaseBelow);
    }

    void attach(InboundMoveConnection connection, LongSupplier clockMs) {
        if (connections.add(connection)) {
            connection.whenClosed(() -> {
                detachedAtMs = clockMs.getAsLong();
                connections.remove(connection);
            });
        }
    }
}
