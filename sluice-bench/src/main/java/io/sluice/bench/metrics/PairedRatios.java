package io.sluice.bench.metrics;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What a set of paired measurements says about "on / off": each pair's ratio, their median, quartiles and a bootstrap
 * 95% interval of the median (rounds resampled with replacement, a fixed seed so that a run's report is reproducible
 * from its numbers), and the ratio of the totals.
 *
 * <p>Immutable; thread-safe.
 */
final class PairedRatios {
    private static final int RESAMPLES = 10_000;
    private static final long SEED = 16;

    private final double[] sortedRatios;
    private final double totalsRatio;

    /** @param on the "on" side of each pair; {@code off} the other, as long, every value positive */
    PairedRatios(long[] on, long[] off) {
        if (on.length != off.length || on.length == 0) {
            throw new IllegalArgumentException(
                    "need as many on as off values, at least one: " + on.length + " / " + off.length);
        }
        double[] ratios = new double[on.length];
        long onTotal = 0;
        long offTotal = 0;
        for (int i = 0; i < on.length; i++) {
            ratios[i] = on[i] / (double) off[i];
            onTotal += on[i];
            offTotal += off[i];
        }
        Arrays.sort(ratios);
        this.sortedRatios = ratios;
        this.totalsRatio = onTotal / (double) offTotal;
    }

    double median() {
        return quantile(sortedRatios, 0.5);
    }

    double firstQuartile() {
        return quantile(sortedRatios, 0.25);
    }

    double thirdQuartile() {
        return quantile(sortedRatios, 0.75);
    }

    double totalsRatio() {
        return totalsRatio;
    }

    /** The 2.5% and 97.5% quantiles of the median of {@value #RESAMPLES} resamples of the pairs. */
    double[] medianInterval95() {
        SplittableRandom random = new SplittableRandom(SEED);
        double[] medians = new double[RESAMPLES];
        double[] resample = new double[sortedRatios.length];
        for (int r = 0; r < RESAMPLES; r++) {
            for (int i = 0; i < resample.length; i++) {
                resample[i] = sortedRatios[random.nextInt(sortedRatios.length)];
            }
            Arrays.sort(resample);
            medians[r] = quantile(resample, 0.5);
        }
        Arrays.sort(medians);
        return new double[] {quantile(medians, 0.025), quantile(medians, 0.975)};
    }

    /** Linear interpolation between the closest ranks of {@code sorted}. */
    static double quantile(double[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
    }
}
