package io.sluice.broker.metrics;

import com.codahale.metrics.Snapshot;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Dropwizard's view of a finished HdrHistogram: a percentile is the smallest recorded value (to the histogram's
 * precision) that at least that fraction of the values do not exceed, as a reservoir's sorted samples give it.
 *
 * <p>Immutable once made; the histogram is not changed after.
 */
final class HdrSnapshot extends Snapshot {
    private final AbstractHistogram values;

    /** @param values no longer recorded into */
    HdrSnapshot(AbstractHistogram values) {
        this.values = values;
    }

    @Override
    public double getValue(double quantile) {
        if (!(quantile >= 0.0 && quantile <= 1.0)) {
            throw new IllegalArgumentException(quantile + " is not in [0..1]");
        }
        return values.getValueAtPercentile(quantile * 100.0);
    }

    /** Every value, one per time it was recorded, in order (each at its precision's highest equivalent). */
    @Override
    public long[] getValues() {
        long[] all = new long[size()];
        int i = 0;
        for (HistogramIterationValue bucket : values.recordedValues()) {
            for (long n = 0; n < bucket.getCountAtValueIteratedTo() && i < all.length; n++) {
                all[i++] = bucket.getValueIteratedTo();
            }
        }
        return all;
    }

    @Override
    public int size() {
        return (int) Math.min(values.getTotalCount(), Integer.MAX_VALUE);
    }

    @Override
    public long getMax() {
        return values.getMaxValue();
    }

    @Override
    public double getMean() {
        return values.getMean();
    }

    @Override
    public long getMin() {
        return values.getMinValue();
    }

    @Override
    public double getStdDev() {
        return values.getStdDeviation();
    }

    @Override
    public void dump(OutputStream output) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(output, StandardCharsets.UTF_8));
        for (long value : getValues()) {
            out.println(value);
        }
        out.flush();
    }
}
