package io.sluice.codec.error;

/**
 * A message header carries a schema version newer than this build can read.
 * Immutable; safe to share.
 */
public class UnsupportedVersionException extends MalformedInputException {
    private static final long serialVersionUID = 1L;

    public UnsupportedVersionException(String messageType, int version, int maxSupported) {
        super(messageType + ": schema version " + version + " is newer than supported " + maxSupported);
    }
}
