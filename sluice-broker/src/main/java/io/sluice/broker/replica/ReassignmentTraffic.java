package io.sluice.broker.replica;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * The bytes this broker moves for partition reassignments (Kafka's KIP-352 {@code ReassignmentBytesInPerSec} and
 * {@code ReassignmentBytesOutPerSec}): in, what it receives as an adding replica (move chunks and follower fetches);
 * out, what it sends to an adding replica (move chunks as source, fetch answers as leader). Totals since start, and
 * listeners (a metrics meter) told of every count.
 *
 * <p>Thread-safe: counted from request, fetcher and move threads; listeners are set once at start-up.
 */
public final class ReassignmentTraffic {
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    private volatile LongConsumer inListener = bytes -> {};
    private volatile LongConsumer outListener = bytes -> {};

    /** Tells {@code in} and {@code out} of every count from now on (a meter's mark). */
    public void listen(LongConsumer in, LongConsumer out) {
        this.inListener = in;
        this.outListener = out;
    }

    void received(long bytes) {
        if (bytes > 0) {
            bytesIn.add(bytes);
            inListener.accept(bytes);
        }
    }

    void sent(long bytes) {
        if (bytes > 0) {
            bytesOut.add(bytes);
            outListener.accept(bytes);
        }
    }

    /** Bytes received for reassignments since start. */
    public long bytesIn() {
        return bytesIn.sum();
    }

    /** Bytes sent for reassignments since start. */
    public long bytesOut() {
        return bytesOut.sum();
    }
}
