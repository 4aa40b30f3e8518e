package io.sluice.record.validate;

import java.util.List;

/**
 * A produced batch was rejected: carries the Kafka error code the client expects and, when
 * individual records were at fault, one {@link RecordError} per record (Produce v8+).
 * Nothing of a rejected request partition may be appended.
 *
 * <p>Immutable once thrown; thread-safe.
 */
public final class RecordValidationException extends Exception {

    private static final long serialVersionUID = 1L;

    private final short errorCode;
    private final transient List<RecordError> recordErrors;

    public RecordValidationException(short errorCode, String message) {
        this(errorCode, message, List.of());
    }

    public RecordValidationException(short errorCode, String message, List<RecordError> recordErrors) {
        super(message, null, false, false);
        this.errorCode = errorCode;
        this.recordErrors = List.copyOf(recordErrors);
    }

    /** One of {@link KafkaErrorCodes}. */
    public short errorCode() {
        return errorCode;
    }

    /** Per-record errors (empty when the batch as a whole was at fault). */
    public List<RecordError> recordErrors() {
        return recordErrors;
    }
}
