package io.sluice.codec.error;

/**
 * A message header names a type id that is not registered.
 * Immutable; safe to share.
 */
public class UnknownMessageTypeException extends MalformedInputException {
    private static final long serialVersionUID = 1L;

    public UnknownMessageTypeException(String where, int typeId) {
        super(where + ": unknown message type id " + typeId);
    }
}
