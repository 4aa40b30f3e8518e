package io.sluice.codec.error;

/**
 * A declared length or count is larger than the configured cap; nothing of that size was allocated.
 * Immutable; safe to share.
 */
public class LimitExceededException extends MalformedInputException {
    private static final long serialVersionUID = 1L;

    public LimitExceededException(String what, long declared, long cap) {
        super(what + ": declared " + declared + " exceeds cap " + cap);
    }
}
