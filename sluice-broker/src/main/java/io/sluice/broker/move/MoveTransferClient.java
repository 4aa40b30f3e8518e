package io.sluice.broker.move;

import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.log.PartitionLog;
import io.sluice.log.ship.LogDirSpace;
import io.sluice.log.ship.StagedLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The target side of a partition move: fills an empty local log from an in-sync replica's closed segments, leader
 * epochs and producer snapshot, so that follower fetch only has to carry the tail. See the package documentation for
 * the protocol and how to wire it.
 *
 * <p>Not thread-safe: {@link #bootstrap} runs on one caller thread, once per instance; {@link #cancel()} may be
 * called from any thread.
 */
public final class MoveTransferClient {
    private static final Logger LOG = LoggerFactory.getLogger(MoveTransferClient.class);

    private final MoveConfig config;
    private final ClientSecurity security;
    private final MoveCodec codec = new MoveCodec();
    private final TransferTeardown teardown;
    private final CancelSignal cancel = new CancelSignal();
    private final ChunkPipeline chunks;

    private ChunkFaultHook faults = ChunkFaultHook.NONE;
    private volatile MoveConnection connection;
    /** The transfer's staging and the threads writing into it; set per bootstrap. */
    private TransferStaging staging;
    /** The disk lane's backlog below which it is asked for next (see {@link ChunkSchedule}). */
    private long diskWindowBytes;
    /** The last attempt's choice of lanes. */
    private ChunkSchedule schedule;

    private long transferId;

    /**
     * @param limiter bounds the receive rate ({@code follower.replication.throttled.rate} plugs in here)
     */
    public MoveTransferClient(MoveConfig config, ByteRateLimiter limiter) {
        this(config, limiter, ClientSecurity.plaintext());
    }

    /**
     * @param limiter  bounds the receive rate ({@code follower.replication.throttled.rate} plugs in here)
     * @param security how transfer connections are secured (the inter-broker listener's TLS and SASL)
     */
    public MoveTransferClient(MoveConfig config, ByteRateLimiter limiter, ClientSecurity security) {
        this.config = config;
        this.security = security;
        this.teardown = new TransferTeardown(codec, config.socketTimeoutMs(), security);
        this.chunks = new ChunkPipeline(config, limiter, codec, cancel);
        this.diskWindowBytes = StagedWrites.RING_BYTES + config.chunkBytes();
    }

    /** Sets the disk lane's window (tests: a small one sends most files through the page cache). */
    void diskWindowBytes(long bytes) {
        this.diskWindowBytes = bytes;
    }

    /** The last attempt's choice of lanes (tests). */
    ChunkSchedule schedule() {
        return schedule;
    }

    /** Installs a test fault hook. */
    void faults(ChunkFaultHook hook) {
        this.faults = hook;
        teardown.faults(hook);
        chunks.faults(hook);
    }

    /**
     * Fills {@code emptyLocalLog} from the first source that answers, switching source or reconnecting on failures
     * and resuming from the last verified chunk (also across a restart of this broker: call again with the reopened
     * log). Returns once the files are installed: the log then ends at the boundary with the epoch cache and
     * producer state of that offset, and follower fetch continues from its log end offset; every source asked to pin
     * files (the one that finished, and any failed over from) has been told the transfer is over, best effort (see
     * {@link TransferTeardown#completed}). A log that is not empty
     * is left alone (a previous install finished, or the replica already fetched): its staging is removed and its
     * log end offset returned.
     *
     * @param sourcesInSyncFirst brokers' Kafka listener addresses, in-sync replicas first (the leader too)
     * @param leaderEpoch        the partition's leader epoch as this broker knows it; sources with another epoch refuse
     *                           (-1: not checked)
     * @return the log end offset where follower fetch continues
     * @throws MoveException        when every source failed for {@code sluice.move.max.idle.rounds} rounds without a
     *                              verified byte, a source answered with a non-retriable error, a staged file could
     *                              not be written (at once, {@link Errors#KAFKA_STORAGE_ERROR}), or {@link #cancel()}
     *                              was called (then {@link MoveException#error()} is
     *                              {@link Errors#REASSIGNMENT_IN_PROGRESS}); in all these cases staging is removed and
     *                              every source asked to pin files is told to release them. A cancel does not wait
     *                              for the disk: staging whose write or finish the disk still holds up goes as soon
     *                              as that returns, and the next bootstrap of the partition waits for that first
     * @throws InterruptedException when the calling thread is interrupted (broker shutdown); staging is kept so the
     *                              next start resumes
     */
    public long bootstrap(
            PartitionLog emptyLocalLog,
            String topic,
            int partition,
            List<InetSocketAddress> sourcesInSyncFirst,
            int leaderEpoch,
            TransferProgress progress)
            throws MoveException, IOException, InterruptedException {
        if (sourcesInSyncFirst.isEmpty()) {
            throw new IllegalArgumentException("no source for " + topic + "-" + partition);
        }
        cancel.runner(Thread.currentThread());
        progress.started();
        Path partitionDir = emptyLocalLog.dir();
        try {
            cancel.check(); // cancelled while queued: open no staging (a removed replica's directory may be gone)
            CompletableFuture<Void> removed = StagingRemovals.pending(partitionDir);
            if (removed != null && !cancel.awaitUnlessCancelled(removed, 0)) { // a cancelled transfer's, disk stuck
                cancel.check();
                throw new InterruptedException("interrupted waiting for the removal of a cancelled move's staging");
            }
            if (emptyLocalLog.logEndOffset() != emptyLocalLog.logStartOffset() || emptyLocalLog.sizeInBytes() != 0) {
                StagingArea.delete(partitionDir);
                progress.phase(TransferPhase.DONE);
                return emptyLocalLog.logEndOffset();
            }
            long bufferedBytes;
            try (TransferStaging staging = TransferStaging.open(
                    partitionDir, emptyLocalLog.config(), config, codec, topic + "-" + partition, faults, cancel)) {
                this.staging = staging;
                transferId = staging.area().transferId();
                InetSocketAddress used = transfer(topic, partition, sourcesInSyncFirst, leaderEpoch, progress);
                cancel.check();
                progress.phase(TransferPhase.INSTALLING);
                staging.flusher().awaitAll();
                StagedLog staged = staging.area().staged(faults);
                cancel.check(); // the last point a cancel stops the install: the files are complete and finished
                emptyLocalLog.installStaged(staged, faults::movedIn);
                bufferedBytes = staging.bufferedBytes();
                teardown.completed(connection, used, transferId); // never throws
            }
            try {
                StagingArea.delete(partitionDir);
            } catch (IOException e) { // the files are in: the move is done, and the next follow removes what is left
                LOG.warn("moved {}-{} in, but its emptied staging was not removed", topic, partition, e);
            }
            progress.phase(TransferPhase.DONE);
            LOG.info(
                    "moved {}-{} in: log end offset {}, {}, {} bytes written through the page cache",
                    topic,
                    partition,
                    emptyLocalLog.logEndOffset(),
                    progress,
                    bufferedBytes);
            return emptyLocalLog.logEndOffset();
        } catch (InterruptedException e) {
            if (!cancel.isCancelled()) {
                throw e;
            }
            throw failed(partitionDir, progress, e);
        } catch (MoveException | IOException | RuntimeException e) {
            if (!cancel.isCancelled() && Thread.currentThread().isInterrupted()) {
                InterruptedException interrupted = new InterruptedException(
                        "move of " + topic + "-" + partition + " interrupted; staging kept for the next start");
                interrupted.initCause(e);
                throw interrupted;
            }
            throw failed(partitionDir, progress, e);
        } finally {
            closeConnection();
            progress.ended();
            cancel.runner(null);
        }
    }

    private MoveException failed(Path partitionDir, TransferProgress progress, Exception cause) {
        CompletableFuture<Void> idle = staging == null ? CompletableFuture.completedFuture(null) : staging.idle();
        return teardown.abandon(
                this::closeConnection, partitionDir, idle, transferId, cancel.isCancelled(), progress, cause);
    }

    /**
     * Stops a running {@link #bootstrap} (from any thread): it closes its connection, tells the source to release its
     * pins (best effort; they expire otherwise), removes staging and throws, without waiting for a write or a finish
     * the disk holds up (its staging goes once that returns); the log stays empty and usable. A cancel once the
     * install began no longer stops it.
     */
    public void cancel() {
        cancel.cancel();
        closeConnection();
    }

    /**
     * Removes the staging left by a move no one will resume (the partition does not bootstrap now: it is not being
     * added any more, file transfer was switched off, its log is not empty); returns whether there was any.
     */
    public static boolean discardStaging(Path partitionDir) throws IOException {
        if (StagingRemovals.pending(partitionDir) != null) {
            return true; // a cancelled transfer's staging, removed as soon as its disk returns a write it holds up
        }
        return StagingArea.delete(partitionDir);
    }

    /** Whether the log directory {@code logDir} can take a partition of {@code partitionBytes} plus the margin. */
    public static boolean hasRoom(Path logDir, long partitionBytes, MoveConfig config) throws IOException {
        return LogDirSpace.hasRoom(logDir, partitionBytes, config.freeSpaceMarginBytes());
    }

    /** Runs attempts until every file is staged and verified; returns the source that finished it. */
    private InetSocketAddress transfer(
            String topic, int partition, List<InetSocketAddress> sources, int leaderEpoch, TransferProgress progress)
            throws MoveException, InterruptedException {
        int sourceIndex = 0;
        int fruitlessAttempts = 0;
        int idleRounds = 0;
        Exception lastFailure = null;
        while (true) {
            cancel.check();
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("move of " + topic + "-" + partition + " interrupted");
            }
            InetSocketAddress source = sources.get(sourceIndex);
            long verifiedBefore = progress.bytesVerified();
            long chunksBefore = progress.chunksVerified();
            try {
                attempt(staging.area(), source, topic, partition, leaderEpoch, progress);
                return source;
            } catch (MoveException e) {
                if (!e.isRetriable() || cancel.isCancelled()) {
                    throw e;
                }
                lastFailure = e;
            } catch (IOException | MoveProtocolException e) {
                if (cancel.isCancelled()) {
                    throw new MoveException(Errors.REASSIGNMENT_IN_PROGRESS, false, "cancelled", e);
                }
                lastFailure = e;
            }
            StagedWriteException diskFailure = staging.writeFailureBehind(lastFailure);
            if (diskFailure != null) { // another source cannot help
                throw new MoveException(
                        Errors.KAFKA_STORAGE_ERROR,
                        false,
                        "staging " + topic + "-" + partition + " failed: " + diskFailure.getMessage(),
                        diskFailure);
            }
            closeConnection();
            LOG.info(
                    "move of {}-{} from {} stopped ({}); {}",
                    topic,
                    partition,
                    source,
                    lastFailure.getMessage(),
                    progress);
            progress.switchedSource();
            if (progress.chunksVerified() > chunksBefore && progress.bytesVerified() > verifiedBefore) {
                fruitlessAttempts = 0;
                idleRounds = 0;
                continue; // the source was delivering: a broken connection, resume from it
            }
            sourceIndex = (sourceIndex + 1) % sources.size();
            if (++fruitlessAttempts >= sources.size()) {
                fruitlessAttempts = 0;
                if (++idleRounds >= config.maxIdleRounds()) {
                    throw new MoveException(
                            lastFailure instanceof MoveException m ? m.error() : Errors.NETWORK_EXCEPTION,
                            false,
                            "no source of " + topic + "-" + partition + " delivered in " + idleRounds + " rounds over "
                                    + sources + ": " + lastFailure.getMessage(),
                            lastFailure);
                }
                pause(config.retryBackoffMs());
            }
        }
    }

    private void attempt(
            StagingArea area,
            InetSocketAddress source,
            String topic,
            int partition,
            int leaderEpoch,
            TransferProgress progress)
            throws MoveException, IOException {
        progress.phase(TransferPhase.LISTING);
        progress.source(source);
        chunks.newAttempt();
        MoveConnection conn = new MoveConnection(source, config.socketTimeoutMs(), security);
        connection = conn;
        cancel.check();
        conn.connect();
        cancel.check(); // a cancel while connecting closed the connection before it was open
        teardown.asked(source);
        MoveSegmentList listing = conn.call(
                codec, new MoveOpenRequest(area.transferId(), topic, partition, leaderEpoch), MoveSegmentList.class);
        if (listing.errorCode != Errors.NONE.code()) {
            Errors error = Errors.forCode(listing.errorCode);
            throw new MoveException(
                    error, isRetriable(error), "source " + source + " refused: " + error + ": " + listing.errorMessage);
        }
        listing.validate();
        long alreadyVerified = area.adopt(listing);
        progress.totalBytes(listing.totalBytes());
        progress.alreadyVerified(alreadyVerified - progress.bytesVerified());
        StagedWrites disk = staging.disk();
        schedule = staging.pageCache() == null
                ? ChunkSchedule.oneLane(area.files())
                : ChunkSchedule.twoLanes(
                        area.files(),
                        diskWindowBytes,
                        disk::unwrittenBytes,
                        disk::spillWhenBehind,
                        listing.totalBytes() * config.pageCacheSpillMaxPercent() / 100);
        chunks.copy(conn, area, schedule, disk, staging.pageCache(), staging.flusher(), progress);
    }

    static boolean isRetriable(Errors error) {
        return error != Errors.FENCED_LEADER_EPOCH && error != Errors.INVALID_REQUEST;
    }

    private void pause(long ms) throws InterruptedException, MoveException {
        cancel.pauseNanos(ms * 1_000_000L);
        if (Thread.interrupted()) {
            throw new InterruptedException("move interrupted");
        }
    }

    private void closeConnection() {
        MoveConnection conn = connection;
        if (conn != null) {
            conn.close();
        }
    }
}
