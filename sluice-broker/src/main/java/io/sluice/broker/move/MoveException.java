package io.sluice.broker.move;

import org.apache.kafka.common.protocol.Errors;

/**
 * A partition move failed, with the Kafka error that says why (the source's answer, or the target's own finding)
 * and whether trying again (later, or from another source) may succeed. Immutable.
 */
public class MoveException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Errors error;
    private final boolean retriable;

    public MoveException(Errors error, boolean retriable, String message) {
        super(message);
        this.error = error;
        this.retriable = retriable;
    }

    public MoveException(Errors error, boolean retriable, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
        this.retriable = retriable;
    }

    public Errors error() {
        return error;
    }

    public boolean isRetriable() {
        return retriable;
    }
}
