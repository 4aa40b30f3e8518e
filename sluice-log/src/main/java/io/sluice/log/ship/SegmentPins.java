package io.sluice.log.ship;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The pins of one partition log: while a pin from offset F is held, retention and DeleteRecords leave every
 * segment holding an offset at or above F in place (they advance the log start offset but defer the file
 * deletion), so a transfer to a new replica never loses the files it is shipping. Truncation and topic deletion
 * ignore pins; a truncation below a pin's boundary (after an unclean election, or a follower emptied to restart at
 * its leader's log start) marks the pin cut, so the shipper stops instead of shipping files that no longer hold what
 * it listed (a truncated segment becomes the active one and is appended to again).
 *
 * <p>A shipper reads pinned segments through a memory mapping (their chunk checksums). A file cut under a mapping
 * faults the reader with SIGBUS, which the JVM turns into an error only for some reads and otherwise dies of, so the
 * reads of a pinned view ({@link Pin#readingUncut}) and the log's truncations ({@link #truncating}) exclude each other:
 * a read sees the cut and reads nothing, or the truncation waits until the read is done.
 *
 * <p>Thread-safe: every method synchronizes on this object, but for the read and truncation locks; the log asks it
 * under its own lock.
 */
public final class SegmentPins {
    private final List<Pin> pins = new ArrayList<>();
    /** Shared by the reads of pinned segments, exclusive for a truncation of the log's files. */
    private final ReentrantReadWriteLock filesInPlace = new ReentrantReadWriteLock();

    /** A read of a pinned view's files in progress; {@link #close()} ends it. Used by one thread. */
    public final class Reading implements AutoCloseable {
        private boolean closed;

        private Reading() {}

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                filesInPlace.readLock().unlock();
            }
        }
    }

    /** A truncation of the log's files in progress; {@link #close()} ends it. Used by one thread. */
    public final class Truncating implements AutoCloseable {
        private boolean closed;

        private Truncating() {}

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                filesInPlace.writeLock().unlock();
            }
        }
    }

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

        /** See {@link SegmentPins#readingUncut}. */
        public Reading readingUncut() {
            return SegmentPins.this.readingUncut(this);
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

    /**
     * Starts a read of {@code pin}'s files, which no truncation of the log can cut until the returned reading is
     * closed; null, holding nothing, when the pin is cut already (its files no longer hold what it lists).
     */
    private Reading readingUncut(Pin pin) {
        filesInPlace.readLock().lock();
        if (pin.isCut()) {
            filesInPlace.readLock().unlock();
            return null;
        }
        return new Reading();
    }

    /**
     * Starts a truncation of the log's files: waits for the reads in progress ({@link #readingUncut}); the pins it
     * cuts ({@link #truncatedTo}) must be marked before the returned truncation is closed.
     */
    public Truncating truncating() {
        filesInPlace.writeLock().lock();
        return new Truncating();
    }

    /** Whether a truncation waits for a read to end (tests). */
    boolean truncationWaits() {
        return filesInPlace.hasQueuedThreads();
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
