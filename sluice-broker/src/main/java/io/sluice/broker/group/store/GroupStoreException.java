package io.sluice.broker.group.store;

import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.protocol.Errors;

/**
 * A group store write or load that failed with the error a produce to the partition would have got
 * (NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT,
 * KAFKA_STORAGE_ERROR); the coordinator maps it to what its own API answers, as Kafka's does. Immutable.
 */
public final class GroupStoreException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Errors error;

    public GroupStoreException(Errors error, String message) {
        super(message);
        this.error = error;
    }

    public GroupStoreException(Errors error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    public Errors error() {
        return error;
    }

    /** The store error behind {@code failure} (unwrapping futures' wrappers), or null when it is something else. */
    public static Errors errorOf(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause instanceof GroupStoreException e ? e.error() : null;
    }
}
