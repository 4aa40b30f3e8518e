package io.sluice.broker.move;

/**
 * Layout of the Sluice-private partition-move frames on the broker's Kafka listener. Stateless.
 *
 * <pre>
 * request (target to source); the listener's frame decoder strips the size, the handler sees the rest
 *   0  size           int32   bytes after this field (bounded by socket.request.max.bytes)
 *   4  apiKey         int16   {@link #API_KEY}: outside Kafka's ids, never advertised in ApiVersions
 *   6  apiVersion     int16   {@link #VERSION}
 *   8  correlationId  int32
 *  12  message        one {@link MoveMessages} message, codec-encoded, to the end of the frame
 *
 * response (source to target)
 *   0  size           int32   bytes after this field
 *   4  correlationId  int32
 *   8  headerLength   int32   bytes of the header message
 *  12  header         one {@link MoveMessages} message, codec-encoded
 *  12+headerLength    payload: the raw file bytes of a chunk (MoveChunkHeader.length), sent by sendfile
 * </pre>
 */
public final class MoveFrameDescriptor {
    /** Sluice's private API key for partition moves; Kafka's own keys are far below. */
    public static final short API_KEY = 23_000;

    public static final short VERSION = 0;

    public static final int SIZE_OFFSET = 0;
    public static final int SIZE_LENGTH = Integer.BYTES;

    public static final int API_KEY_OFFSET = SIZE_OFFSET + SIZE_LENGTH;
    public static final int API_KEY_LENGTH = Short.BYTES;
    public static final int API_VERSION_OFFSET = API_KEY_OFFSET + API_KEY_LENGTH;
    public static final int API_VERSION_LENGTH = Short.BYTES;
    public static final int REQUEST_CORRELATION_ID_OFFSET = API_VERSION_OFFSET + API_VERSION_LENGTH;
    public static final int CORRELATION_ID_LENGTH = Integer.BYTES;
    public static final int REQUEST_MESSAGE_OFFSET = REQUEST_CORRELATION_ID_OFFSET + CORRELATION_ID_LENGTH;

    public static final int RESPONSE_CORRELATION_ID_OFFSET = SIZE_OFFSET + SIZE_LENGTH;
    public static final int HEADER_LENGTH_OFFSET = RESPONSE_CORRELATION_ID_OFFSET + CORRELATION_ID_LENGTH;
    public static final int HEADER_LENGTH_LENGTH = Integer.BYTES;
    public static final int RESPONSE_HEADER_OFFSET = HEADER_LENGTH_OFFSET + HEADER_LENGTH_LENGTH;

    /** Largest response header a target accepts: a segment list of ~100,000 segments, far above real ones. */
    public static final int MAX_RESPONSE_HEADER_BYTES = 4 << 20;

    private MoveFrameDescriptor() {}

    /** Position of a request field in the frame as the listener hands it over (without the size prefix). */
    public static int inRequestBody(int frameOffset) {
        return frameOffset - SIZE_LENGTH;
    }
}
