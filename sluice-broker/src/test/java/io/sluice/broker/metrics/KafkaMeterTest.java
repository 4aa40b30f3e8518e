package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.Clock;
import com.codahale.metrics.Meter;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KafkaMeterTest {
    private final AtomicLong clock = new AtomicLong(5_000_000_000L);
    private final KafkaMeter meter = new KafkaMeter(clock::get);
    private final Meter dropwizard = new Meter(new Clock() {
        @Override
        public long getTick() {
            return clock.get();
        }
    });

    @Test
    void shouldGiveDropwizardsRatesForTheSameMarksAtTheSameTimes() {
        Random random = new Random(16);
        for (int step = 0; step < 2_000; step++) {
            long events = random.nextInt(1_000);
            meter.mark(events);
            dropwizard.mark(events);
            // mostly within a tick, sometimes across several (idle spells)
            clock.addAndGet(
                    random.nextInt(50) == 0
                            ? TimeUnit.SECONDS.toNanos(random.nextInt(120))
                            : TimeUnit.MILLISECONDS.toNanos(random.nextInt(900)));
            if (step % 97 == 0) {
                assertRatesEqual();
            }
        }
        assertRatesEqual();
        clock.addAndGet(TimeUnit.MINUTES.toNanos(20));
        assertRatesEqual();
    }

    @Test
    void shouldCountMarksWithTheCallersTime() {
        long now = clock.get();
        meter.mark(3, now);
        meter.mark(4, now + TimeUnit.SECONDS.toNanos(6));
        meter.mark();
        assertEquals(8, meter.getCount());
        clock.addAndGet(TimeUnit.SECONDS.toNanos(10));
        assertEquals(0.8, meter.getMeanRate(), 1e-9, "8 events in 10 seconds");
        assertEquals(new KafkaMeter(clock::get).getOneMinuteRate(), 0.0, "a meter never marked has no rate");
    }

    private void assertRatesEqual() {
        assertEquals(dropwizard.getCount(), meter.getCount());
        assertEquals(dropwizard.getOneMinuteRate(), meter.getOneMinuteRate(), 1e-9);
        assertEquals(dropwizard.getFiveMinuteRate(), meter.getFiveMinuteRate(), 1e-9);
        assertEquals(dropwizard.getFifteenMinuteRate(), meter.getFifteenMinuteRate(), 1e-9);
        assertEquals(dropwizard.getMeanRate(), meter.getMeanRate(), 1e-9);
    }
}
