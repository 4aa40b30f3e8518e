package io.sluice.broker.topic;

import org.apache.kafka.common.protocol.Errors;

/**
 * A topic operation refused with the Kafka error the client expects and a message naming the
 * offending value.
 */
public final class TopicException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Errors error;

    public TopicException(Errors error, String message) {
        super(message);
        this.error = error;
    }

    public Errors error() {
        return error;
    }
}
