package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.codahale.metrics.Snapshot;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentHistogramTest {
    private static final long SLOT = RecentHistogram.SLOT_NANOS;

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final RecentHistogram histogram = new RecentHistogram(clock::get);

    @Test
    void shouldGiveExactPercentilesOfSmallValues() {
        for (int value = 1; value <= 200; value++) {
            histogram.update(value);
        }
        Snapshot snapshot = histogram.getSnapshot();
        assertEquals(200, snapshot.size());
        assertEquals(1, snapshot.getMin());
        assertEquals(200, snapshot.getMax());
        assertEquals(100.5, snapshot.getMean(), 1e-9);
        assertEquals(57.73, snapshot.getStdDev(), 0.01, "population standard deviation of 1..200");
        assertEquals(100.0, snapshot.getMedian());
        assertEquals(150.0, snapshot.get75thPercentile());
        assertEquals(190.0, snapshot.get95thPercentile());
        assertEquals(196.0, snapshot.get98thPercentile());
        assertEquals(198.0, snapshot.get99thPercentile());
        assertEquals(200.0, snapshot.get999thPercentile());
        assertEquals(1.0, snapshot.getValue(0.0));
        assertEquals(200.0, snapshot.getValue(1.0));
        assertThrows(IllegalArgumentException.class, () -> snapshot.getValue(1.5));
        assertThrows(IllegalArgumentException.class, () -> snapshot.getValue(Double.NaN));
    }

    @Test
    void shouldGivePercentilesOfAKnownDistributionWithinOnePercent() {
        // exponential with mean 1000 (a latency-like long tail): the q-quantile is -1000 ln(1 - q)
        Random random = new Random(16);
        for (int i = 0; i < 200_000; i++) {
            histogram.update(Math.round(-1000 * Math.log(1 - random.nextDouble())));
        }
        Snapshot snapshot = histogram.getSnapshot();
        for (double q : new double[] {0.5, 0.75, 0.95, 0.98, 0.99, 0.999}) {
            double expected = -1000 * Math.log(1 - q);
            // 1% from the histogram's precision, about 1% more from sampling 200,000 values (less in the body)
            assertEquals(expected, snapshot.getValue(q), expected * (q == 0.999 ? 0.05 : 0.02), "quantile " + q);
        }
        assertEquals(1000, snapshot.getMean(), 10);
        assertEquals(1000, snapshot.getStdDev(), 20);
    }

    @Test
    void shouldForgetValuesOlderThanTheWindowButCountThemAll() {
        histogram.update(500);
        histogram.update(7);
        clock.addAndGet(SLOT);
        histogram.update(3);
        assertEquals(3, histogram.getSnapshot().size(), "a slot later, both slots are in the window");
        assertEquals(500, histogram.getSnapshot().getMax(), 5);

        clock.addAndGet((RecentHistogram.SLOTS - 1) * SLOT);
        Snapshot later = histogram.getSnapshot();
        assertEquals(1, later.size(), "the first slot left the window; the second is its oldest slot");
        assertEquals(3, later.getMax());
        assertEquals(3, histogram.getCount(), "Count is every value ever recorded");

        clock.addAndGet(100 * SLOT);
        Snapshot empty = histogram.getSnapshot();
        assertEquals(0, empty.size());
        assertEquals(0, empty.getMax());
        assertEquals(0.0, empty.get99thPercentile());
        assertEquals(0.0, empty.getMean());
        histogram.update(9);
        assertEquals(4, histogram.getCount());
        assertEquals(9.0, histogram.getSnapshot().getMedian());
    }

    @Test
    void shouldTurnSlotsOnTheWritersTimeWithoutAReader() {
        histogram.update(40, clock.get());
        // writers alone move through the window: the values of the first slot leave it when a later writer
        // passes its end, before anyone reads
        for (int slot = 1; slot <= RecentHistogram.SLOTS; slot++) {
            histogram.update(slot, clock.get() + slot * SLOT);
        }
        clock.addAndGet(RecentHistogram.SLOTS * SLOT);
        Snapshot snapshot = histogram.getSnapshot();
        assertArrayEquals(new long[] {1, 2, 3, 4, 5}, snapshot.getValues());
        assertEquals(6, histogram.getCount());
    }

    @Test
    void shouldCountNegativeValuesAsZeroAndKeepLargeOnesWithinOnePercent() {
        histogram.update(-5);
        histogram.update(3_600_000L);
        Snapshot snapshot = histogram.getSnapshot();
        assertEquals(0, snapshot.getMin());
        assertEquals(3_600_000.0, snapshot.getMax(), 36_000);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        snapshot.dump(dump);
        assertEquals(2, dump.toString(StandardCharsets.UTF_8).lines().count());
    }
}
