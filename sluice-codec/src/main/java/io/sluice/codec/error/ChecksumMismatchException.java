package io.sluice.codec.error;

/**
 * Stored and computed checksums differ.
 * Immutable; safe to share.
 */
public class ChecksumMismatchException extends MalformedInputException {
    private static final long serialVersionUID = 1L;

    public ChecksumMismatchException(String what, int expected, int actual) {
        super(what + ": checksum mismatch, stored 0x" + Integer.toHexString(expected) + " computed 0x"
                + Integer.toHexString(actual));
    }
}
