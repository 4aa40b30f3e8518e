package io.sluice.broker.move;

import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.log.PartitionLog;
import io.sluice.log.ship.LogDirSpace;
import io.sluice.log.ship.StagedLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
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
    private final ByteRateLimiter limiter;
    private final ClientSecurity security;
    private final MoveCodec codec = new MoveCodec();
    private final TransferTeardown teardown;
    /** Chunk requests sent on the current connection and not answered yet, oldest first. */
    private final ArrayDeque<AskedChunk> inFlight = new ArrayDeque<>();

    private ChunkFaultHook faults = ChunkFaultHook.NONE;
    private long chunksReceived;
    /** The most a chunk request asks for: {@code sluice.move.chunk.bytes}, or less once a source cut a chunk short. */
    private int chunkLimit;

    private volatile boolean cancelled;
    private volatile Thread runner;
    private volatile MoveConnection connection;
    private StagedFileFlusher flusher;
    /** The transfer's staged writes (receive buffers and the write thread); set per bootstrap. */
    private StagedWrites writes;
    /** The page cache's lane when the target may write through it (else null); set per bootstrap. */
    private StagedWrites pageCacheWrites;
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
        this.limiter = limiter;
        this.security = security;
        this.teardown = new TransferTeardown(codec, config.socketTimeoutMs(), security);
        this.chunkLimit = config.chunkBytes();
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
     *                              every source asked to pin files is told to release them
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
        runner = Thread.currentThread();
        progress.started();
        Path partitionDir = emptyLocalLog.dir();
        try {
            checkCancelled(); // cancelled while queued: open no staging (a removed replica's directory may be gone)
            if (emptyLocalLog.logEndOffset() != emptyLocalLog.logStartOffset() || emptyLocalLog.sizeInBytes() != 0) {
                StagingArea.delete(partitionDir);
                progress.phase(TransferPhase.DONE);
                return emptyLocalLog.logEndOffset();
            }
            long bufferedBytes;
            try (StagingArea staging =
                            StagingArea.open(partitionDir, codec, emptyLocalLog.config(), config.directIoEnable());
                    StagedWrites writes = new StagedWrites(topic + "-" + partition, false, faults);
                    StagedWrites pageCacheWrites = !staging.durable() && config.pageCacheSpillEnable()
                            ? new StagedWrites(topic + "-" + partition + "-page-cache", false, faults)
                            : null;
                    StagedFileFlusher flusher = new StagedFileFlusher(topic + "-" + partition)) {
                this.flusher = flusher;
                this.writes = writes;
                this.pageCacheWrites = pageCacheWrites;
                transferId = staging.transferId();
                InetSocketAddress used = transfer(staging, topic, partition, sourcesInSyncFirst, leaderEpoch, progress);
                checkCancelled();
                progress.phase(TransferPhase.INSTALLING);
                flusher.awaitAll();
                StagedLog staged = staging.staged();
                emptyLocalLog.installStaged(staged, faults::movedIn);
                bufferedBytes =
                        writes.bufferedBytes() + (pageCacheWrites == null ? 0 : pageCacheWrites.bufferedBytes());
                teardown.completed(connection, used, staging.transferId()); // never throws
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
            if (!cancelled) {
                throw e;
            }
            throw failed(partitionDir, progress, e);
        } catch (MoveException | IOException | RuntimeException e) {
            if (!cancelled && Thread.currentThread().isInterrupted()) {
                InterruptedException interrupted = new InterruptedException(
                        "move of " + topic + "-" + partition + " interrupted; staging kept for the next start");
                interrupted.initCause(e);
                throw interrupted;
            }
            throw failed(partitionDir, progress, e);
        } finally {
            closeConnection();
            progress.ended();
            runner = null;
        }
    }

    private MoveException failed(Path partitionDir, TransferProgress progress, Exception cause) {
        return teardown.abandon(this::closeConnection, partitionDir, transferId, cancelled, progress, cause);
    }

    /**
     * Stops a running {@link #bootstrap} (from any thread): it closes its connection, tells the source to release its
     * pins (best effort; they expire otherwise), removes staging and throws; the log stays empty and usable.
     */
    public void cancel() {
        cancelled = true;
        closeConnection();
        Thread thread = runner;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Removes the staging left by a move no one will resume (the partition does not bootstrap now: it is not being
     * added any more, file transfer was switched off, its log is not empty); returns whether there was any.
     */
    public static boolean discardStaging(Path partitionDir) throws IOException {
        return StagingArea.delete(partitionDir);
    }

    /** Whether the log directory {@code logDir} can take a partition of {@code partitionBytes} plus the margin. */
    public static boolean hasRoom(Path logDir, long partitionBytes, MoveConfig config) throws IOException {
        return LogDirSpace.hasRoom(logDir, partitionBytes, config.freeSpaceMarginBytes());
    }

    /** Runs attempts until every file is staged and verified; returns the source that finished it. */
    private InetSocketAddress transfer(
            StagingArea staging,
            String topic,
            int partition,
            List<InetSocketAddress> sources,
            int leaderEpoch,
            TransferProgress progress)
            throws MoveException, InterruptedException {
        int sourceIndex = 0;
        int fruitlessAttempts = 0;
        int idleRounds = 0;
        Exception lastFailure = null;
        while (true) {
            checkCancelled();
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("move of " + topic + "-" + partition + " interrupted");
            }
            InetSocketAddress source = sources.get(sourceIndex);
            long verifiedBefore = progress.bytesVerified();
            long chunksBefore = progress.chunksVerified();
            try {
                attempt(staging, source, topic, partition, leaderEpoch, progress);
                return source;
            } catch (MoveException e) {
                if (!e.isRetriable() || cancelled) {
                    throw e;
                }
                lastFailure = e;
            } catch (IOException | MoveProtocolException e) {
                if (cancelled) {
                    throw new MoveException(Errors.REASSIGNMENT_IN_PROGRESS, false, "cancelled", e);
                }
                lastFailure = e;
            }
            StagedWriteException diskFailure = StagedWrites.failureBehind(lastFailure, writes, pageCacheWrites);
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
            StagingArea staging,
            InetSocketAddress source,
            String topic,
            int partition,
            int leaderEpoch,
            TransferProgress progress)
            throws MoveException, IOException {
        progress.phase(TransferPhase.LISTING);
        progress.source(source);
        chunkLimit = config.chunkBytes(); // the cap learnt from a source's short answers is that source's alone
        MoveConnection conn = new MoveConnection(source, config.socketTimeoutMs(), security);
        connection = conn;
        inFlight.clear();
        checkCancelled();
        conn.connect();
        checkCancelled(); // a cancel while connecting closed the connection before it was open
        teardown.asked(source);
        MoveSegmentList listing = conn.call(
                codec, new MoveOpenRequest(staging.transferId(), topic, partition, leaderEpoch), MoveSegmentList.class);
        if (listing.errorCode != Errors.NONE.code()) {
            Errors error = Errors.forCode(listing.errorCode);
            throw new MoveException(
                    error, isRetriable(error), "source " + source + " refused: " + error + ": " + listing.errorMessage);
        }
        listing.validate();
        long alreadyVerified = staging.adopt(listing);
        progress.totalBytes(listing.totalBytes());
        progress.alreadyVerified(alreadyVerified - progress.bytesVerified());
        StagedWrites disk = writes;
        schedule = pageCacheWrites == null
                ? ChunkSchedule.oneLane(staging.files())
                : ChunkSchedule.twoLanes(
                        staging.files(),
                        diskWindowBytes,
                        disk::unwrittenBytes,
                        disk::spillWhenBehind,
                        listing.totalBytes() * config.pageCacheSpillMaxPercent() / 100);
        copy(conn, staging, progress);
    }

    private static boolean isRetriable(Errors error) {
        return error != Errors.FENCED_LEADER_EPOCH && error != Errors.INVALID_REQUEST;
    }

    /**
     * Receives every file of {@link #schedule} from its last verified byte to its end, keeping up to
     * {@code sluice.move.chunks.in.flight} chunk requests outstanding, each for the file the schedule picks. A chunk
     * that fails its checksum is rolled back and asked for again once the answers already on their way are drained;
     * so is everything after a chunk the source cut shorter than asked (its {@code sluice.move.chunk.bytes} is
     * smaller: later requests then ask for that much).
     */
    private void copy(MoveConnection conn, StagingArea staging, TransferProgress progress)
            throws MoveException, IOException {
        long transferId = staging.transferId();
        int rejectedInRow = 0;
        while (!schedule.isComplete()) {
            checkCancelled();
            progress.phase(
                    schedule.segmentsLeft() ? TransferPhase.COPYING_SEGMENTS : TransferPhase.COPYING_PRODUCER_STATE);
            StagedFile next;
            while (inFlight.size() < config.chunksInFlight() && (next = schedule.next()) != null) {
                long from = schedule.askedUpTo(next);
                long throttled = MoveSource.throttledChunkBytes(limiter.bytesPerSecond());
                int want = (int) Math.min(Math.min(chunkLimit, throttled), next.expectedSize() - from);
                byte kind = next.isSegment() ? MoveMessages.FILE_SEGMENT : MoveMessages.FILE_PRODUCER_SNAPSHOT;
                MoveChunkRequest request = new MoveChunkRequest().set(transferId, kind, next.fileOffset(), from, want);
                conn.sendChunkRequest(codec, request);
                inFlight.add(new AskedChunk(request, next));
                schedule.asked(next, want);
            }
            if (inFlight.isEmpty()) {
                throw new IllegalStateException("nothing left to ask for, but " + progress + " is not complete");
            }
            AskedChunk asked = inFlight.remove();
            MoveChunkRequest request = asked.request();
            StagedFile file = asked.file();
            MoveChunkHeader header = conn.readChunkHeader(codec);
            if (header.errorCode != Errors.NONE.code()) {
                Errors error = Errors.forCode(header.errorCode);
                throw new MoveException(
                        error,
                        isRetriable(error),
                        "source " + conn.address() + " refused chunk " + request + ": " + error + ": "
                                + header.errorMessage);
            }
            header.validateAgainst(request);
            StagedWrites lane = schedule.laneOf(file) == ChunkSchedule.Lane.PAGE_CACHE ? pageCacheWrites : writes;
            if (!receiveChunk(conn, file, header, lane, progress)) {
                progress.rejected();
                file.rollBack();
                drainInFlight(conn);
                schedule.askAgainFromVerified();
                if (++rejectedInRow >= MoveConfig.MAX_REJECTED_CHUNKS_PER_SOURCE) {
                    throw new MoveException(
                            Errors.CORRUPT_MESSAGE,
                            true,
                            rejectedInRow + " chunks in a row from " + conn.address() + " failed their checksum");
                }
                continue;
            }
            rejectedInRow = 0;
            long before = file.verified();
            try {
                file.accept(header.length);
                progress.verified(header.length);
            } catch (MoveException e) {
                progress.unverified(before - file.verified());
                throw e;
            }
            if (file.isComplete() && file.isSegment()) {
                flusher.finish(file, staging.durable());
            }
            if (header.length < request.maxLength) {
                chunkLimit = header.length;
                drainInFlight(conn);
                schedule.askAgainFromVerified();
            }
        }
    }

    /** Lands one chunk's payload in {@code file}, checking it in flight; false when it failed its checksum. */
    private boolean receiveChunk(
            MoveConnection conn, StagedFile file, MoveChunkHeader header, StagedWrites lane, TransferProgress progress)
            throws MoveException, IOException {
        pauseNanos(limiter.reserveNanos(header.length));
        long position = file.verified();
        FileChannel channel = file.channel();
        file.startChunk();
        long chunkNumber = chunksReceived++;
        conn.receivePayload(position, new MoveConnection.PayloadSink() {
            @Override
            public ByteBuffer buffer() throws IOException {
                return lane.take();
            }

            @Override
            public void arrived(ByteBuffer bytes, long at) {
                faults.inFlight(bytes.duplicate(), at, chunkNumber);
                file.arrived(bytes, at);
            }

            @Override
            public void write(ByteBuffer buffer, long at) {
                file.writeLater(buffer, at, lane);
            }

            @Override
            public void landed(long at, long bytes) {
                progress.shipped(bytes, file.landed(at, bytes));
            }
        });
        if (faults != ChunkFaultHook.NONE) {
            file.awaitWrites();
            faults.afterChunkLanded(channel, position, header.length, chunkNumber);
        }
        return file.chunkCrc() == header.crc32c;
    }

    /**
     * Takes and drops the answers to every outstanding chunk request (they continue past a chunk that was not
     * accepted as asked).
     */
    private void drainInFlight(MoveConnection conn) throws IOException {
        while (!inFlight.isEmpty()) {
            inFlight.remove();
            MoveChunkHeader header = conn.readChunkHeader(codec);
            if (header.errorCode == Errors.NONE.code()) {
                conn.discardPayload();
            }
        }
    }

    private void checkCancelled() throws MoveException {
        if (cancelled) {
            throw new MoveException(Errors.REASSIGNMENT_IN_PROGRESS, false, "cancelled");
        }
    }

    private void pause(long ms) throws InterruptedException, MoveException {
        pauseNanos(ms * 1_000_000L);
        if (Thread.interrupted()) {
            throw new InterruptedException("move interrupted");
        }
    }

    private void pauseNanos(long nanos) throws MoveException {
        long deadline = System.nanoTime() + nanos;
        long left = nanos;
        while (left > 0 && !cancelled && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(left);
            left = deadline - System.nanoTime();
        }
        checkCancelled();
    }

    private void closeConnection() {
        MoveConnection conn = connection;
        if (conn != null) {
            conn.close();
        }
    }

    /** A chunk request on its way, and the file its answer lands in. */
    private record AskedChunk(MoveChunkRequest request, StagedFile file) {}
}
