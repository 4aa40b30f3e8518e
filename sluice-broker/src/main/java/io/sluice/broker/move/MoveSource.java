package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFrameDescriptor.API_VERSION_OFFSET;
import static io.sluice.broker.move.MoveFrameDescriptor.REQUEST_CORRELATION_ID_OFFSET;
import static io.sluice.broker.move.MoveFrameDescriptor.REQUEST_MESSAGE_OFFSET;
import static io.sluice.broker.move.MoveFrameDescriptor.inRequestBody;

import io.sluice.broker.config.MoveConfig;
import io.sluice.codec.message.Message;
import io.sluice.log.epoch.EpochEntry;
import io.sluice.log.segment.BatchHeaderTable;
import io.sluice.log.ship.ClosedSegment;
import io.sluice.log.ship.SegmentPins;
import io.sluice.log.ship.ShippableLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source side of partition moves, the private API {@link MoveFrameDescriptor#API_KEY} on the Kafka listener:
 * lists and pins a hosted partition's closed segments per transfer, answers chunk requests with a codec-framed
 * {@link MoveChunkHeader} (CRC-32C of the chunk) followed by the file range, releases the pins of the segments the
 * target has received as it goes ({@link SourceSession}), and all of a transfer's pins when the target closes it, or
 * when no connection of it has been open for {@code sluice.move.pin.timeout.ms}
 * ({@link #expireAbandoned()}, run by the broker's timer). The network layer
 * ({@code io.sluice.broker.network.MoveSourceHandler}) hands it each request frame and writes its {@link MoveAnswer}.
 *
 * <p>Thread-safe: sessions live in a concurrent map; each connection's requests arrive one at a time on its
 * request thread; per-thread codec scratch, per-session checksum state under its own lock.
 */
public final class MoveSource implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MoveSource.class);

    private final MoveSourceLogs logs;
    private final MoveConfig config;
    private final PartitionLimiters limiters;
    private final LongSupplier clockMs;
    private final Map<Long, SourceSession> sessions = new ConcurrentHashMap<>();
    /** Taken by an open that starts a session, so that the cap is checked and the session added as one step. */
    private final Object opening = new Object();

    private final ThreadLocal<MoveCodec> codecs = ThreadLocal.withInitial(MoveCodec::new);

    /** The smallest chunk a throttle cuts an answer to: below it, per-chunk costs would dominate a slow move. */
    static final int MIN_THROTTLED_CHUNK_BYTES = 1024;

    public MoveSource(MoveSourceLogs logs, MoveConfig config, ByteRateLimiter limiter, LongSupplier clockMs) {
        this(logs, config, (topic, partition) -> limiter, clockMs);
    }

    /** The bound on what a partition's move sends, per partition (Kafka's leader throttle applies to some only). */
    @FunctionalInterface
    public interface PartitionLimiters {
        ByteRateLimiter of(String topic, int partition);
    }

    /**
     * @param limiters the send-rate bound of each partition's chunks ({@code leader.replication.throttled.rate} for
     *                 the partitions in {@code leader.replication.throttled.replicas})
     */
    public MoveSource(MoveSourceLogs logs, MoveConfig config, PartitionLimiters limiters, LongSupplier clockMs) {
        this.logs = logs;
        this.config = config;
        this.limiters = limiters;
        this.clockMs = clockMs;
    }

    /**
     * Answers one request frame (without its size prefix, the API key at its position 0; valid only during the call).
     *
     * @throws MoveProtocolException when the frame is malformed, to have the connection closed
     */
    public MoveAnswer handle(InboundMoveConnection connection, ByteBuffer frame) {
        int start = frame.position();
        if (frame.remaining() < inRequestBody(REQUEST_MESSAGE_OFFSET)) {
            throw new MoveProtocolException(
                    "move request", "of " + frame.remaining() + " bytes is shorter than its header");
        }
        short version = frame.getShort(start + inRequestBody(API_VERSION_OFFSET));
        if (version != MoveFrameDescriptor.VERSION) {
            throw new MoveProtocolException(
                    "move request apiVersion", version + " is not " + MoveFrameDescriptor.VERSION);
        }
        int correlationId = frame.getInt(start + inRequestBody(REQUEST_CORRELATION_ID_OFFSET));
        ByteBuffer body = frame.duplicate().position(start + inRequestBody(REQUEST_MESSAGE_OFFSET));
        MoveCodec codec = codecs.get();
        Message request = codec.decode(body, Message.class, "move request");
        if (request instanceof MoveOpenRequest open) {
            open.validate();
            return MoveAnswer.of(correlationId, codec.encode(open(connection, open)));
        } else if (request instanceof MoveChunkRequest chunk) {
            chunk.validate();
            return chunk(connection, correlationId, chunk, codec);
        } else if (request instanceof MoveCloseRequest close) {
            SourceSession session = sessions.remove(close.transferId);
            if (session != null) {
                release(session, close.completed ? "completed" : "cancelled");
            }
            return MoveAnswer.of(correlationId, codec.encode(new MoveCloseResponse()));
        } else {
            throw new MoveProtocolException(
                    "move request",
                    "is a " + MoveMessages.REGISTRY.name(request.typeId()) + ", which the source does not answer");
        }
    }

    private MoveSegmentList open(InboundMoveConnection connection, MoveOpenRequest request) {
        SourceSession session = sessions.get(request.transferId);
        if (session != null) {
            return rejoin(session, connection, request);
        }
        synchronized (opening) {
            session = sessions.get(request.transferId);
            return session != null ? rejoin(session, connection, request) : start(connection, request);
        }
    }

    /** A new session, under {@link #opening}: two opens at once never both take the last free place. */
    private MoveSegmentList start(InboundMoveConnection connection, MoveOpenRequest request) {
        if (sessions.size() >= config.maxConcurrentMoves()) {
            return error(
                    Errors.THROTTLING_QUOTA_EXCEEDED,
                    "already serving " + sessions.size() + " moves (sluice.move.max.concurrent.per.broker)");
        }
        MoveSourceLogs.Hosted hosted = logs.find(request.topic, request.partition);
        if (hosted == null) {
            return error(
                    Errors.NOT_LEADER_OR_FOLLOWER,
                    "this broker does not host " + request.topic + "-" + request.partition);
        }
        if (request.leaderEpoch >= 0 && request.leaderEpoch < hosted.leaderEpoch()) {
            return error(
                    Errors.FENCED_LEADER_EPOCH,
                    "leader epoch " + request.leaderEpoch + " is below " + hosted.leaderEpoch());
        }
        if (request.leaderEpoch > hosted.leaderEpoch()) {
            return error(
                    Errors.UNKNOWN_LEADER_EPOCH,
                    "leader epoch " + request.leaderEpoch + " is above " + hosted.leaderEpoch());
        }
        ShippableLog view;
        try {
            view = hosted.log().pinForShipping(hosted.highWatermark(), config.chunkBytes());
        } catch (IOException | IllegalStateException e) {
            return error(Errors.KAFKA_STORAGE_ERROR, "cannot list the segments: " + e.getMessage());
        }
        SourceSession session = new SourceSession(
                request.transferId,
                request.topic,
                request.partition,
                hosted.log(),
                view,
                listingOf(request.transferId, view),
                config.chunksInFlight());
        session.attach(connection, clockMs);
        sessions.put(request.transferId, session);
        LOG.info(
                "serving move {} of {}-{} to {}: {} segments, {} bytes, boundary {}",
                request.transferId,
                request.topic,
                request.partition,
                connection.remoteAddress(),
                view.segments().size(),
                view.totalBytes(),
                view.boundaryOffset());
        return session.listing;
    }

    /** A transfer opened again (the target reconnected): the same pins and listing, on one more connection. */
    private MoveSegmentList rejoin(SourceSession session, InboundMoveConnection connection, MoveOpenRequest request) {
        if (!session.topic.equals(request.topic) || session.partition != request.partition) {
            return error(
                    Errors.INVALID_REQUEST,
                    "transfer " + request.transferId + " is of " + session.topic + "-" + session.partition);
        }
        String gone = whyGone(session);
        if (gone != null) {
            end(session, gone);
            return error(Errors.NOT_LEADER_OR_FOLLOWER, gone);
        }
        session.attach(connection, clockMs);
        return session.listing;
    }

    private static MoveSegmentList listingOf(long transferId, ShippableLog view) {
        MoveSegmentList list = new MoveSegmentList();
        list.transferId = transferId;
        list.logStartOffset = view.logStartOffset();
        list.boundaryOffset = view.boundaryOffset();
        List<ClosedSegment> segments = view.segments();
        int n = segments.size();
        list.segmentBaseOffsets = new long[n];
        list.segmentLastOffsets = new long[n];
        list.segmentSizes = new int[n];
        for (int i = 0; i < n; i++) {
            list.segmentBaseOffsets[i] = segments.get(i).baseOffset();
            list.segmentLastOffsets[i] = segments.get(i).lastOffset();
            list.segmentSizes[i] = segments.get(i).sizeInBytes();
        }
        List<EpochEntry> epochs = view.epochs();
        list.epochs = new int[epochs.size()];
        list.epochStartOffsets = new long[epochs.size()];
        for (int i = 0; i < epochs.size(); i++) {
            list.epochs[i] = epochs.get(i).epoch();
            list.epochStartOffsets[i] = epochs.get(i).startOffset();
        }
        list.producerSnapshotOffset = view.producerSnapshotOffset();
        list.producerSnapshotSize = view.producerSnapshotSize();
        return list;
    }

    private static MoveSegmentList error(Errors error, String message) {
        MoveSegmentList list = new MoveSegmentList();
        list.errorCode = error.code();
        list.errorMessage = message;
        return list;
    }

    private MoveAnswer chunk(
            InboundMoveConnection connection, int correlationId, MoveChunkRequest request, MoveCodec codec) {
        MoveChunkHeader header = new MoveChunkHeader();
        header.transferId = request.transferId;
        header.fileKind = request.fileKind;
        header.fileOffset = request.fileOffset;
        header.position = request.position;
        SourceSession session = sessions.get(request.transferId);
        if (session == null) {
            return answerError(
                    correlationId,
                    codec,
                    header,
                    Errors.FETCH_SESSION_ID_NOT_FOUND,
                    "no transfer " + request.transferId + " here (source restarted, or its pins expired)");
        }
        session.attach(connection, clockMs);
        long requestNumber = session.asked(connection);
        FileChannel file = null;
        BatchHeaderTable headers = null;
        long size = 0;
        boolean segmentFile = request.fileKind == MoveMessages.FILE_SEGMENT;
        int segmentIndex = -1;
        if (segmentFile) {
            List<ClosedSegment> segments = session.view.segments();
            for (int i = 0; i < segments.size(); i++) {
                ClosedSegment segment = segments.get(i);
                if (segment.baseOffset() == request.fileOffset) {
                    file = segment.channel();
                    headers = segment.batchHeaders();
                    size = segment.sizeInBytes();
                    segmentIndex = i;
                }
            }
        } else if (session.view.producerSnapshotOffset() == request.fileOffset) {
            file = session.view.producerSnapshot();
            size = session.view.producerSnapshotSize();
        }
        if (file == null || request.position >= size) {
            return answerError(
                    correlationId,
                    codec,
                    header,
                    Errors.OFFSET_OUT_OF_RANGE,
                    "file " + request.fileKind
                            + "/" + request.fileOffset + " position " + request.position + " is not in transfer "
                            + request.transferId);
        }
        String gone = whyGone(session);
        if (gone != null) {
            end(session, gone);
            return answerError(correlationId, codec, header, Errors.NOT_LEADER_OR_FOLLOWER, gone);
        }
        if (!file.isOpen()) {
            return removedAfterAnswered(session, correlationId, codec, header);
        }
        ByteRateLimiter limiter = limiters.of(session.topic, session.partition);
        int length = (int) Math.min(
                Math.min(Math.min(request.maxLength, config.chunkBytes()), size - request.position),
                throttledChunkBytes(limiter.bytesPerSecond()));
        try (SegmentPins.Reading reading = session.view.readingUncut()) {
            if (reading == null) { // truncated below the boundary: the files no longer hold what was listed
                gone = whyGone(session);
                end(session, gone);
                return answerError(correlationId, codec, header, Errors.NOT_LEADER_OR_FOLLOWER, gone);
            }
            synchronized (session.checksum) {
                header.crc32c = segmentFile
                        ? session.checksum.of(file, request.position, length, size, headers)
                        : session.checksum.ofBytes(file, request.position, length);
            }
        } catch (IOException e) {
            if (!file.isOpen()) {
                return removedAfterAnswered(session, correlationId, codec, header);
            }
            return answerError(
                    correlationId,
                    codec,
                    header,
                    Errors.KAFKA_STORAGE_ERROR,
                    "cannot read file " + request.fileOffset + ": " + e);
        }
        gone = whyGone(session); // a truncation since the checksum read the file: the sendfile must not go out
        if (gone != null) {
            end(session, gone);
            return answerError(correlationId, codec, header, Errors.NOT_LEADER_OR_FOLLOWER, gone);
        }
        header.length = length;
        if (segmentIndex >= 0) {
            session.answered(connection, requestNumber, segmentIndex, request.position + length);
        }
        return new MoveAnswer(correlationId, codec.encode(header), file, request.position, length, limiter);
    }

    /**
     * The most one chunk answer carries under a throttle of {@code bytesPerSecond}: a second's worth (Kafka's
     * replication quota window), so an answer the throttle holds back waits about a second behind the one before it,
     * never longer than the target's read timeout, and a throttle changed mid-move takes effect within the chunks in
     * flight. A 16 MiB chunk at 200 KB/s would have held each answer 84 s, past {@code replica.socket.timeout.ms}: the
     * target timed out, reconnected and asked again, and every attempt added to the throttle's debt.
     */
    static long throttledChunkBytes(long bytesPerSecond) {
        return Math.max(MIN_THROTTLED_CHUNK_BYTES, bytesPerSecond);
    }

    private static MoveAnswer answerError(
            int correlationId, MoveCodec codec, MoveChunkHeader header, Errors error, String message) {
        header.errorCode = error.code();
        header.errorMessage = message;
        return MoveAnswer.of(correlationId, codec.encode(header));
    }

    /**
     * The answer to a chunk of a segment whose file is closed while the log is hosted and not cut: a segment the
     * target received to its end is no longer pinned, retention or a clean removed it and its delete delay passed, and
     * the target asks for it again (a chunk it read failed its checksum, or it lost its staging). The listing is out of date: the transfer ends, and the
     * target's next open gets one without that segment (the partition no longer holds it either). Answering from the
     * closed file instead failed every time and left the target reopening the same listing until it gave up.
     */
    private MoveAnswer removedAfterAnswered(
            SourceSession session, int correlationId, MoveCodec codec, MoveChunkHeader header) {
        String why = "segment " + header.fileOffset + " of transfer " + session.transferId
                + " was removed from the log after it was answered to its end";
        end(session, why);
        return answerError(correlationId, codec, header, Errors.OFFSET_OUT_OF_RANGE, why);
    }

    /**
     * Why {@code session} can ship nothing more, or null while it can: the partition left this broker (the broker was
     * removed from its replicas, or its log was replaced), or its log was truncated below the boundary (the listed
     * files no longer hold the listed batches: a truncated segment is appended to again).
     */
    private String whyGone(SourceSession session) {
        MoveSourceLogs.Hosted hosted = logs.find(session.topic, session.partition);
        if (hosted == null || hosted.log() != session.log || session.log.isClosed()) {
            return "this broker no longer hosts the log of " + session.topic + "-" + session.partition
                    + " that transfer " + session.transferId + " ships";
        }
        if (session.view.isCut()) {
            return "the log of " + session.topic + "-" + session.partition + " was truncated below the boundary "
                    + session.view.boundaryOffset() + " of transfer " + session.transferId;
        }
        return null;
    }

    /** Ends {@code session} at once (a target coming back gets a new listing or an error). */
    private void end(SourceSession session, String why) {
        if (sessions.remove(session.transferId, session)) {
            release(session, "ended: " + why);
        }
    }

    /**
     * Releases the pins of transfers with no open connection for {@code sluice.move.pin.timeout.ms}.
     *
     * @return how many were released
     */
    public int expireAbandoned() {
        long now = clockMs.getAsLong();
        int released = 0;
        for (SourceSession session : sessions.values()) {
            if (session.connections.isEmpty()
                    && now - session.detachedAtMs >= config.pinTimeoutMs()
                    && sessions.remove(session.transferId, session)) {
                release(session, "abandoned (no connection for " + config.pinTimeoutMs() + " ms)");
                released++;
            }
        }
        return released;
    }

    /** SO_SNDBUF for a connection that answers chunk requests ({@code sluice.move.socket.send.buffer.bytes}; -1: keep). */
    public int socketSendBufferBytes() {
        return config.socketSendBufferBytes();
    }

    /** Transfers currently served (pins held). */
    public int activeTransfers() {
        return sessions.size();
    }

    private static void release(SourceSession session, String why) {
        try {
            session.view.close();
        } catch (IOException e) {
            LOG.warn("closing the producer snapshot of move {} failed", session.transferId, e);
        }
        long fromTables;
        long headersRead;
        synchronized (session.checksum) {
            fromTables = session.checksum.rangesFromTable();
            headersRead = session.checksum.headersRead();
        }
        LOG.info(
                "move {} of {}-{} {}; pins released (chunk checksums: {} from batch header tables, {} batch headers read)",
                session.transferId,
                session.topic,
                session.partition,
                why,
                fromTables,
                headersRead);
    }

    /** Releases every transfer's pins. */
    @Override
    public void close() {
        for (SourceSession session : sessions.values()) {
            if (sessions.remove(session.transferId, session)) {
                release(session, "stopped (broker closing)");
            }
        }
    }
}
