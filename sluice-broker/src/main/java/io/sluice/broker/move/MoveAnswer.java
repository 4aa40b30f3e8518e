package io.sluice.broker.move;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * One answer of {@link MoveSource}, for the network layer to write: the codec-encoded {@code header}, then
 * {@code length} bytes of {@code file} from {@code position} (none when {@code length} is 0), sent no faster than
 * {@code limiter} allows. The header buffer is consumed by the one write. Not thread-safe; handed from the request
 * thread to the writer.
 *
 * @param correlationId the request's correlation id
 * @param header        the encoded response message ({@link MoveSegmentList}, {@link MoveChunkHeader} or
 *                      {@link MoveCloseResponse})
 * @param file          the file the chunk's bytes come from, null when none follow
 * @param position      where in {@code file} the bytes start
 * @param length        how many bytes follow the header
 * @param limiter       the send-rate bound of those bytes
 */
public record MoveAnswer(
        int correlationId, ByteBuffer header, FileChannel file, long position, int length, ByteRateLimiter limiter) {

    /** An answer of a header alone. */
    static MoveAnswer of(int correlationId, ByteBuffer header) {
        return new MoveAnswer(correlationId, header, null, 0, 0, ByteRateLimiter.UNLIMITED);
    }
}
