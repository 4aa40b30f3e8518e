package io.sluice.cli;

/**
 * A command could not do its job for a reason its message fully explains (shown as is, exit 1).
 * Immutable; thread-safe.
 */
public final class CommandFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CommandFailedException(String message) {
        super(message);
    }
}
