package io.sluice.broker.move;

import io.sluice.broker.config.MoveConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import org.apache.kafka.common.protocol.Errors;

/**
 * The chunk requests of one transfer attempt on its connection: keeps up to {@code sluice.move.chunks.in.flight}
 * outstanding, each for the file the attempt's {@link ChunkSchedule} picks, lands each answer's payload in its staged
 * file through the lane the schedule chose, checks it in flight and accepts it or asks for it again.
 *
 * <p>Not thread-safe; one per {@link MoveTransferClient}, used by its transfer thread.
 */
final class ChunkPipeline {
    private final MoveConfig config;
    private final ByteRateLimiter limiter;
    private final MoveCodec codec;
    private final CancelSignal cancel;
    /** Chunk requests sent on the current connection and not answered yet, oldest first. */
    private final ArrayDeque<AskedChunk> inFlight = new ArrayDeque<>();

    private ChunkFaultHook faults = ChunkFaultHook.NONE;
    private long chunksReceived;
    /** The most a chunk request asks for: {@code sluice.move.chunk.bytes}, or less once a source cut a chunk short. */
    private int chunkLimit;

    /** @param limiter bounds the receive rate ({@code follower.replication.throttled.rate} plugs in here) */
    ChunkPipeline(MoveConfig config, ByteRateLimiter limiter, MoveCodec codec, CancelSignal cancel) {
        this.config = config;
        this.limiter = limiter;
        this.codec = codec;
        this.cancel = cancel;
        this.chunkLimit = config.chunkBytes();
    }

    /** Installs a test fault hook. */
    void faults(ChunkFaultHook hook) {
        this.faults = hook;
    }

    /**
     * A new attempt on a new connection: nothing is outstanding, and the cap learnt from a source's short answers is
     * forgotten (it was that source's alone).
     */
    void newAttempt() {
        chunkLimit = config.chunkBytes();
        inFlight.clear();
    }

    /**
     * Receives every file of {@code schedule} from its last verified byte to its end, keeping up to
     * {@code sluice.move.chunks.in.flight} chunk requests outstanding, each for the file the schedule picks. A chunk
     * that fails its checksum is rolled back and asked for again once the answers already on their way are drained;
     * so is everything after a chunk the source cut shorter than asked (its {@code sluice.move.chunk.bytes} is
     * smaller: later requests then ask for that much). Each completed segment is handed to {@code flusher}.
     *
     * @param disk      the disk's lane
     * @param pageCache the page cache's lane (null: the schedule has one lane)
     */
    void copy(
            MoveConnection conn,
            StagingArea staging,
            ChunkSchedule schedule,
            StagedWrites disk,
            StagedWrites pageCache,
            StagedFileFlusher flusher,
            TransferProgress progress)
            throws MoveException, IOException {
        long transferId = staging.transferId();
        int rejectedInRow = 0;
        while (!schedule.isComplete()) {
            cancel.check();
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
                        MoveTransferClient.isRetriable(error),
                        "source " + conn.address() + " refused chunk " + request + ": " + error + ": "
                                + header.errorMessage);
            }
            header.validateAgainst(request);
            StagedWrites lane = schedule.laneOf(file) == ChunkSchedule.Lane.PAGE_CACHE ? pageCache : disk;
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
        cancel.pauseNanos(limiter.reserveNanos(header.length));
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

    /** A chunk request on its way, and the file its answer lands in. */
    private record AskedChunk(MoveChunkRequest request, StagedFile file) {}
}
