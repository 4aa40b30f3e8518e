package io.sluice.broker.move;

import io.sluice.broker.security.ClientSecurity;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a transfer. One that installed its files tells every source it asked to pin files that it is over
 * ({@link #completed}): the one that finished it on the transfer's connection, the ones it left earlier (it failed
 * over from them) on a connection each. One that stops without installing ({@link #abandon}): closes its connection,
 * removes its staging, tells every source it asked to release its pins and records in its progress whether it was
 * cancelled or failed; staging whose disk still holds a write or a finish of a cancelled transfer up goes as soon as
 * that returns ({@link StagingRemovals}), without holding the transfer back. Telling a source is best effort, bounded in time per source, and never fails the transfer:
 * pins of a source that cannot be told expire after {@code sluice.move.pin.timeout.ms}. Each step is tried even when an earlier one failed; a step that failed is logged and added to
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
     * The transfer {@code transferId} installed its files, the last ones from {@code finishedBy}: closes it there over
     * {@code connection} (the transfer's own, when still open) and at every other source it asked on a connection of
     * its own, so none of them keeps its segments pinned until the pins expire. The other sources are told on a
     * daemon thread of their own: one paused or unreachable would otherwise hold the new replica's follow back by a
     * connect and read timeout each. Never throws.
     */
    void completed(MoveConnection connection, InetSocketAddress finishedBy, long transferId) {
        boolean toldFinisher = SourcePins.closeAt(connection, codec, finishedBy, transferId, true);
        List<InetSocketAddress> toTell = new ArrayList<>();
        for (InetSocketAddress source : asked) {
            if (!source.equals(finishedBy) || !toldFinisher) {
                toTell.add(source);
            }
        }
        if (toTell.isEmpty()) {
            return;
        }
        Thread telling = new Thread(
                () -> {
                    for (InetSocketAddress source : toTell) {
                        SourcePins.releaseAt(
                                source, transferId, source.equals(finishedBy), codec, socketTimeoutMs, security);
                    }
                },
                "sluice-move-release-" + transferId);
        telling.setDaemon(true);
        telling.start();
    }

    /**
     * Undoes the transfer {@code transferId} (0: none was opened) into {@code partitionDir} after {@code cause};
     * returns what the transfer throws.
     *
     * @param closeConnection closes the transfer's connection
     * @param stagingIdle     completes once no task writes into the staging any more and its files are closed
     *                        ({@link TransferStaging#idle()}; complete when there was none)
     * @param cancelled       whether the transfer was cancelled rather than failed
     */
    MoveException abandon(
            Runnable closeConnection,
            Path partitionDir,
            CompletableFuture<Void> stagingIdle,
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
        if (stagingIdle.isDone()) {
            try {
                removeStaging(partitionDir);
            } catch (IOException | RuntimeException e) {
                undone = add(undone, e);
                LOG.warn("move of {}: staging not removed; it is when the partition next follows", name, e);
            }
        } else {
            LOG.warn("move of {}: the disk holds a staged write up; staging goes once it returns", name);
            StagingRemovals.removeWhen(stagingIdle, partitionDir, () -> removeStaging(partitionDir));
        }
        if (transferId != 0) {
            for (InetSocketAddress source : asked) {
                SourcePins.releaseAt(source, transferId, false, codec, socketTimeoutMs, security); // never throws
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

    private void removeStaging(Path partitionDir) throws IOException {
        faults.beforeStagingRemoved(StagingArea.dirOf(partitionDir));
        StagingArea.delete(partitionDir);
    }

    private static Exception add(Exception first, Exception next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
