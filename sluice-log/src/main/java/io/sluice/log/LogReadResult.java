package io.sluice.log;

import java.nio.channels.FileChannel;

/**
 * A region of one segment file holding whole record batches, to be sent with
 * {@link FileChannel#transferTo(long, long, java.nio.channels.WritableByteChannel)}. Nothing is copied.
 * The channel stays open at least {@link LogConfig#fileDeleteDelayMs()} after its segment is deleted.
 * Immutable.
 *
 * @param channel        the segment file; null when {@code sizeInBytes == 0}
 * @param position       file position of the first batch
 * @param sizeInBytes    bytes of whole batches from {@code position}; 0 = nothing to send
 * @param firstOffset    base offset of the first batch returned (-1 when empty)
 * @param logStartOffset log start offset at the time of the read
 * @param logEndOffset   log end offset at the time of the read
 */
public record LogReadResult(
        FileChannel channel, long position, int sizeInBytes, long firstOffset, long logStartOffset, long logEndOffset) {

    static LogReadResult empty(long logStartOffset, long logEndOffset) {
        return new LogReadResult(null, 0, 0, -1, logStartOffset, logEndOffset);
    }

    public boolean isEmpty() {
        return sizeInBytes == 0;
    }
}
