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

    /** Ends native resources deterministically; idempotent. */
    @Override
    void close();

    static BatchFormatException corrupt(String codec, String message) {
        return new BatchFormatException(BatchFormatException.Reason.CORRUPT_PAYLOAD, codec + " payload: " + message);
    }

    static BatchFormatException corrupt(String codec, String message, Throwable cause) {
        return new BatchFormatException(BatchFormatException.Reason.CORRUPT_PAYLOAD,
                codec + " payload: " + message + " (" + cause.getMessage() + ")", cause);
    }
}
