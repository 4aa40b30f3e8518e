package io.sluice.broker.http;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * This broker's bytes in, bytes out and messages in over the last minutes, for the status page's charts: every
 * {@link #sample()} (one per {@code intervalMs}) stores the counters' totals in a ring of {@code capacity} samples,
 * so memory stays fixed; the rates are the differences between neighbouring samples.
 *
 * <p>Thread-safe: {@link #sample()} and {@link #write} are synchronized (a sample is three longs).
 */
final class ThroughputHistory {
    private final LongSupplier bytesIn;
    private final LongSupplier bytesOut;
    private final LongSupplier messagesIn;
    private final LongSupplier clockMs;
    private final long intervalMs;
    private final long[] timesMs;
    private final long[] bytesInTotals;
    private final long[] bytesOutTotals;
    private final long[] messagesInTotals;
    private int next;
    private int size;

    /**
     * @param bytesIn    total bytes appended by producers so far (Kafka's BytesInPerSec count)
     * @param bytesOut   total bytes sent to consumers and followers so far (BytesOutPerSec count)
     * @param messagesIn total records appended so far (MessagesInPerSec count)
     */
    ThroughputHistory(
            LongSupplier bytesIn,
            LongSupplier bytesOut,
            LongSupplier messagesIn,
            LongSupplier clockMs,
            long intervalMs,
            int capacity) {
        if (capacity < 2 || intervalMs <= 0) {
            throw new IllegalArgumentException("need at least two samples and a positive interval, got " + capacity
                    + " samples every " + intervalMs + " ms");
        }
        this.bytesIn = bytesIn;
        this.bytesOut = bytesOut;
        this.messagesIn = messagesIn;
        this.clockMs = clockMs;
        this.intervalMs = intervalMs;
        this.timesMs = new long[capacity];
        this.bytesInTotals = new long[capacity];
        this.bytesOutTotals = new long[capacity];
        this.messagesInTotals = new long[capacity];
    }

    long intervalMs() {
        return intervalMs;
    }

    /** Stores the counters now, overwriting the oldest sample once the ring is full. */
    synchronized void sample() {
        timesMs[next] = clockMs.getAsLong();
        bytesInTotals[next] = bytesIn.getAsLong();
        bytesOutTotals[next] = bytesOut.getAsLong();
        messagesInTotals[next] = messagesIn.getAsLong();
        next = (next + 1) % timesMs.length;
        size = Math.min(size + 1, timesMs.length);
    }

    /**
     * Writes {@code {"intervalMs":..,"samples":[{"timeMs":..,"bytesInPerSec":..,"bytesOutPerSec":..,
     * "messagesInPerSec":..},..]}}, oldest first, one entry per pair of neighbouring samples.
     */
    synchronized void write(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeNumberField("intervalMs", intervalMs);
        json.writeArrayFieldStart("samples");
        int oldest = (next - size + timesMs.length) % timesMs.length;
        for (int i = 1; i < size; i++) {
            int previous = (oldest + i - 1) % timesMs.length;
            int current = (oldest + i) % timesMs.length;
            double seconds = Math.max(1, timesMs[current] - timesMs[previous]) / 1000.0;
            json.writeStartObject();
            json.writeNumberField("timeMs", timesMs[current]);
            json.writeNumberField("bytesInPerSec", rate(bytesInTotals, previous, current, seconds));
            json.writeNumberField("bytesOutPerSec", rate(bytesOutTotals, previous, current, seconds));
            json.writeNumberField("messagesInPerSec", rate(messagesInTotals, previous, current, seconds));
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    /** Counters only grow; a drop (metrics reset) reads as zero rather than a negative rate. */
    private static double rate(long[] totals, int previous, int current, double seconds) {
        return Math.max(0, totals[current] - totals[previous]) / seconds;
    }
}
