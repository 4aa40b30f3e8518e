package io.sluice.codec.error;

/**
 * Base of every typed error raised by sluice-codec on bad input or exceeded limits.
 * Immutable; safe to share.
 */
public class CodecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CodecException(String message) {
        super(message);
    }

    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
