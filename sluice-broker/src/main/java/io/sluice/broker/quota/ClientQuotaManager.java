package io.sluice.broker.quota;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One kind of client quota (produce bytes, fetch bytes or request time) as Kafka's ClientQuotaManager keeps it: a rate
 * per group of clients that share a quota (Kafka's metric tags, from {@link QuotaTable#resolve}), each measured over
 * {@code samples x windowMs} ({@link RateSamples}); a value that takes the rate above the bound gives Kafka's throttle
 * time, {@code (rate - bound) / bound x window}, in ms, at most {@code maxThrottleMs}. Each group also averages the
 * throttle times it was given ({@link #recordThrottle}) over the same window, and both show as Kafka's quota metrics
 * ({@link QuotaMetrics}). Rates idle for an hour are dropped with their metrics ({@link #expireIdle}).
 *
 * <p>Thread-safe: the rate map is concurrent and each rate is guarded by its own lock.
 */
final class ClientQuotaManager {
    /** Kafka's inactive sensor expiry for quota sensors. */
    static final long IDLE_EXPIRY_MS = 3_600_000;

    /** The clients that share one measured rate: the user tag and client-id tag Kafka's metrics carry. */
    record Group(String user, String clientId) {}

    private final QuotaType type;
    private final int samples;
    private final long windowMs;
    private final long maxThrottleMs;
    private final Map<Group, Sensor> sensors = new ConcurrentHashMap<>();
    private final QuotaMetrics metrics;

    ClientQuotaManager(QuotaType type, int samples, long windowMs, long maxThrottleMs) {
        this(type, samples, windowMs, maxThrottleMs, QuotaMetrics.NONE);
    }

    ClientQuotaManager(QuotaType type, int samples, long windowMs, long maxThrottleMs, QuotaMetrics metrics) {
        this.type = type;
        this.samples = samples;
        this.windowMs = windowMs;
        this.maxThrottleMs = maxThrottleMs;
        this.metrics = metrics;
    }

    /**
     * Records {@code value} for {@code user} as {@code clientId} and returns the throttle time in ms (0 within the
     * quota, or when no quota of this kind applies to them, in which case nothing is recorded).
     */
    int recordAndGetThrottleTimeMs(QuotaTable table, String user, String clientId, double value, long nowMs) {
        QuotaTable.Resolution quota = table.resolve(type, user, clientId);
        if (quota == null) {
            return 0;
        }
        return sensor(quota).recordAndThrottleMs(value, quota.bound(), nowMs, maxThrottleMs);
    }

    /**
     * Counts a throttle of {@code throttleMs} given to a request this quota held back (Kafka records it on the quota whose
     * throttle was the larger), for the group's throttle-time average.
     */
    void recordThrottle(QuotaTable table, String user, String clientId, int throttleMs, long nowMs) {
        QuotaTable.Resolution quota = table.resolve(type, user, clientId);
        if (quota != null && throttleMs > 0) {
            sensor(quota).recordThrottle(throttleMs, nowMs);
        }
    }

    /** Takes back a value recorded at {@code nowMs} (a throttled fetch is answered empty, as Kafka does). */
    void unrecord(QuotaTable table, String user, String clientId, double value, long nowMs) {
        QuotaTable.Resolution quota = table.resolve(type, user, clientId);
        if (quota != null) {
            sensor(quota).unrecord(value, nowMs);
        }
    }

    /**
     * Kafka's {@code getMaxValueInQuotaWindow}: the most one request may count, {@code bound x (samples - 1) x window}
     * (so a fetch never outgrows the quota for good); {@code Double.MAX_VALUE} when no quota applies.
     */
    double maxValueInQuotaWindow(QuotaTable table, String user, String clientId) {
        QuotaTable.Resolution quota = table.resolve(type, user, clientId);
        return quota == null || Double.isInfinite(quota.bound())
                ? Double.MAX_VALUE
                : quota.bound() * (samples - 1) * windowMs / 1000.0;
    }

    /** The measured rate of each group, per second (for metrics and tests). */
    Map<Group, Double> rates(long nowMs) {
        Map<Group, Double> out = new java.util.TreeMap<>(
                java.util.Comparator.comparing(Group::user).thenComparing(Group::clientId));
        sensors.forEach((group, sensor) -> out.put(group, sensor.rate(nowMs)));
        return out;
    }

    /** Drops the rates, and their metrics, nobody recorded into for {@link #IDLE_EXPIRY_MS}. */
    void expireIdle(long nowMs) {
        for (Map.Entry<Group, Sensor> e : sensors.entrySet()) {
            if (e.getValue().idleSince(nowMs - IDLE_EXPIRY_MS) && sensors.remove(e.getKey(), e.getValue())) {
                metrics.remove(type, e.getKey());
            }
        }
    }

    private Sensor sensor(QuotaTable.Resolution quota) {
        Group group = new Group(quota.userTag(), quota.clientTag());
        Sensor sensor = sensors.get(group);
        if (sensor != null) {
            return sensor;
        }
        Sensor created = new Sensor(
                new RateSamples(samples, windowMs),
                new RateSamples(samples, windowMs),
                new RateSamples(samples, windowMs));
        sensor = sensors.putIfAbsent(group, created);
        if (sensor != null) {
            return sensor;
        }
        metrics.add(type, group, created::rate, created::averageThrottleMs);
        return created;
    }

    /** One group's rate and throttle-time average. Thread-safe (synchronized). */
    static final class Sensor {
        private final RateSamples rate;
        private final RateSamples throttleSum;
        private final RateSamples throttleCount;
        private long lastRecordMs;

        Sensor(RateSamples rate, RateSamples throttleSum, RateSamples throttleCount) {
            this.rate = rate;
            this.throttleSum = throttleSum;
            this.throttleCount = throttleCount;
        }

        synchronized void recordThrottle(int throttleMs, long nowMs) {
            throttleSum.record(throttleMs, nowMs);
            throttleCount.record(1, nowMs);
        }

        /** Kafka's Avg over the current samples: NaN when nothing was throttled in them. */
        synchronized double averageThrottleMs(long nowMs) {
            double count = throttleCount.total(nowMs);
            return count == 0 ? Double.NaN : throttleSum.total(nowMs) / count;
        }

        synchronized int recordAndThrottleMs(double value, double bound, long nowMs, long maxThrottleMs) {
            rate.record(value, nowMs);
            lastRecordMs = nowMs;
            double measured = rate.ratePerSecond(nowMs);
            if (measured <= bound) {
                return 0;
            }
            double throttleMs = (measured - bound) / bound * rate.windowSizeMs(nowMs);
            return (int) Math.min(Math.round(throttleMs), maxThrottleMs);
        }

        synchronized void unrecord(double value, long nowMs) {
            rate.record(-value, nowMs);
        }

        synchronized double rate(long nowMs) {
            return rate.ratePerSecond(nowMs);
        }

        synchronized boolean idleSince(long cutoffMs) {
            return lastRecordMs < cutoffMs;
        }
    }
}
