package io.sluice.record.batch;

/**
 * The records inside a batch (or their compressed stream) are not what the v2 layout allows.
 * Thrown on the failure path only; the message names the field and the values seen.
 *
 * <p>Immutable once thrown; thread-safe.
 */
public final class BatchFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    /** What went wrong, so the validator can map it to the Kafka error code a client expects. */
    public enum Reason {
        /** A record's fields or lengths break the record layout, or bytes are missing/left over. */
        MALFORMED_RECORD,
        /** The compressed payload cannot be decoded by its codec. */
        CORRUPT_PAYLOAD,
        /** Decompression would exceed the configured ceiling (a decompression bomb, or just too big). */
        DECOMPRESSED_TOO_LARGE
    }

    private final Reason reason;

    public BatchFormatException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public BatchFormatException(Reason reason, String message, Throwable cause) {
        super(message, cause, false, false);
        this.reason = reason;
    }

    /** A {@link Reason#MALFORMED_RECORD} failure with {@code message}. */
    public static BatchFormatException malformed(String message) {
        return new BatchFormatException(Reason.MALFORMED_RECORD, message);
    }

    public Reason reason() {
        return reason;
    }
}
