package io.sluice.broker.move;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Live counters of one partition move, for progress reports and later the KIP-352 reassignment metrics. Written by
 * the transfer thread, read by anyone: thread-safe (atomics and volatiles; a read of several counters is not one
 * snapshot).
 */
public final class TransferProgress {
    private final AtomicLong bytesShipped = new AtomicLong();
    private final AtomicLong bytesResent = new AtomicLong();
    private final AtomicLong bytesVerified = new AtomicLong();
    private final AtomicLong chunksVerified = new AtomicLong();
    private final AtomicLong chunksRejected = new AtomicLong();
    private final AtomicLong sourceSwitches = new AtomicLong();
    private volatile long totalBytes = -1;
    private volatile TransferPhase phase = TransferPhase.PENDING;
    private volatile InetSocketAddress source;
    private volatile long startedNanos;
    private volatile long endedNanos;
    private volatile String failure;

    /** Payload bytes received from sources, including any received again or rejected. */
    public long bytesShipped() {
        return bytesShipped.get();
    }
    /** Payload bytes received for file positions that had been received before (resumes, rejected chunks). */
    public long bytesResent() {
        return bytesResent.get();
    }
    /** Bytes verified (chunk checksum) and kept in staging, including those found verified at a restart. */
    public long bytesVerified() {
        return bytesVerified.get();
    }

    public long chunksVerified() {
        return chunksVerified.get();
    }
    /** Chunks whose checksum did not match; each was discarded and asked for again. */
    public long chunksRejected() {
        return chunksRejected.get();
    }
    /** Times the transfer moved on to another source (or reconnected after a failure). */
    public long sourceSwitches() {
        return sourceSwitches.get();
    }
    /** Bytes the source listed (segments plus producer snapshot); -1 until listed. */
    public long totalBytes() {
        return totalBytes;
    }

    public TransferPhase phase() {
        return phase;
    }
    /** The source currently (or last) used; null before the first connection. */
    public InetSocketAddress source() {
        return source;
    }
    /** Why the transfer failed, or null. */
    public String failure() {
        return failure;
    }

    /** Bytes received per second since the transfer started (until it ended). */
    public double bytesPerSecond() {
        long start = startedNanos;
        if (start == 0) {
            return 0;
        }
        long end = endedNanos == 0 ? System.nanoTime() : endedNanos;
        return end <= start ? 0 : bytesShipped.get() * 1e9 / (end - start);
    }

    @Override
    public String toString() {
        return "TransferProgress{" + phase + ", verified " + bytesVerified() + "/" + totalBytes + ", shipped "
                + bytesShipped() + ", resent " + bytesResent() + ", chunks " + chunksVerified() + " ok/"
                + chunksRejected() + " rejected, source " + source + "}";
    }

    void started() {
        startedNanos = System.nanoTime();
    }

    void ended() {
        endedNanos = System.nanoTime();
    }

    void phase(TransferPhase value) {
        phase = value;
    }

    void source(InetSocketAddress value) {
        source = value;
    }

    void totalBytes(long value) {
        totalBytes = value;
    }

    void failure(String value) {
        failure = value;
    }

    void shipped(long bytes, long resent) {
        bytesShipped.addAndGet(bytes);
        bytesResent.addAndGet(resent);
    }

    void verified(long bytes) {
        bytesVerified.addAndGet(bytes);
        chunksVerified.incrementAndGet();
    }

    void alreadyVerified(long bytes) {
        bytesVerified.addAndGet(bytes);
    }

    void unverified(long bytes) {
        bytesVerified.addAndGet(-bytes);
    }

    void rejected() {
        chunksRejected.incrementAndGet();
    }

    void switchedSource() {
        sourceSwitches.incrementAndGet();
    }
}
