package io.sluice.log.clean;

/** A clean stopped before its swap because the log changed, was deleted or the cleaner is shutting down. */
final class CleanAbortedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CleanAbortedException(String message) {
        super(message, null, false, false);
    }
}
