package io.sluice.broker.move;

import io.sluice.log.PartitionLog;
import io.sluice.log.ship.ClosedSegment;
import io.sluice.log.ship.SegmentRangeChecksum;
import io.sluice.log.ship.ShippableLog;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * One transfer a {@link MoveSource} serves: its pinned view, the listing it answered, the connections it came on and
 * how far the target has received each segment. A chunk answer counts as received only once the target proves it
 * took it in: it keeps at most {@code sluice.move.chunks.in.flight} requests outstanding on a connection and asks
 * for a new chunk only after reading an answer, so the request that many after an answer on the same connection
 * proves that answer was read. Answers still unproven when their connection closes were perhaps lost with it: the
 * target asks for them again, so their segment stays pinned (releasing a segment once answered let retention delete
 * it before a target whose connection broke had it, and the target had to reopen the transfer on a new listing).
 * Closing the transfer releases everything. A target keeping more requests in flight than this broker's setting gets
 * its pins released that much earlier. Thread-safe.
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

    /** Per segment of the view, the end of the bytes the target has received so far; guarded by itself. */
    private final long[] receivedEnds;
    /**
     * Per connection, how many chunk requests it carried and the answers on it not yet proven read, oldest first,
     * each {request number, segment index, end}; guarded by {@link #receivedEnds}.
     */
    private final Map<InboundMoveConnection, ArrayDeque<long[]>> unproven = new HashMap<>();

    private final Map<InboundMoveConnection, long[]> requestCounts = new HashMap<>();
    /** The most chunk requests a target keeps outstanding on one connection. */
    private final int requestsInFlight;

    volatile long detachedAtMs;

    SourceSession(
            long transferId,
            String topic,
            int partition,
            PartitionLog log,
            ShippableLog view,
            MoveSegmentList listing,
            int requestsInFlight) {
        this.transferId = transferId;
        this.topic = topic;
        this.partition = partition;
        this.log = log;
        this.view = view;
        this.listing = listing;
        this.receivedEnds = new long[view.segments().size()];
        this.requestsInFlight = Math.max(1, requestsInFlight);
    }

    /**
     * Counts a chunk request arriving on {@code connection} (requests of one connection arrive one at a time, in
     * the order sent) and takes the answers it proves read as received; returns its number, for {@link #answered}.
     */
    long asked(InboundMoveConnection connection) {
        long number;
        boolean received = false;
        synchronized (receivedEnds) {
            number = ++requestCounts.computeIfAbsent(connection, c -> new long[1])[0];
            ArrayDeque<long[]> answers = unproven.get(connection);
            while (answers != null && !answers.isEmpty() && answers.peekFirst()[0] <= number - requestsInFlight) {
                long[] answer = answers.pollFirst();
                receivedEnds[(int) answer[1]] = Math.max(receivedEnds[(int) answer[1]], answer[2]);
                received = true;
            }
        }
        if (received) {
            releaseReceived();
        }
        return number;
    }

    /** Records that request {@code number} on {@code connection} was answered with segment {@code index} up to {@code end}. */
    void answered(InboundMoveConnection connection, long number, int index, long end) {
        synchronized (receivedEnds) {
            if (requestCounts.containsKey(connection)) { // else the connection closed meanwhile
                unproven.computeIfAbsent(connection, c -> new ArrayDeque<>()).addLast(new long[] {number, index, end});
            }
        }
    }

    /**
     * Lets retention take the segments below the first one the target has not received to its end. A target asks
     * for files out of order (its page cache lane works from the partition's end while its disk lane works from the
     * start), so the segment received last says nothing about the ones below it.
     */
    private void releaseReceived() {
        List<ClosedSegment> segments = view.segments();
        long releaseBelow;
        synchronized (receivedEnds) {
            int first = 0;
            while (first < receivedEnds.length
                    && receivedEnds[first] >= segments.get(first).sizeInBytes()) {
                first++;
            }
            releaseBelow = first < receivedEnds.length ? segments.get(first).baseOffset() : view.boundaryOffset();
        }
        view.releaseBelow(releaseBelow);
    }

    void attach(InboundMoveConnection connection, LongSupplier clockMs) {
        if (connections.add(connection)) {
            synchronized (receivedEnds) {
                requestCounts.putIfAbsent(connection, new long[1]);
            }
            connection.whenClosed(() -> {
                detachedAtMs = clockMs.getAsLong();
                connections.remove(connection);
                synchronized (receivedEnds) { // answers not proven read were perhaps lost with it
                    unproven.remove(connection);
                    requestCounts.remove(connection);
                }
            });
        }
    }
}
