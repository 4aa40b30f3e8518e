package io.sluice.codec.compress;

import java.nio.ByteBuffer;

/**
 * Inflates one compressed frame in bounded steps: the caller hands compressed slices with {@link #setInput} and
 * pulls at most {@code out.remaining()} bytes per {@link #decompress} call, so the caller bounds memory and checks
 * declared sizes as bytes appear. Reused across frames; {@link #close()} ends the native state.
 * Not thread-safe; one per reader or codec.
 */
public abstract sealed class StreamDecompressor implements AutoCloseable
        permits ZlibStreamDecompressor, ZstdStreamDecompressor {

    public static StreamDecompressor create(Compression compression, int chunkBytes) {
        return switch (compression) {
            case ZLIB -> new ZlibStreamDecompressor();
            case ZSTD -> new ZstdStreamDecompressor(chunkBytes);
        };
    }

    /** Starts a new frame. */
    public abstract void reset();

    /** Supplies the next compressed slice; the previous one must have been consumed ({@link #needsInput()}). */
    public abstract void setInput(byte[] src, int off, int len);

    /** True when every supplied byte has been consumed and no decompressed byte is pending. */
    public abstract boolean needsInput();

    /**
     * Decompresses into {@code out} (heap) up to its remaining space.
     *
     * @return bytes written, 0 when input is needed or the frame has ended
     * @throws io.sluice.codec.error.MalformedInputException on corrupt input
     */
    public abstract int decompress(ByteBuffer out);

    /** True once the end of the frame has been decoded. */
    public abstract boolean finished();

    /** Supplied bytes not consumed; after {@link #finished()} these are trailing bytes after the frame. */
    public abstract int remainingInput();

    @Override
    public abstract void close();
}
