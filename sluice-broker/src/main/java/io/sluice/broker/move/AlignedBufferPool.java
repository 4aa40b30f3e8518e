package io.sluice.broker.move;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Block-aligned direct buffers of one size, kept for reuse across transfers up to a bound, so that a broker's moves do
 * not each leave megabytes of direct memory for the garbage collector to find; a buffer released beyond the bound is
 * dropped.
 *
 * <p>Thread-safe.
 */
final class AlignedBufferPool {
    private final int bufferBytes;
    private final int alignment;
    private final int maxKept;
    private final ArrayDeque<ByteBuffer> kept = new ArrayDeque<>();

    /**
     * @param bufferBytes each buffer's capacity
     * @param alignment   the boundary each buffer starts on (a power of two)
     * @param maxKept     the most buffers kept between uses
     */
    AlignedBufferPool(int bufferBytes, int alignment, int maxKept) {
        if (bufferBytes <= 0 || alignment <= 0 || Integer.bitCount(alignment) != 1 || maxKept < 0) {
            throw new IllegalArgumentException(
                    "buffer bytes " + bufferBytes + ", alignment " + alignment + ", kept " + maxKept);
        }
        this.bufferBytes = bufferBytes;
        this.alignment = alignment;
        this.maxKept = maxKept;
    }

    /** A cleared buffer of {@code bufferBytes} starting on the alignment: a kept one, or a new one. */
    ByteBuffer take() {
        ByteBuffer buffer;
        synchronized (this) {
            buffer = kept.pollFirst();
        }
        if (buffer == null) {
            // an allocation that happens to start aligned leaves a slice one alignment longer: cut it to size
            buffer = ByteBuffer.allocateDirect(bufferBytes + alignment)
                    .alignedSlice(alignment)
                    .slice(0, bufferBytes);
        }
        return buffer.clear();
    }

    /** Gives back a buffer {@link #take()} returned; its holder must not touch it any more. */
    void release(ByteBuffer buffer) {
        if (!buffer.isDirect() || buffer.capacity() != bufferBytes || buffer.alignmentOffset(0, alignment) != 0) {
            throw new IllegalArgumentException("not a buffer of this pool: " + buffer);
        }
        synchronized (this) {
            if (kept.size() < maxKept) {
                kept.addFirst(buffer);
            }
        }
    }

    /** Buffers kept for the next {@link #take()}. */
    synchronized int kept() {
        return kept.size();
    }
}
