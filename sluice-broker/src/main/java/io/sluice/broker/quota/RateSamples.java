package io.sluice.broker.quota;

/**
 * A rate measured as Kafka measures a quota ({@code SampledStat} with {@code Rate}): values are summed into at most
 * {@code samples} samples, a new one started when the current one is {@code windowMs} old; samples older than
 * {@code samples x windowMs} count as empty; the rate is the sum over the elapsed time since the oldest sample, that
 * time taken as at least {@code samples - 1} whole windows (so a fresh client is not judged on one short burst) and at
 * least 1 ms. Times are the caller's milliseconds; nothing here reads a clock.
 *
 * <p>Not thread-safe; guarded by its {@link QuotaSensor}.
 */
final class RateSamples {
    private final int samples;
    private final long windowMs;
    private final long[] starts;
    private final double[] values;
    private int used;
    private int current;

    RateSamples(int samples, long windowMs) {
        if (samples < 1 || windowMs < 1) {
            throw new IllegalArgumentException(
                    "samples " + samples + " and window " + windowMs + " ms must be positive");
        }
        this.samples = samples;
        this.windowMs = windowMs;
        this.starts = new long[samples];
        this.values = new double[samples];
    }

    /** Adds {@code value} (negative to take back what was recorded) at {@code nowMs}. */
    void record(double value, long nowMs) {
        if (used == 0) {
            start(0, nowMs);
            used = 1;
        } else if (nowMs - starts[current] >= windowMs) {
            current = (current + 1) % samples;
            if (current >= used) {
                used++;
            }
            start(current, nowMs);
        }
        values[current] += value;
    }

    /** The rate per second at {@code nowMs}. */
    double ratePerSecond(long nowMs) {
        return total(nowMs) / (windowSizeMs(nowMs) / 1000.0);
    }

    /** The sum of the samples still current at {@code nowMs} (Kafka's SampledStat sum, as Avg adds them up). */
    double total(long nowMs) {
        purgeObsolete(nowMs);
        double total = 0;
        for (int i = 0; i < used; i++) {
            total += values[i];
        }
        return total;
    }

    /** The time the rate at {@code nowMs} is measured over, in ms (Kafka's {@code Rate.windowSize}). */
    long windowSizeMs(long nowMs) {
        purgeObsolete(nowMs);
        if (used == 0) {
            start(0, nowMs);
            used = 1;
        }
        long oldest = starts[0];
        for (int i = 1; i < used; i++) {
            oldest = Math.min(oldest, starts[i]);
        }
        long elapsed = nowMs - oldest;
        long fullWindows = elapsed / windowMs;
        if (fullWindows < samples - 1) {
            elapsed += (samples - 1 - fullWindows) * windowMs;
        }
        return Math.max(elapsed, 1);
    }

    /** The longest any sample lasts before it counts as empty. */
    long expiryMs() {
        return samples * windowMs;
    }

    private void purgeObsolete(long nowMs) {
        long expireAge = expiryMs();
        for (int i = 0; i < used; i++) {
            if (nowMs - starts[i] >= expireAge) {
                start(i, nowMs);
            }
        }
    }

    private void start(int sample, long nowMs) {
        starts[sample] = nowMs;
        values[sample] = 0;
    }
}
