package io.sluice.cluster.controller;

/**
 * An ISR change that names a broker outside the partition's replicas, is empty, or leaves out the live leader.
 * Immutable; safe to share.
 */
public final class InvalidIsrException extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidIsrException(String message) {
        super(message);
    }
}
