package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFrameDescriptor.API_KEY;
import static io.sluice.broker.move.MoveFrameDescriptor.CORRELATION_ID_LENGTH;
import static io.sluice.broker.move.MoveFrameDescriptor.HEADER_LENGTH_LENGTH;
import static io.sluice.broker.move.MoveFrameDescriptor.HEADER_LENGTH_OFFSET;
import static io.sluice.broker.move.MoveFrameDescriptor.MAX_RESPONSE_HEADER_BYTES;
import static io.sluice.broker.move.MoveFrameDescriptor.REQUEST_MESSAGE_OFFSET;
import static io.sluice.broker.move.MoveFrameDescriptor.RESPONSE_CORRELATION_ID_OFFSET;
import static io.sluice.broker.move.MoveFrameDescriptor.RESPONSE_HEADER_OFFSET;
import static io.sluice.broker.move.MoveFrameDescriptor.SIZE_LENGTH;
import static io.sluice.broker.move.MoveFrameDescriptor.VERSION;

import io.sluice.broker.security.BlockingTransport;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.codec.message.Message;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The target's dedicated connection to one source for one transfer, opened like {@code BrokerClient}'s through the
 * inter-broker listener's {@link ClientSecurity} (TLS, SASL login), every connect, write and read bounded by a timeout. Chunk requests may be pipelined (answers come in
 * request order); other requests are sent alone. Request and response
 * headers go through small heap buffers; chunk payloads go socket → one reused direct buffer → staging file, never
 * through a heap array (FileChannel.transferFrom from a socket would do the same through 8 KiB JDK buffers); under
 * TLS the transport decrypts straight into that buffer.
 *
 * <p>Not thread-safe; one per transfer thread, except {@link #close()}, which any thread may call to break a
 * blocked call (cancel).
 */
final class MoveConnection implements AutoCloseable {
    private static final int INITIAL_HEADER_BYTES = 1024;
    /** The client id of the SASL login requests. */
    private static final String CLIENT_ID = "sluice-move";
    /** Bytes per socket read of a payload: each run is checked while it is still in the cache. */
    private static final int PAYLOAD_RUN_BYTES = 256 * 1024;

    private final InetSocketAddress address;
    private final int timeoutMs;
    private final ClientSecurity security;
    private final ByteBuffer responsePrefix = ByteBuffer.allocate(RESPONSE_HEADER_OFFSET);
    /** Payload that is dropped unread ({@link #discardPayload}) passes through it. */
    private final ByteBuffer payload = ByteBuffer.allocateDirect(PAYLOAD_RUN_BYTES);

    private ByteBuffer header = ByteBuffer.allocate(INITIAL_HEADER_BYTES);
    private volatile BlockingTransport connection;
    /** The correlation id of the last request sent, and of the last one whose answer was read. */
    private int correlationId;

    private int answeredCorrelationId;
    private int pendingPayload;

    MoveConnection(InetSocketAddress address, int timeoutMs, ClientSecurity security) {
        this.address = address;
        this.timeoutMs = timeoutMs;
        this.security = security;
    }

    InetSocketAddress address() {
        return address;
    }

    void connect() throws IOException {
        connection = security.connect(address, timeoutMs, CLIENT_ID);
    }

    /** The bound of a wait starting now. */
    private long deadline() {
        return System.nanoTime() + timeoutMs * 1_000_000L;
    }

    /** Sends {@code request} and returns its answer, which carries no payload. */
    <T extends Message> T call(MoveCodec codec, Message request, Class<T> type) throws IOException {
        send(codec, request, true);
        T answer = codec.decode(readHeader(++answeredCorrelationId), type, type.getSimpleName() + " from " + address);
        if (pendingPayload != 0) {
            throw new MoveProtocolException(
                    type.getSimpleName() + " frame", "carries " + pendingPayload + " payload bytes");
        }
        return answer;
    }

    /**
     * Sends a chunk request without waiting for its answer: answers come back in request order, each taken with
     * {@link #readChunkHeader} and, when it carries no error, its payload with {@link #receivePayload} or
     * {@link #discardPayload}.
     */
    void sendChunkRequest(MoveCodec codec, MoveChunkRequest request) throws IOException {
        send(codec, request, false);
    }

    /** The header of the oldest unanswered chunk request's answer. */
    MoveChunkHeader readChunkHeader(MoveCodec codec) throws IOException {
        MoveChunkHeader answer = codec.decode(
                readHeader(++answeredCorrelationId), MoveChunkHeader.class, "MoveChunkHeader from " + address);
        int expected = answer.errorCode == 0 ? answer.length : 0;
        if (pendingPayload != expected) {
            throw new MoveProtocolException(
                    "MoveChunkHeader.length",
                    answer.length + " (error " + answer.errorCode + ") but the frame carries " + pendingPayload
                            + " payload bytes");
        }
        return answer;
    }

    /** Reads the pending payload and drops it (the answer to a request overtaken by a rejected chunk). */
    void discardPayload() throws IOException {
        BlockingTransport transport = connection;
        while (pendingPayload > 0) {
            payload.clear().limit(Math.min(payload.capacity(), pendingPayload));
            transport.readFully(payload, deadline());
            pendingPayload -= payload.position();
        }
    }

    /**
     * Lands the pending payload at file position {@code position}: read from the socket into the buffers
     * {@code sink} gives, one run of at most {@link #PAYLOAD_RUN_BYTES} at a time, each run shown to {@code sink}
     * (checksum, batch check, test faults) as it arrives, each full buffer handed back to {@code sink} to be written,
     * so the chunk's CRC-32C is computed in flight, with no read back and no heap copy.
     */
    void receivePayload(long position, PayloadSink sink) throws IOException {
        int length = pendingPayload;
        BlockingTransport transport = connection;
        long done = 0;
        try {
            while (done < length) {
                ByteBuffer buffer = sink.buffer();
                int n = (int) Math.min(buffer.capacity(), length - done);
                int filled = 0;
                while (filled < n) {
                    int run = Math.min(PAYLOAD_RUN_BYTES, n - filled);
                    buffer.limit(filled + run).position(filled);
                    transport.readFully(buffer, deadline());
                    sink.arrived(buffer.slice(filled, run), position + done + filled);
                    filled += run;
                }
                buffer.limit(n).position(0);
                sink.write(buffer, position + done);
                sink.landed(position + done, n);
                done += n;
            }
        } catch (IOException e) {
            pendingPayload = length - (int) done;
            throw new IOException(
                    "connection to " + address + " broke after " + done + " of " + length + " payload bytes: "
                            + e.getMessage(),
                    e);
        }
        pendingPayload = 0;
    }

    /** Sees payload runs as they arrive and once they are in the file. */
    interface PayloadSink {
        /** An empty buffer for the next bytes of the payload (block-aligned and direct, so writes may skip the page cache). */
        ByteBuffer buffer() throws IOException;

        /** {@code bytes} (a view: reading it does not consume the run) arrived for file position {@code position}. */
        void arrived(ByteBuffer bytes, long position) throws IOException;

        /** Writes {@code buffer} (from {@link #buffer()}, its runs shown to {@link #arrived}) at {@code position}. */
        void write(ByteBuffer buffer, long position) throws IOException;

        void landed(long position, long bytes);
    }

    private void send(MoveCodec codec, Message request, boolean alone) throws IOException {
        if (pendingPayload != 0) {
            throw new IllegalStateException(pendingPayload + " payload bytes of the last answer were not received");
        }
        if (alone && answeredCorrelationId != correlationId) {
            throw new IllegalStateException((correlationId - answeredCorrelationId) + " chunk answers are outstanding");
        }
        ByteBuffer message = codec.encode(request);
        ByteBuffer frame = ByteBuffer.allocate(REQUEST_MESSAGE_OFFSET + message.remaining());
        frame.putInt(REQUEST_MESSAGE_OFFSET - SIZE_LENGTH + message.remaining())
                .putShort(API_KEY)
                .putShort(VERSION)
                .putInt(++correlationId)
                .put(message)
                .flip();
        connection.writeFully(frame, deadline());
    }

    /** Reads the size, correlation id and header of the answer that must carry {@code expectedCorrelationId}. */
    private ByteBuffer readHeader(int expectedCorrelationId) throws IOException {
        BlockingTransport transport = connection;
        long deadline = deadline();
        responsePrefix.clear();
        transport.readFully(responsePrefix, deadline);
        int size = responsePrefix.getInt(0);
        int correlation = responsePrefix.getInt(RESPONSE_CORRELATION_ID_OFFSET);
        int headerLength = responsePrefix.getInt(HEADER_LENGTH_OFFSET);
        if (correlation != expectedCorrelationId) {
            throw new MoveProtocolException(
                    "move response correlationId", correlation + " does not match " + expectedCorrelationId);
        }
        checkResponseLengths(size, headerLength);
        if (header.capacity() < headerLength) {
            header = ByteBuffer.allocate(
                    Math.min(MAX_RESPONSE_HEADER_BYTES, Math.max(headerLength, header.capacity() * 2)));
        }
        header.clear().limit(headerLength);
        transport.readFully(header, deadline);
        pendingPayload = size - CORRELATION_ID_LENGTH - HEADER_LENGTH_LENGTH - headerLength;
        return header.flip();
    }

    /** Checks a response's size and header length fields before anything is allocated for them. */
    static void checkResponseLengths(int size, int headerLength) {
        if (headerLength < 0 || headerLength > MAX_RESPONSE_HEADER_BYTES) {
            throw new MoveProtocolException(
                    "move response headerLength", headerLength + " outside [0, " + MAX_RESPONSE_HEADER_BYTES + "]");
        }
        if (size < CORRELATION_ID_LENGTH + HEADER_LENGTH_LENGTH + headerLength) {
            throw new MoveProtocolException(
                    "move response size", size + " is below its header of " + headerLength + " bytes");
        }
    }

    @Override
    public void close() {
        BlockingTransport open = connection;
        if (open != null) {
            open.close();
        }
    }
}
