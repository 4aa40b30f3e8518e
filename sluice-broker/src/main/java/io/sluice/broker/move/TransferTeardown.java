package io.sluice.broker.move;

import io.sluice.broker.security.ClientSecurity;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a transfer that stops without installing: closes its connection, removes its staging, tells every source it
 * asked to pin files to release them (best effort; they expire otherwise) and records in its progress whether it was
 * cancelled or failed.
 *
 * <p>Not thread-safe; one per {@link MoveTransferClient}, used by its transfer thread.
 */
final class TransferTeardown {
    /** Logs as the client it ends transfers for. */
    private static final Logger LOG = LoggerFactory.getLogger(MoveTransferClient.class);

    private final MoveCodec codec;
    private final int socketTimeoutMs;
    private final ClientSecurity security;
    /** Every source sent an open of this transfer (each may hold pins for it), in the order first asked. */
    private final Set<InetSocketAddress> asked = new LinkedHashSet<>();

    TransferTeardown(MoveCodec codec, int socketTimeoutMs, ClientSecurity security) {
        this.codec = codec;
        this.socketTimeoutMs = socketTimeoutMs;
        this.security = security;
    }

    /** The transfer is about to ask {@code source} to pin its files. */
    void asked(InetSocketAddress source) {
        asked.add(source);
    }

    /**
     * Undoes the transfer {@code transferId} (0: none was opened) into {@code partitionDir} after {@code cause};
     * returns what the transfer throws.
     *
     * @param closeConnection closes the transfer's connection
     * @param cancelled       whether the transfer was cancelled rather than failed
     */
    MoveException abandon(
            Runnable closeConnection,
            Path partitionDir,
            long transferId,
            boolean cancelled,
            TransferProgress progress,
            Exception cause)
            throws IOException {
        closeConnection.run();
        StagingArea.delete(partitionDir);
        if (transferId != 0) {
            for (InetSocketAddress source : asked) {
                SourcePins.releaseAt(source, transferId, codec, socketTimeoutMs, security);
            }
        }
        if (cancelled) {
            progress.phase(TransferPhase.CANCELLED);
            progress.failure("cancelled");
            return new MoveException(
                    Errors.REASSIGNMENT_IN_PROGRESS,
                    false,
                    "move of " + partitionDir.getFileName() + " was cancelled",
                    cause);
        }
        progress.phase(TransferPhase.FAILED);
        progress.failure(String.valueOf(cause.getMessage()));
        LOG.warn("move of {} failed (sources asked {}); staging removed", partitionDir.getFileName(), asked, cause);
        return cause instanceof MoveException move
                ? move
                : new MoveException(
                        Errors.KAFKA_STORAGE_ERROR,
                        false,
                        "move of " + partitionDir.getFileName() + " failed: " + cause.getMessage(),
                        cause);
    }
}
