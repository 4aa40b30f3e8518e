package io.sluice.broker.metrics;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Snapshot;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The JMX views of meters, histograms and gauges, with exactly the attributes Kafka's Yammer reporter shows (so
 * jmx_exporter rules and dashboards written for Kafka match): a meter's Count, EventType, RateUnit, MeanRate and the
 * one, five and fifteen minute rates per second; a histogram's Count, Min, Max, Mean, StdDev and percentiles; a
 * gauge's Value.
 *
 * <p>Thread-safe: every attribute read takes a fresh reading of the underlying metric.
 */
public final class MetricBeans {
    private MetricBeans() {}

    /** Kafka's meter attributes. */
    public interface MeterView {
        long getCount();

        String getEventType();

        TimeUnit getRateUnit();

        double getMeanRate();

        double getOneMinuteRate();

        double getFiveMinuteRate();

        double getFifteenMinuteRate();
    }

    /** Kafka's histogram attributes (its TotalTimeMs and the like are histograms of milliseconds). */
    public interface HistogramView {
        long getCount();

        double getMin();

        double getMax();

        double getMean();

        double getStdDev();

        double get50thPercentile();

        double get75thPercentile();

        double get95thPercentile();

        double get98thPercentile();

        double get99thPercentile();

        double get999thPercentile();
    }

    /** Kafka's gauge attribute. */
    public interface GaugeView {
        Object getValue();
    }

    static final class MeterBean implements MeterView {
        private final Meter meter;
        private final String eventType;

        MeterBean(Meter meter, String eventType) {
            this.meter = meter;
            this.eventType = eventType;
        }

        @Override
        public long getCount() {
            return meter.getCount();
        }

        @Override
        public String getEventType() {
            return eventType;
        }

        @Override
        public TimeUnit getRateUnit() {
            return TimeUnit.SECONDS;
        }

        @Override
        public double getMeanRate() {
            return meter.getMeanRate();
        }

        @Override
        public double getOneMinuteRate() {
            return meter.getOneMinuteRate();
        }

        @Override
        public double getFiveMinuteRate() {
            return meter.getFiveMinuteRate();
        }

        @Override
        public double getFifteenMinuteRate() {
            return meter.getFifteenMinuteRate();
        }
    }

    static final class HistogramBean implements HistogramView {
        private final Histogram histogram;

        HistogramBean(Histogram histogram) {
            this.histogram = histogram;
        }

        private Snapshot snapshot() {
            return histogram.getSnapshot();
        }

        @Override
        public long getCount() {
            return histogram.getCount();
        }

        @Override
        public double getMin() {
            return snapshot().getMin();
        }

        @Override
        public double getMax() {
            return snapshot().getMax();
        }

        @Override
        public double getMean() {
            return snapshot().getMean();
        }

        @Override
        public double getStdDev() {
            return snapshot().getStdDev();
        }

        @Override
        public double get50thPercentile() {
            return snapshot().getMedian();
        }

        @Override
        public double get75thPercentile() {
            return snapshot().get75thPercentile();
        }

        @Override
        public double get95thPercentile() {
            return snapshot().get95thPercentile();
        }

        @Override
        public double get98thPercentile() {
            return snapshot().get98thPercentile();
        }

        @Override
        public double get99thPercentile() {
            return snapshot().get99thPercentile();
        }

        @Override
        public double get999thPercentile() {
            return snapshot().get999thPercentile();
        }
    }

    static final class GaugeBean implements GaugeView {
        private final Supplier<? extends Number> value;

        GaugeBean(Supplier<? extends Number> value) {
            this.value = value;
        }

        @Override
        public Object getValue() {
            return value.get();
        }
    }
}
