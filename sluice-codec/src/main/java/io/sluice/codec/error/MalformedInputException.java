package io.sluice.codec.error;

/**
 * Input bytes that cannot be a valid encoding (bad varint, bad marker, inconsistent sizes).
 * Immutable; safe to share.
 */
public class MalformedInputException extends CodecException {
    private static final long serialVersionUID = 1L;

    public MalformedInputException(String message) {
        super(message);
    }

    public MalformedInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
