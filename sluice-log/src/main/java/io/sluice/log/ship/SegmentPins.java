package io.sluice.log.ship;

import java.util.ArrayList;
import java.util.List;

/**
 * The pins of one partition log: while a pin from offset F is held, retention and DeleteRecords leave every
 * segment holding an offset at or above F in place (they advance the log start offset but defer the file
 * deletion), so a transfer to a new replica never loses the files it is shipping. Truncation and topic deletion
 * ignore pins; a truncation below a pin's boundary (after an unclean election, or a follower emptied to restart at
 * its leader's log start) marks the pin cut, so the shipper stops instead of shipping files that no longer hold what
 * it listed (a truncated segment becomes the active one and is appended to again).
 * Thread-safe: every method synchronizes on this object; the log asks it under its own lock.
 */
public final class SegmentPins {
    private final List<Pin> pins = new ArrayList<>();

    /** One holder's pin; {@link #close()} releases it (idempotent). Thread-safe. */
    public final class Pin implements AutoCloseable {
        private long fromOffset;
        private final long boundaryOffset;
        private boolean cut;

        private Pin(long fromOffset, long boundaryOffset) {
            this.fromOffset = fromOffset;
            this.boundaryOffset = boundaryOffset;
        }

        /** Whether the log was truncated below this pin's boundary since it was taken. */
        public boolean isCut() {
            synchronized (SegmentPins.this) {
                return cut;
            }
        }

        /** Lets segments entirely below {@code offset} go (the shipper has sent them). */
        public void releaseBelow(long offset) {
            synchronized (SegmentPins.this) {
                fromOffset = Math.max(fromOffset, offset);
            }
        }

        @Override
        public void close() {
            synchronized (SegmentPins.this) {
                pins.remove(this);
            }
        }
    }

    /**
     * Pins every segment holding an offset at or above {@code fromOffset}, for shipping the offsets below
     * {@code boundaryOffset}.
     */
    public synchronized Pin pin(long fromOffset, long boundaryOffset) {
        Pin pin = new Pin(fromOffset, boundaryOffset);
        pins.add(pin);
        return pin;
    }

    /** The log now ends at {@code logEndOffset}: every pin whose boundary lies above it is cut. */
    public synchronized void truncatedTo(long logEndOffset) {
        for (int i = 0; i < pins.size(); i++) {
            Pin pin = pins.get(i);
            if (pin.boundaryOffset > logEndOffset) {
                pin.cut = true;
            }
        }
    }

    /** The lowest pinned offset, or {@link Long#MAX_VALUE} when nothing is pinned. */
    public synchronized long lowestPinnedOffset() {
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < pins.size(); i++) {
            lowest = Math.min(lowest, pins.get(i).fromOffset);
        }
        return lowest;
    }

    /** Whether a segment ending just below {@code segmentNextOffset} must stay in place. */
    public boolean holds(long segmentNextOffset) {
        return segmentNextOffset > lowestPinnedOffset();
    }
}
