package io.sluice.testkit;

/**
 * Layout of a Kafka protocol frame on the wire, as far as a test that sends raw bytes needs it.
 *
 * <pre>
 *  0                   1                   2                   3
 * +-------------------------------+
 * | size (int32, bytes that follow)|   request or response frame
 * +-------------------------------+-------------------------------+
 * | request: api_key int16 | api_version int16 | correlation_id int32 | client_id ... | body
 * | response: correlation_id int32 | [tagged fields if header v1] | body
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Constants only; thread-safe.
 */
public final class KafkaFrameDescriptor {

    public static final int SIZE_OFFSET = 0;
    public static final int SIZE_LENGTH = Integer.BYTES;
    /** Offsets below are relative to the first byte after the size prefix. */
    public static final int REQUEST_API_KEY_OFFSET = 0;

    public static final int REQUEST_API_KEY_LENGTH = Short.BYTES;
    public static final int REQUEST_API_VERSION_OFFSET = REQUEST_API_KEY_OFFSET + REQUEST_API_KEY_LENGTH;
    public static final int REQUEST_API_VERSION_LENGTH = Short.BYTES;
    public static final int REQUEST_CORRELATION_ID_OFFSET = REQUEST_API_VERSION_OFFSET + REQUEST_API_VERSION_LENGTH;
    public static final int REQUEST_CORRELATION_ID_LENGTH = Integer.BYTES;
    public static final int RESPONSE_CORRELATION_ID_OFFSET = 0;
    public static final int RESPONSE_CORRELATION_ID_LENGTH = Integer.BYTES;
    /** Kafka's {@code socket.request.max.bytes} default (100 MiB). */
    public static final int DEFAULT_SOCKET_REQUEST_MAX_BYTES = 104_857_600;

    private KafkaFrameDescriptor() {}
}
