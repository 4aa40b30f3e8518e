package io.sluice.broker.move;

import io.sluice.codec.message.Message;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Calls a {@link MoveSource} as its network layer does, without a network: each request encoded into a frame as a
 * target sends it, each answer's header decoded. One connection per instance, closed by {@link #closeConnection()}.
 * Not thread-safe; one per calling thread.
 */
public final class SourceCalls {
    private final MoveSource source;
    private final MoveCodec codec = new MoveCodec();
    private final Connection connection = new Connection();
    private int correlationId;

    public SourceCalls(MoveSource source) {
        this.source = source;
    }

    public MoveSegmentList open(long transferId, String topic, int partition, int leaderEpoch) {
        MoveAnswer answer =
                source.handle(connection, frame(new MoveOpenRequest(transferId, topic, partition, leaderEpoch)));
        return codec.decode(answer.header(), MoveSegmentList.class, "segment list");
    }

    /** The answer to a chunk request of segment {@code fileOffset}; its header through {@link #header}. */
    public MoveAnswer chunk(long transferId, long fileOffset, long position, int maxLength) {
        return source.handle(
                connection,
                frame(new MoveChunkRequest()
                        .set(transferId, MoveMessages.FILE_SEGMENT, fileOffset, position, maxLength)));
    }

    public MoveChunkHeader header(MoveAnswer answer) {
        return codec.decode(answer.header().duplicate(), MoveChunkHeader.class, "chunk header");
    }

    public void close(long transferId) {
        MoveAnswer answer = source.handle(connection, frame(new MoveCloseRequest(transferId, true)));
        codec.decode(answer.header(), MoveCloseResponse.class, "close response");
    }

    /** The connection goes away, as a target's broken or closed connection does. */
    public void closeConnection() {
        connection.close();
    }

    private ByteBuffer frame(Message request) {
        ByteBuffer message = codec.encode(request);
        ByteBuffer frame = ByteBuffer.allocate(
                MoveFrameDescriptor.inRequestBody(MoveFrameDescriptor.REQUEST_MESSAGE_OFFSET) + message.remaining());
        frame.putShort(MoveFrameDescriptor.API_KEY)
                .putShort(MoveFrameDescriptor.VERSION)
                .putInt(++correlationId)
                .put(message);
        return frame.flip();
    }

    /** A connection that is open until {@link #close()}. */
    private static final class Connection implements InboundMoveConnection {
        private final List<Runnable> whenClosed = new ArrayList<>();
        private boolean closed;

        @Override
        public synchronized void whenClosed(Runnable action) {
            if (closed) {
                action.run();
            } else {
                whenClosed.add(action);
            }
        }

        synchronized void close() {
            closed = true;
            whenClosed.forEach(Runnable::run);
            whenClosed.clear();
        }

        @Override
        public SocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 1);
        }
    }
}
