package io.sluice.cluster.assign;

/**
 * A replica assignment that cannot be made (too few brokers, bad counts). Immutable; safe to share.
 */
public final class InvalidAssignmentException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidAssignmentException(String message) {
        super(message);
    }
}
