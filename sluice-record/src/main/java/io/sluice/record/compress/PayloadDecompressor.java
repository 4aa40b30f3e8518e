package io.sluice.record.compress;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import java.nio.ByteBuffer;

/**
 * Streams one compressed batch payload into a {@link ByteWindow}, as much as fits per refill.
 * Implementations keep their codec state (native contexts included) across batches and
 * release it in {@link #close()}.
 *
 * <p>Not thread-safe; one per validator and codec.
 */
public interface PayloadDecompressor extends ByteWindow.Refill, AutoCloseable {

    /**
     * Starts a new payload: {@code source[from, to)}. The source's position and limit are not
     * moved; the bytes must stay unchanged until the payload has been read.
     */
    void begin(ByteBuffer source, int from, int to) throws BatchFormatException;

    /** Returned by {@link #storedRanges} when the payload's bytes are not all stored verbatim. */
    int NOT_STORED = -1;

    /**
     * When every decompressed byte of the payload given to {@link #begin} is stored verbatim in
     * the source (incompressible data: zstd raw blocks, lz4 uncompressed blocks, snappy literals)
     * and the payload is well formed as far as the codec's own decoder checks it, writes the
     * source ranges that hold those bytes, in stream order, into {@code ranges} as
     * {@code from0, to0, from1, to1, …} (absolute indexes in the source) and returns how many
     * there are. The contract: the codec's decoder, fed this payload, would accept it and produce
     * exactly the concatenation of the ranges. Returns {@link #NOT_STORED} otherwise, and when
     * more than {@code ranges.length / 2} ranges would be needed or they hold more than
     * {@code maxBytes} bytes. Reads headers only and consumes nothing: the payload can still be
     * refilled from its start.
     */
    default int storedRanges(long maxBytes, int[] ranges) {
        return NOT_STORED;
    }

    /** Ends native resources deterministically; idempotent. */
    @Override
    void close();

    static BatchFormatException corrupt(String codec, String message) {
        return new BatchFormatException(BatchFormatException.Reason.CORRUPT_PAYLOAD, codec + " payload: " + message);
    }

    static BatchFormatException corrupt(String codec, String message, Throwable cause) {
        return new BatchFormatException(
                BatchFormatException.Reason.CORRUPT_PAYLOAD,
                codec + " payload: " + message + " (" + cause.getMessage() + ")",
                cause);
    }
}
