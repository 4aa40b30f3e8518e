package io.sluice.broker.metrics;

import com.codahale.metrics.Clock;
import com.codahale.metrics.EWMA;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MovingAverages;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Kafka's (Yammer's, Dropwizard's) meter: Count, MeanRate and the one, five and fifteen minute exponentially weighted
 * rates, ticked every five seconds exactly as Dropwizard's {@link Meter} ticks them, but marking costs one add: the
 * rates take the events of each five-second tick from the count when a tick is due, instead of every mark adding to
 * three more counters, and a caller that marks several meters at once passes one clock reading to all
 * ({@link #mark(long, long)}).
 *
 * <p>Thread-safe: marking takes no lock; a due tick (at most one per five seconds) takes this meter's lock.
 */
public final class KafkaMeter extends Meter {
    private static final long TICK_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** Dropwizard's Meter wants moving averages; every method that would use them is overridden. */
    private static final MovingAverages NO_AVERAGES = new MovingAverages() {
        @Override
        public void tickIfNecessary() {}

        @Override
        public void update(long n) {}

        @Override
        public double getM1Rate() {
            return 0;
        }

        @Override
        public double getM5Rate() {
            return 0;
        }

        @Override
        public double getM15Rate() {
            return 0;
        }
    };

    private final LongSupplier nanoClock;
    private final LongAdder count = new LongAdder();
    private final long startNanos;
    private final EWMA oneMinute = EWMA.oneMinuteEWMA();
    private final EWMA fiveMinutes = EWMA.fiveMinuteEWMA();
    private final EWMA fifteenMinutes = EWMA.fifteenMinuteEWMA();
    /** When the current tick interval ends; writers read it to see when to tick. */
    private volatile long nextTickNanos;
    /** The start of the current tick interval; guarded by this meter's lock. */
    private long lastTickNanos;
    /** The count the rates have seen; guarded by this meter's lock. */
    private long countAtLastTick;

    /** A meter on {@link System#nanoTime()}. */
    public KafkaMeter() {
        this(System::nanoTime);
    }

    /** @param nanoClock the time in nanoseconds (only differences count), as {@link System#nanoTime()} */
    KafkaMeter(LongSupplier nanoClock) {
        super(NO_AVERAGES, Clock.defaultClock());
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.lastTickNanos = startNanos;
        this.nextTickNanos = startNanos + TICK_NANOS;
    }

    @Override
    public void mark() {
        mark(1);
    }

    @Override
    public void mark(long n) {
        mark(n, nanoClock.getAsLong());
    }

    /** Counts {@code n} events at {@code nowNanos}, a reading of this meter's clock. */
    public void mark(long n, long nowNanos) {
        if (nowNanos - nextTickNanos > 0) {
            tick(nowNanos);
        }
        count.add(n);
    }

    @Override
    public long getCount() {
        return count.sum();
    }

    @Override
    public double getMeanRate() {
        long events = getCount();
        if (events == 0) {
            return 0.0;
        }
        double elapsedNanos = nanoClock.getAsLong() - startNanos;
        return events / elapsedNanos * TimeUnit.SECONDS.toNanos(1);
    }

    @Override
    public double getOneMinuteRate() {
        tick(nanoClock.getAsLong());
        return oneMinute.getRate(TimeUnit.SECONDS);
    }

    @Override
    public double getFiveMinuteRate() {
        tick(nanoClock.getAsLong());
        return fiveMinutes.getRate(TimeUnit.SECONDS);
    }

    @Override
    public double getFifteenMinuteRate() {
        tick(nanoClock.getAsLong());
        return fifteenMinutes.getRate(TimeUnit.SECONDS);
    }

    /**
     * Dropwizard's tick: when whole intervals have passed, the events since the last tick go into the first, the
     * others count none.
     */
    private synchronized void tick(long nowNanos) {
        long age = nowNanos - lastTickNanos;
        if (age <= TICK_NANOS) {
            return;
        }
        long total = count.sum();
        long fresh = total - countAtLastTick;
        countAtLastTick = total;
        for (long ticks = age / TICK_NANOS; ticks > 0; ticks--) {
            oneMinute.update(fresh);
            fiveMinutes.update(fresh);
            fifteenMinutes.update(fresh);
            oneMinute.tick();
            fiveMinutes.tick();
            fifteenMinutes.tick();
            fresh = 0;
        }
        lastTickNanos = nowNanos - age % TICK_NANOS;
        nextTickNanos = lastTickNanos + TICK_NANOS;
    }
}
