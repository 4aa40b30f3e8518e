package io.sluice.cluster.controller;

/**
 * A controller operation names a topic or partition the cluster does not have. Immutable; safe to share.
 */
public final class UnknownTopicException extends Exception {
    private static final long serialVersionUID = 1L;

    public UnknownTopicException(String message) {
        super(message);
    }
}
