package io.sluice.broker.metrics;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * One histogram of a {@link RecentHistograms} group as Dropwizard (and so JMX and the Prometheus bridge) reads it: its
 * snapshot (Min, Max, Mean, StdDev, percentiles) covers the values recorded in the last minute and its Count every
 * value ever recorded, as Kafka's histograms count. A histogram of its own ({@link #RecentHistogram()}) is a group of
 * one that it records into; a merged histogram ({@link #merged}) reads the same histogram of several groups (Kafka's
 * Fetch times are those of FetchConsumer and FetchFollower together) and records nothing itself.
 *
 * <p>Thread-safe, as its groups are.
 */
public final class RecentHistogram extends Histogram {
    static final long SLOT_NANOS = RecentHistograms.SLOT_NANOS;
    static final int SLOTS = RecentHistograms.SLOTS;

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

    /** The groups read; exactly one when this histogram records. */
    private final RecentHistograms[] groups;
    /** Which histogram of each group this is. */
    private final int index;

    /** A histogram of its own, on {@link System#nanoTime()}. */
    public RecentHistogram() {
        this(new RecentHistograms(1), 0);
    }

    /** @param nanoClock the time in nanoseconds (only differences count), as {@link System#nanoTime()} */
    RecentHistogram(LongSupplier nanoClock) {
        this(new RecentHistograms(1, nanoClock), 0);
    }

    /** Histogram {@code index} of {@code group}; values are recorded through the group (or {@link #update}). */
    public RecentHistogram(RecentHistograms group, int index) {
        this(new RecentHistograms[] {group}, index);
    }

    private RecentHistogram(RecentHistograms[] groups, int index) {
        super(NO_RESERVOIR);
        for (RecentHistograms group : groups) {
            Objects.checkIndex(index, group.size());
        }
        this.groups = groups;
        this.index = index;
    }

    /** Histogram {@code index} of every one of {@code groups}, read as one; it records nothing itself. */
    public static RecentHistogram merged(int index, RecentHistograms... groups) {
        return new RecentHistogram(groups.clone(), index);
    }

    @Override
    public void update(long value) {
        update(value, recorder().now());
    }

    /** Records {@code value} at {@code nowNanos}, a reading of this histogram's clock. */
    public void update(long value, long nowNanos) {
        try (RecentHistograms.Writer writer = recorder().writer(nowNanos)) {
            writer.record(index, value);
        }
    }

    /** Every value recorded since this histogram was made (not only the window's). */
    @Override
    public long getCount() {
        long count = 0;
        for (RecentHistograms group : groups) {
            count += group.count(index);
        }
        return count;
    }

    /** The values of the last minute. */
    @Override
    public Snapshot getSnapshot() {
        org.HdrHistogram.Histogram window = RecentHistograms.newHistogram();
        for (RecentHistograms group : groups) {
            group.addWindow(index, window);
        }
        return new HdrSnapshot(window);
    }

    /** The group this histogram records into; null for a merged histogram. */
    RecentHistograms recordingGroup() {
        return groups.length == 1 ? groups[0] : null;
    }

    /** Whether this is histogram {@code index} of {@code group} and records into it. */
    boolean recordsInto(RecentHistograms group, int index) {
        return groups.length == 1 && groups[0] == group && this.index == index;
    }

    private RecentHistograms recorder() {
        if (groups.length != 1) {
            throw new UnsupportedOperationException("a merged histogram is recorded through its groups");
        }
        return groups[0];
    }
}
