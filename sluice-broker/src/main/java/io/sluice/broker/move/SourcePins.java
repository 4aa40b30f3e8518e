package io.sluice.broker.move;

import io.sluice.broker.security.ClientSecurity;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a move's source that a transfer is over, so it releases the pins on its files now instead of when they
 * expire. Best effort: a source that cannot be told lets them expire.
 *
 * <p>Stateless; thread-safe (each call uses the connection it is given or opens its own).
 */
final class SourcePins {
    private static final Logger LOG = LoggerFactory.getLogger(SourcePins.class);
    /** Bound on telling a source that an abandoned transfer's pins can go; they expire anyway. */
    private static final int RELEASE_TIMEOUT_MS = 2_000;

    private SourcePins() {}

    /**
     * Tells {@code source} over {@code conn}, when that is a connection to it, that the transfer ended; returns whether
     * the source answered.
     */
    static boolean closeAt(
            MoveConnection conn, MoveCodec codec, InetSocketAddress source, long transferId, boolean completed) {
        try {
            if (conn == null || !conn.address().equals(source)) {
                return false;
            }
            conn.call(codec, new MoveCloseRequest(transferId, completed), MoveCloseResponse.class);
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not tell {} that transfer {} ended; its pins expire", source, transferId, e);
            return false;
        }
    }

    /**
     * Tells {@code source} on a fresh connection that the transfer ended ({@code completed}: its files are in, else it
     * was abandoned), within {@link #RELEASE_TIMEOUT_MS} per connect, send and answer.
     */
    static void releaseAt(
            InetSocketAddress source,
            long transferId,
            boolean completed,
            MoveCodec codec,
            int socketTimeoutMs,
            ClientSecurity security) {
        try (MoveConnection conn =
                new MoveConnection(source, Math.min(socketTimeoutMs, RELEASE_TIMEOUT_MS), security)) {
            conn.connect();
            conn.call(codec, new MoveCloseRequest(transferId, completed), MoveCloseResponse.class);
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not tell {} that transfer {} ended; its pins expire", source, transferId, e);
        }
    }
}
