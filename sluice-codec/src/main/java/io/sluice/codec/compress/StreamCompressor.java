package io.sluice.codec.compress;

import java.nio.ByteBuffer;

/**
 * Streams bytes through one native compressor: callers fill {@link #input()} (the coalescing chunk), and each
 * {@link #drainInput} makes one pass of native calls over the whole chunk. Reused across frames; {@link #close()}
 * ends the native compressor deterministically. Not thread-safe; one per writer or codec.
 */
public abstract sealed class StreamCompressor implements AutoCloseable
        permits ZlibStreamCompressor, ZstdStreamCompressor {

    /** A compressor for {@code compression} whose input chunk holds {@code chunkBytes}. */
    public static StreamCompressor create(Compression compression, int chunkBytes) {
        return switch (compression) {
            case ZLIB -> new ZlibStreamCompressor(chunkBytes);
            case ZSTD -> new ZstdStreamCompressor(chunkBytes);
        };
    }

    /** The coalescing chunk, in write mode: put bytes, then call {@link #drainInput} when it is full. */
    public abstract ByteBuffer input();

    /** Compresses the bytes put into {@link #input()} so far and clears it. */
    public abstract void drainInput(ByteSink out);

    /** Compresses what is left in {@link #input()}, ends the frame and makes this ready for the next frame. */
    public abstract void finish(ByteSink out);

    /** Abandons a partly written frame. */
    public abstract void reset();

    /** Releases the native compressor; this object is unusable afterwards. */
    @Override
    public abstract void close();
}
