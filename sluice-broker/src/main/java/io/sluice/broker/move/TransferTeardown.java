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
 * cancelled or failed. Each step is tried even when an earlier one failed; a step that failed is logged and added to
 * the transfer's exception as suppressed (staging left behind is deleted when the partition next follows without a
 * transfer).
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

    private ChunkFaultHook faults = ChunkFaultHook.NONE;

    TransferTeardown(MoveCodec codec, int socketTimeoutMs, ClientSecurity security) {
        this.codec = codec;
        this.socketTimeoutMs = socketTimeoutMs;
        this.security = security;
    }

    /** Installs a test fault hook. */
    void faults(ChunkFaultHook hook) {
        this.faults = hook;
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
            Exception cause) {
        String name = String.valueOf(partitionDir.getFileName());
        Exception undone = null;
        try {
            closeConnection.run();
        } catch (RuntimeException e) {
            undone = add(undone, e);
        }
        try {
            faults.beforeStagingRemoved(StagingArea.dirOf(partitionDir));
            StagingArea.delete(partitionDir);
        } catch (IOException | RuntimeException e) {
            undone = add(undone, e);
            LOG.warn("move of {}: staging not removed; it is when the partition next follows", name, e);
        }
        if (transferId != 0) {
            for (InetSocketAddress source : asked) {
                SourcePins.releaseAt(source, transferId, codec, socketTimeoutMs, security); // never throws
            }
        }
        MoveException thrown;
        if (cancelled) {
            progress.phase(TransferPhase.CANCELLED);
            progress.failure("cancelled");
            thrown = new MoveException(
                    Errors.REASSIGNMENT_IN_PROGRESS, false, "move of " + name + " was cancelled", cause);
        } else {
            progress.phase(TransferPhase.FAILED);
            progress.failure(String.valueOf(cause.getMessage()));
            LOG.warn("move of {} failed (sources asked {})", name, asked, cause);
            thrown = cause instanceof MoveException move
                    ? move
                    : new MoveException(
                            Errors.KAFKA_STORAGE_ERROR,
                            false,
                            "move of " + name + " failed: " + cause.getMessage(),
                            cause);
        }
        if (undone != null) {
            thrown.addSuppressed(undone);
        }
        return thrown;
    }

    private static Exception add(Exception first, Exception next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
