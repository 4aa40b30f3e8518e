package io.sluice.broker.move;

import org.apache.kafka.common.protocol.Errors;

/**
 * A partition-move message or frame that cannot be right: a bad field, a forged length, a truncated or trailing
 * frame. Names the field and the values seen; Kafka's INVALID_REQUEST is the code a peer sees for it. Immutable.
 */
public final class MoveProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String field;

    public MoveProtocolException(String field, String detail) {
        super(field + " " + detail);
        this.field = field;
    }

    public MoveProtocolException(String field, String detail, Throwable cause) {
        super(field + " " + detail, cause);
        this.field = field;
    }

    public String field() {
        return field;
    }

    public Errors error() {
        return Errors.INVALID_REQUEST;
    }
}
