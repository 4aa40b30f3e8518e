package io.sluice.broker.move;

import java.io.IOException;

/**
 * A staged file could not be written (the write threw anything at all): this broker's disk failed the move, not a
 * source or the network, so asking another source cannot help. Immutable.
 */
final class StagedWriteException extends IOException {
    private static final long serialVersionUID = 1L;

    StagedWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
