package io.sluice.broker.metrics;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.HdrHistogram.Recorder;

/**
 * A histogram whose snapshot (Min, Max, Mean, StdDev, percentiles) covers the values recorded in the last minute, and
 * whose Count covers every value ever recorded, as Kafka's histograms count. Values are kept in HdrHistogram with two
 * significant digits: 0 to 255 exactly, larger values within 1%; negative values count as 0.
 *
 * <p>Time runs in slots of {@link #SLOT_NANOS}; the snapshot merges the current slot and the {@code SLOTS - 1} before
 * it, so every value stays visible for 60 to 75 seconds (a one-minute scrape sees each value at least once). Writers
 * record into one {@link Recorder} (wait-free, no allocation once its counts array covers the values' range); its
 * contents are moved into the current slot when a reader asks or when a writer is the first to see a slot end. The
 * time comes from the caller ({@link #update(long, long)}, so one clock read serves a request's several histograms)
 * or from the clock given at construction.
 *
 * <p>Thread-safe: recording takes no lock; reading and turning slots take this histogram's lock, which a writer only
 * tries (it never waits for a reader).
 */
public final class RecentHistogram extends Histogram {
    static final long SLOT_NANOS = TimeUnit.SECONDS.toNanos(15);
    static final int SLOTS = 5;
    private static final int SIGNIFICANT_DIGITS = 2;

    /** Dropwizard's Histogram wants a reservoir; every method that would use it is overridden. */
    private static final Reservoir NO_RESERVOIR = new Reservoir() {
        @Override
        public int size() {
            return 0;
        }

        @Override
        public void update(long value) {
            throw new UnsupportedOperationException("RecentHistogram records itself");
        }

        @Override
        public Snapshot getSnapshot() {
            throw new UnsupportedOperationException("RecentHistogram takes its own snapshots");
        }
    };

    private final LongSupplier nanoClock;
    /** When slot 0 began: this histogram's construction. */
    private final long originNanos;

    private final Recorder recorder = new Recorder(SIGNIFICANT_DIGITS);
    private final ReentrantLock lock = new ReentrantLock();
    /** The slots' values, slot number n at index n % SLOTS; guarded by {@link #lock}. */
    private final org.HdrHistogram.Histogram[] slots = new org.HdrHistogram.Histogram[SLOTS];
    /** When the current slot ends; writers read it to see when to turn slots. */
    private volatile long currentSlotEndNanos;
    /** The current slot's number (slots counted from construction); guarded by {@link #lock}. */
    private long currentSlot;
    /** Values of slots that left the window; guarded by {@link #lock}. */
    private long retiredCount;
    /** The recorder's last interval histogram, handed back to it for reuse; guarded by {@link #lock}. */
    private org.HdrHistogram.Histogram interval;

    /** A histogram on {@link System#nanoTime()}. */
    public RecentHistogram() {
        this(System::nanoTime);
    }

    /** @param nanoClock the time in nanoseconds (only differences count), as {@link System#nanoTime()} */
    RecentHistogram(LongSupplier nanoClock) {
        super(NO_RESERVOIR);
        this.nanoClock = nanoClock;
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = new org.HdrHistogram.Histogram(SIGNIFICANT_DIGITS);
        }
        this.originNanos = nanoClock.getAsLong();
        this.currentSlotEndNanos = originNanos + SLOT_NANOS;
    }

    @Override
    public void update(long value) {
        update(value, nanoClock.getAsLong());
    }

    /** Records {@code value} at {@code nowNanos}, a reading of this histogram's clock. */
    public void update(long value, long nowNanos) {
        if (nowNanos - currentSlotEndNanos >= 0 && lock.tryLock()) {
            try {
                turnSlots(nowNanos);
            } finally {
                lock.unlock();
            }
        }
        recorder.recordValue(Math.max(value, 0));
    }

    /** Every value recorded since this histogram was made (not only the window's). */
    @Override
    public long getCount() {
        lock.lock();
        try {
            turnSlots(nanoClock.getAsLong());
            long count = retiredCount;
            for (org.HdrHistogram.Histogram slot : slots) {
                count += slot.getTotalCount();
            }
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** The values of the last minute. */
    @Override
    public Snapshot getSnapshot() {
        lock.lock();
        try {
            turnSlots(nanoClock.getAsLong());
            org.HdrHistogram.Histogram window = new org.HdrHistogram.Histogram(SIGNIFICANT_DIGITS);
            for (org.HdrHistogram.Histogram slot : slots) {
                window.add(slot);
            }
            return new HdrSnapshot(window);
        } finally {
            lock.unlock();
        }
    }

    /** Moves what was recorded into the current slot, then makes the slot of {@code nowNanos} current. */
    private void turnSlots(long nowNanos) {
        interval = recorder.getIntervalHistogram(interval);
        slots[(int) (currentSlot % SLOTS)].add(interval);
        long slot = Math.max(currentSlot, Math.floorDiv(nowNanos - originNanos, SLOT_NANOS));
        for (long next = Math.max(currentSlot + 1, slot - SLOTS + 1); next <= slot; next++) {
            org.HdrHistogram.Histogram leaving = slots[(int) (next % SLOTS)];
            retiredCount += leaving.getTotalCount();
            leaving.reset();
        }
        currentSlot = slot;
        currentSlotEndNanos = originNanos + (slot + 1) * SLOT_NANOS;
    }
}
