package io.sluice.record.validate;

/**
 * Kafka's numeric error codes that record validation can return, as defined by
 * {@code org.apache.kafka.common.protocol.Errors} (a test checks every value against it).
 *
 * <p>Constants only; thread-safe.
 */
public final class KafkaErrorCodes {

    public static final short UNKNOWN_SERVER_ERROR = -1;
    public static final short NONE = 0;
    /** Batch CRC mismatch, unreadable or truncated batch, undecodable compressed payload. */
    public static final short CORRUPT_MESSAGE = 2;
    /** Batch larger than max.message.bytes, or decompressed payload above the ceiling. */
    public static final short MESSAGE_TOO_LARGE = 10;

    public static final short INVALID_TIMESTAMP = 32;
    /** Magic 0 or 1 batches: Sluice stores magic 2 only. */
    public static final short UNSUPPORTED_FOR_MESSAGE_FORMAT = 43;

    public static final short OUT_OF_ORDER_SEQUENCE_NUMBER = 45;
    public static final short DUPLICATE_SEQUENCE_NUMBER = 46;
    public static final short INVALID_PRODUCER_EPOCH = 47;
    public static final short UNSUPPORTED_COMPRESSION_TYPE = 76;
    /** Structurally invalid records or batch fields; carries per-record errors for Produce v8+. */
    public static final short INVALID_RECORD = 87;

    private KafkaErrorCodes() {}
}
