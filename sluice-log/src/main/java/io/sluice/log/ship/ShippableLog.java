package io.sluice.log.ship;

import io.sluice.log.epoch.EpochEntry;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentFileNames;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;

/**
 * What a source replica ships to a new replica of a partition, fixed at one moment: the closed segments below a
 * boundary offset (pinned against retention until {@link #close()}), the leader epochs in force below the boundary,
 * and the newest producer snapshot at or below the boundary (opened at that moment, so a later snapshot rotation
 * that deletes its name does not take the bytes away). The receiver replays the shipped batches between the
 * snapshot and the boundary, as log recovery does, so producer state is exact at the boundary.
 *
 * <p>Immutable except {@link #close()}; thread-safe.
 */
public final class ShippableLog implements AutoCloseable {
    private final long logStartOffset;
    private final long boundaryOffset;
    private final List<ClosedSegment> segments;
    private final List<EpochEntry> epochs;
    private final long producerSnapshotOffset;
    private final FileChannel producerSnapshot;
    private final long producerSnapshotSize;
    private final SegmentPins.Pin pin;

    private ShippableLog(
            long logStartOffset,
            long boundaryOffset,
            List<ClosedSegment> segments,
            List<EpochEntry> epochs,
            long producerSnapshotOffset,
            FileChannel producerSnapshot,
            long producerSnapshotSize,
            SegmentPins.Pin pin) {
        this.logStartOffset = logStartOffset;
        this.boundaryOffset = boundaryOffset;
        this.segments = segments;
        this.epochs = epochs;
        this.producerSnapshotOffset = producerSnapshotOffset;
        this.producerSnapshot = producerSnapshot;
        this.producerSnapshotSize = producerSnapshotSize;
        this.pin = pin;
    }

    /**
     * Builds the view and pins it; called by {@code PartitionLog.pinForShipping} under the log's lock.
     *
     * @param chain             the log's segments, oldest first, the active one last
     * @param maxBoundaryOffset the boundary is the base of the newest segment at or below it (callers pass the
     *                          high watermark, so nothing uncommitted is shipped)
     * @param snapshotOffsets   offsets of the producer snapshot files in {@code dir}
     */
    public static ShippableLog pin(
            Path dir,
            LogSegment[] chain,
            long logStartOffset,
            long maxBoundaryOffset,
            List<EpochEntry> epochEntries,
            NavigableSet<Long> snapshotOffsets,
            SegmentPins pins)
            throws IOException {
        int boundaryIndex = 0;
        for (int i = 1; i < chain.length; i++) {
            if (chain[i].baseOffset() <= maxBoundaryOffset) {
                boundaryIndex = i;
            }
        }
        long boundary = Math.max(chain[boundaryIndex].baseOffset(), logStartOffset);
        List<ClosedSegment> closed = new ArrayList<>(boundaryIndex);
        for (int i = 0; i < boundaryIndex; i++) {
            LogSegment segment = chain[i];
            if (segment.size() > 0 && segment.nextOffset() > logStartOffset) {
                closed.add(new ClosedSegment(
                        segment.baseOffset(),
                        segment.nextOffset() - 1,
                        segment.size(),
                        segment.channel(),
                        segment.batchHeaders()));
            }
        }
        List<EpochEntry> epochs = new ArrayList<>();
        for (EpochEntry entry : epochEntries) {
            if (entry.startOffset() < boundary) {
                epochs.add(entry);
            }
        }
        Long snapshotOffset = closed.isEmpty() ? null : snapshotOffsets.floor(boundary);
        FileChannel snapshot = null;
        long snapshotSize = 0;
        if (snapshotOffset != null) {
            snapshot = FileChannel.open(SegmentFileNames.snapshotFile(dir, snapshotOffset), StandardOpenOption.READ);
            snapshotSize = snapshot.size();
        }
        SegmentPins.Pin pin =
                pins.pin(closed.isEmpty() ? Long.MAX_VALUE : closed.get(0).baseOffset(), boundary);
        return new ShippableLog(
                logStartOffset,
                boundary,
                List.copyOf(closed),
                List.copyOf(epochs),
                snapshotOffset == null ? -1 : snapshotOffset,
                snapshot,
                snapshotSize,
                pin);
    }

    public long logStartOffset() {
        return logStartOffset;
    }
    /** The receiver's log end offset once everything is installed; follower fetch continues from it. */
    public long boundaryOffset() {
        return boundaryOffset;
    }

    public List<ClosedSegment> segments() {
        return segments;
    }
    /** Leader epochs starting below the boundary, oldest first. */
    public List<EpochEntry> epochs() {
        return epochs;
    }
    /** Offset of the shipped producer snapshot, or -1 when there is none. */
    public long producerSnapshotOffset() {
        return producerSnapshotOffset;
    }
    /** The snapshot's open channel (null when there is none); closed by {@link #close()}. */
    public FileChannel producerSnapshot() {
        return producerSnapshot;
    }

    public long producerSnapshotSize() {
        return producerSnapshotSize;
    }

    /** Total bytes to ship: every segment plus the snapshot. */
    public long totalBytes() {
        long total = producerSnapshotSize;
        for (ClosedSegment segment : segments) {
            total += segment.sizeInBytes();
        }
        return total;
    }

    /**
     * Whether the log was truncated below the boundary since the view was taken: its files no longer hold what it
     * lists (a cut segment may have been appended to again), so nothing more may be shipped from it.
     */
    public boolean isCut() {
        return pin.isCut();
    }

    /**
     * Starts a read of this view's files (their mapping may be read until it is closed: no truncation of the log cuts
     * them meanwhile); null, holding nothing, once the view is cut ({@link #isCut}).
     */
    public SegmentPins.Reading readingUncut() {
        return pin.readingUncut();
    }

    /** Lets retention take segments entirely below {@code offset} (already shipped). */
    public void releaseBelow(long offset) {
        pin.releaseBelow(offset);
    }

    /** Releases the pin and closes the snapshot channel. Idempotent. */
    @Override
    public void close() throws IOException {
        pin.close();
        if (producerSnapshot != null) {
            producerSnapshot.close();
        }
    }
}
