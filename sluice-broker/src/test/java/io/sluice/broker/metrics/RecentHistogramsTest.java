package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RecentHistogramsTest {
    private static final long SLOT = RecentHistograms.SLOT_NANOS;

    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final RecentHistograms group = new RecentHistograms(3, clock::get);
    private final RecentHistogram first = new RecentHistogram(group, 0);
    private final RecentHistogram second = new RecentHistogram(group, 1);
    private final RecentHistogram third = new RecentHistogram(group, 2);

    @Test
    void shouldKeepEachHistogramsValuesApart() {
        for (int value = 1; value <= 100; value++) {
            try (RecentHistograms.Writer writer = group.writer(clock.get())) {
                writer.record(0, value);
                writer.record(1, 1000 + value);
                writer.record(2, -value);
            }
        }
        assertEquals(100, first.getCount());
        assertEquals(100, first.getSnapshot().getMax());
        assertEquals(50.5, first.getSnapshot().getMean(), 1e-9);
        assertEquals(1100, second.getSnapshot().getMax(), 11);
        assertEquals(1001, second.getSnapshot().getMin(), 11);
        assertEquals(0, third.getSnapshot().getMax(), "negative values count as 0");
        assertEquals(100, third.getSnapshot().size());
        second.update(7);
        assertEquals(101, second.getCount());
        assertEquals(100, first.getCount(), "a member's own update records in its histogram only");
    }

    @Test
    void shouldReadValuesCountedApartBelowTheSmallLimitExactlyAsAHistogramOfTheSameValues() {
        Histogram expected = RecentHistograms.newHistogram();
        for (int value = -2; value < 3 * RecentHistograms.SMALL_VALUES; value++) {
            for (int times = 0; times <= (value & 3); times++) {
                try (RecentHistograms.Writer writer = group.writer(clock.get())) {
                    writer.record(1, value);
                }
                expected.recordValue(Math.max(value, 0));
            }
        }
        Snapshot read = second.getSnapshot();
        Snapshot wanted = new HdrSnapshot(expected);
        assertEquals(expected.getTotalCount(), second.getCount());
        assertEquals(wanted.size(), read.size());
        assertEquals(0, read.getMin());
        assertEquals(wanted.getMax(), read.getMax());
        assertEquals(wanted.getMean(), read.getMean(), 1e-9);
        assertEquals(wanted.getStdDev(), read.getStdDev(), 1e-9);
        for (double quantile : new double[] {0.1, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999}) {
            assertEquals(wanted.getValue(quantile), read.getValue(quantile), "quantile " + quantile);
        }
        assertEquals(0, first.getCount(), "values of one histogram stay in it");
        assertEquals(0, third.getCount());
    }

    @Test
    void shouldCountSmallValuesThatLeftTheWindowInAStripe() {
        try (RecentHistograms.Writer writer = group.writer(clock.get())) {
            writer.record(0, 0);
            writer.record(0, RecentHistograms.SMALL_VALUES - 1);
            writer.record(2, RecentHistograms.SMALL_VALUES);
        }
        clock.addAndGet(2 * RecentHistograms.SLOTS * SLOT);
        assertEquals(0, first.getSnapshot().size());
        assertEquals(2, first.getCount());
        assertEquals(1, third.getCount());
        assertEquals(0, second.getCount());
    }

    @Test
    void shouldTurnSlotsForEveryHistogramOfTheGroup() {
        try (RecentHistograms.Writer writer = group.writer(clock.get())) {
            writer.record(0, 1);
            writer.record(2, 3);
        }
        clock.addAndGet(SLOT);
        try (RecentHistograms.Writer writer = group.writer(clock.get())) {
            writer.record(0, 2);
        }
        clock.addAndGet((RecentHistograms.SLOTS - 1) * SLOT);
        assertEquals(1, first.getSnapshot().size(), "the first slot left the window");
        assertEquals(2, first.getSnapshot().getMax());
        assertEquals(0, third.getSnapshot().size());
        assertEquals(2, first.getCount(), "counts keep every value");
        assertEquals(1, third.getCount());
        assertEquals(0, second.getCount());
    }

    @Test
    void shouldRetireAValueLeftInAStripeForLongerThanTheWindowAndShowTheNextOne() {
        try (RecentHistograms.Writer writer = group.writer(clock.get())) {
            writer.record(0, 1);
        }
        // nothing reads or records for two windows: the value waits in its stripe, the current slot is the first
        clock.addAndGet(2 * RecentHistograms.SLOTS * SLOT);
        try (RecentHistograms.Writer writer = group.writer(clock.get())) {
            writer.record(1, 5);
        }
        assertEquals(0, first.getSnapshot().size(), "a value two windows old is out of the window");
        assertEquals(1, first.getCount(), "and still counted");
        Snapshot recent = second.getSnapshot();
        assertEquals(1, recent.size(), "the value recorded now is in it");
        assertEquals(5, recent.getMax());
        clock.addAndGet(RecentHistograms.SLOTS * SLOT);
        assertEquals(0, second.getSnapshot().size(), "and leaves it a window later");
        assertEquals(1, second.getCount());
    }

    @Test
    void shouldReadAMergedHistogramAsTheSumOfItsGroupsAndRefuseToRecordIntoIt() {
        RecentHistograms other = new RecentHistograms(3, clock::get);
        first.update(10);
        first.update(30);
        new RecentHistogram(other, 0).update(20);
        new RecentHistogram(other, 1).update(99);
        RecentHistogram merged = RecentHistogram.merged(0, group, other);
        Snapshot snapshot = merged.getSnapshot();
        assertEquals(3, merged.getCount());
        assertEquals(3, snapshot.size());
        assertEquals(10, snapshot.getMin());
        assertEquals(30, snapshot.getMax());
        assertEquals(20.0, snapshot.getMedian());
        assertThrows(UnsupportedOperationException.class, () -> merged.update(1));
        assertThrows(IndexOutOfBoundsException.class, () -> RecentHistogram.merged(3, group, other));
        assertThrows(IllegalArgumentException.class, () -> new RecentHistograms(0));
    }

    @Test
    void shouldLoseNoValueWhileManyThreadsRecordAndOthersReadAndTurnSlots() throws Exception {
        int threads = 12;
        int perThread = 50_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        AtomicBoolean writing = new AtomicBoolean(true);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                writers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        // the clock moves on as they write: writers and the reader turn slots meanwhile
                        long now = clock.addAndGet(SLOT / 20_000);
                        try (RecentHistograms.Writer writer = group.writer(now)) {
                            writer.record(0, 1);
                            writer.record(1, offset);
                            writer.record(2, i % 300);
                        }
                    }
                    return null;
                }));
            }
            Future<?> reader = pool.submit(() -> {
                start.await();
                while (writing.get()) {
                    first.getSnapshot();
                    third.getCount();
                }
                return null;
            });
            start.countDown();
            for (Future<?> writer : writers) {
                writer.get(60, TimeUnit.SECONDS);
            }
            writing.set(false);
            reader.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        long total = (long) threads * perThread;
        assertEquals(total, first.getCount());
        assertEquals(total, second.getCount());
        assertEquals(total, third.getCount());
        Snapshot recent = second.getSnapshot();
        assertTrue(
                recent.size() > 0 && recent.size() < total, "the window holds the last slots only: " + recent.size());
        assertTrue(recent.getMax() <= threads - 1, "values are not mixed between histograms: " + recent.getMax());
        assertTrue(third.getSnapshot().getMax() <= 299, "values are not mixed between histograms");
    }
}
