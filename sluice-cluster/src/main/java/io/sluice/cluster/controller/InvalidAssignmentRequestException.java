package io.sluice.cluster.controller;

/**
 * A topic creation or partition increase refused before anything is published, with the Kafka error a client expects
 * ({@link #error()}). Immutable; safe to share.
 */
public final class InvalidAssignmentRequestException extends Exception {
    private static final long serialVersionUID = 1L;
    private final ReplicationError error;

    public InvalidAssignmentRequestException(ReplicationError error, String message) {
        super(message);
        this.error = error;
    }

    public ReplicationError error() {
        return error;
    }
}
