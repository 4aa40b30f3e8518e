package io.sluice.broker.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * A fixed number of histograms recorded together (a request's queue, local, remote, send and total times): one lock
 * taken per recording of all of them, where a recorder per histogram would pay its own synchronization for each
 * value. Each histogram's window covers the values recorded in the last minute and its count every value ever
 * recorded, as Kafka's histograms count. Values are kept in HdrHistogram with two significant digits: 0 to 255
 * exactly, larger values within 1%; negative values count as 0.
 *
 * <p>Writers record into one of a few stripes (plain histograms behind a lock; a writer takes the first free stripe
 * from the one its thread maps to, so writers rarely wait). A stripe counts values below {@link #SMALL_VALUES} (most
 * request times in milliseconds) in one flat array, the same value of every histogram side by side, so a request's
 * five times touch a cache line or two instead of five histograms' fields and counts; the counts join the histograms
 * when the stripe is drained. Time runs in slots of {@link #SLOT_NANOS}; the window
 * merges the current slot and the {@code SLOTS - 1} before it, so every value stays visible for 60 to 75 seconds (a
 * one-minute scrape sees each value at least once). The stripes' contents move into the current slot when a reader
 * asks or when a writer is the first to see a slot end.
 *
 * <p>Thread-safe: a writer holds one stripe's lock while it records; reading and turning slots hold the window's
 * lock and then each stripe's in turn (a writer only tries the window's lock, it never waits for a reader).
 */
public final class RecentHistograms {
    static final long SLOT_NANOS = TimeUnit.SECONDS.toNanos(15);
    static final int SLOTS = 5;
    static final int SIGNIFICANT_DIGITS = 2;
    /** Enough stripes that the broker's request and network threads seldom meet on one. */
    private static final int STRIPES = 8;
    /** Values below this are counted in a stripe's flat array until it is drained; larger ones go to its histograms. */
    static final int SMALL_VALUES = 16;

    private final int size;
    private final LongSupplier nanoClock;
    /** When slot 0 began: construction. */
    private final long originNanos;

    private final Writer[] stripes = new Writer[STRIPES];

    private final ReentrantLock windowLock = new ReentrantLock();
    /** slots[n % SLOTS][histogram]: slot number n's values; guarded by {@link #windowLock}. */
    private final Histogram[][] slots;
    /** Per histogram, the values of slots that left the window; guarded by {@link #windowLock}. */
    private final long[] retiredCounts;
    /** When the current slot ends; writers read it to see when to turn slots. */
    private volatile long currentSlotEndNanos;
    /** The current slot's number (slots counted from construction); guarded by {@link #windowLock}. */
    private long currentSlot;

    /** @param size how many histograms are recorded together */
    public RecentHistograms(int size) {
        this(size, System::nanoTime);
    }

    /** @param nanoClock the time in nanoseconds (only differences count), as {@link System#nanoTime()} */
    RecentHistograms(int size, LongSupplier nanoClock) {
        if (size < 1) {
            throw new IllegalArgumentException("a group holds at least one histogram, not " + size);
        }
        this.size = size;
        this.nanoClock = nanoClock;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Writer(size);
        }
        this.slots = new Histogram[SLOTS][];
        for (int slot = 0; slot < SLOTS; slot++) {
            slots[slot] = newHistograms(size);
        }
        this.retiredCounts = new long[size];
        this.originNanos = nanoClock.getAsLong();
        this.currentSlotEndNanos = originNanos + SLOT_NANOS;
    }

    /** How many histograms are recorded together. */
    public int size() {
        return size;
    }

    /** The time by this group's clock, for {@link #writer(long)}. */
    long now() {
        return nanoClock.getAsLong();
    }

    /**
     * A writer for values recorded at {@code nowNanos}, a reading of this group's clock; the caller records with it
     * and closes it at once (it holds a lock until then): {@code try (Writer w = group.writer(now)) {...}}.
     */
    public Writer writer(long nowNanos) {
        if (nowNanos - currentSlotEndNanos >= 0 && windowLock.tryLock()) {
            try {
                turnSlots(nowNanos);
            } finally {
                windowLock.unlock();
            }
        }
        int home = (int) Thread.currentThread().getId() & (STRIPES - 1);
        for (int i = 0; i < STRIPES; i++) {
            Writer stripe = stripes[(home + i) & (STRIPES - 1)];
            if (stripe.lock.tryLock()) {
                return stripe.at(nowNanos);
            }
        }
        Writer stripe = stripes[home];
        stripe.lock.lock();
        return stripe.at(nowNanos);
    }

    /** Every value histogram {@code index} ever recorded (not only the window's). */
    long count(int index) {
        windowLock.lock();
        try {
            turnSlots(nanoClock.getAsLong());
            long count = retiredCounts[index];
            for (Histogram[] slot : slots) {
                count += slot[index].getTotalCount();
            }
            return count;
        } finally {
            windowLock.unlock();
        }
    }

    /** Adds the last minute's values of histogram {@code index} to {@code window}. */
    void addWindow(int index, Histogram window) {
        windowLock.lock();
        try {
            turnSlots(nanoClock.getAsLong());
            for (Histogram[] slot : slots) {
                window.add(slot[index]);
            }
        } finally {
            windowLock.unlock();
        }
    }

    static Histogram newHistogram() {
        return new Histogram(SIGNIFICANT_DIGITS);
    }

    /**
     * Moves what the stripes recorded into the slot of the newest value each holds (not older than the current slot;
     * what is older than the window only counts), then makes the slot of {@code nowNanos} current. A stripe's values
     * are all at least as recent as the current slot's start, bar a writer that read the clock just before a turn.
     */
    private void turnSlots(long nowNanos) {
        long slot = Math.max(currentSlot, Math.floorDiv(nowNanos - originNanos, SLOT_NANOS));
        for (long next = Math.max(currentSlot + 1, slot - SLOTS + 1); next <= slot; next++) {
            Histogram[] leaving = slots[(int) (next % SLOTS)];
            for (int i = 0; i < size; i++) {
                retiredCounts[i] += leaving[i].getTotalCount();
                leaving[i].reset();
            }
        }
        for (Writer stripe : stripes) {
            stripe.lock.lock();
            try {
                if (stripe.newestNanos == Long.MIN_VALUE) {
                    continue; // nothing recorded since the last drain
                }
                long newest = Math.floorDiv(stripe.newestNanos - originNanos, SLOT_NANOS);
                long into = Math.min(slot, Math.max(currentSlot, newest));
                if (into <= slot - SLOTS) {
                    stripe.retireInto(retiredCounts);
                } else {
                    stripe.drainInto(slots[(int) (into % SLOTS)]);
                }
            } finally {
                stripe.lock.unlock();
            }
        }
        currentSlot = slot;
        currentSlotEndNanos = originNanos + (slot + 1) * SLOT_NANOS;
    }

    private static Histogram[] newHistograms(int size) {
        Histogram[] histograms = new Histogram[size];
        for (int i = 0; i < size; i++) {
            histograms[i] = newHistogram();
        }
        return histograms;
    }

    /** One stripe: plain histograms recorded under its lock. Used by one thread at a time, between writer and close. */
    public static final class Writer implements AutoCloseable {
        private final ReentrantLock lock = new ReentrantLock();
        private final Histogram[] values;
        /** smallCounts[value * size + index]: how often histogram {@code index} got {@code value} (below SMALL_VALUES). */
        private final long[] smallCounts;
        /** The latest clock reading a writer recorded at since the last drain; guarded by {@link #lock}. */
        private long newestNanos = Long.MIN_VALUE;

        private Writer(int size) {
            this.values = newHistograms(size);
            this.smallCounts = new long[SMALL_VALUES * size];
        }

        private Writer at(long nowNanos) {
            if (newestNanos == Long.MIN_VALUE || nowNanos - newestNanos > 0) {
                newestNanos = nowNanos;
            }
            return this;
        }

        /** Records {@code value} in histogram {@code index}. */
        public void record(int index, long value) {
            if (value < SMALL_VALUES) {
                smallCounts[(int) Math.max(value, 0) * values.length + index]++;
            } else {
                values[index].recordValue(value);
            }
        }

        /** Releases the stripe. */
        @Override
        public void close() {
            lock.unlock();
        }

        private void drainInto(Histogram[] slot) {
            for (int i = 0; i < values.length; i++) {
                if (values[i].getTotalCount() > 0) {
                    slot[i].add(values[i]);
                    values[i].reset();
                }
            }
            for (int cell = 0; cell < smallCounts.length; cell++) {
                if (smallCounts[cell] > 0) {
                    slot[cell % values.length].recordValueWithCount(cell / values.length, smallCounts[cell]);
                    smallCounts[cell] = 0;
                }
            }
            newestNanos = Long.MIN_VALUE;
        }

        /** Counts what this stripe holds as values that left the window. */
        private void retireInto(long[] retiredCounts) {
            for (int i = 0; i < values.length; i++) {
                retiredCounts[i] += values[i].getTotalCount();
                values[i].reset();
            }
            for (int cell = 0; cell < smallCounts.length; cell++) {
                retiredCounts[cell % values.length] += smallCounts[cell];
                smallCounts[cell] = 0;
            }
            newestNanos = Long.MIN_VALUE;
        }
    }
}
