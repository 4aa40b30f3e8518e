package io.sluice.record.compress;

import java.nio.ByteBuffer;

/**
 * Compresses a whole records section into the framing Kafka's producer uses for one codec, for
 * the rare batches whose codec differs from the topic's {@code compression.type}. Keeps its codec
 * state across batches and releases it in {@link #close()}.
 *
 * <p>Not thread-safe; one per validator and codec.
 */
public interface PayloadCompressor extends AutoCloseable {

    /** Output capacity that always suffices for {@code length} input bytes. */
    int maxCompressedLength(int length);

    /**
     * Compresses {@code source[from, to)} (direct memory) into {@code target} (direct memory) at
     * {@code at}, which has at least {@link #maxCompressedLength} bytes free; returns the bytes
     * written. Positions and limits of both buffers may be changed.
     */
    int compress(ByteBuffer source, int from, int to, ByteBuffer target, int at);

    /** Ends native resources deterministically; idempotent. */
    @Override
    void close();
}
