package io.sluice.codec.error;

/**
 * The input ended before the encoding it started was complete.
 * Immutable; safe to share.
 */
public class TruncatedInputException extends MalformedInputException {
    private static final long serialVersionUID = 1L;

    public TruncatedInputException(String message) {
        super(message);
    }
}
