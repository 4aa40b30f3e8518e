package io.sluice.broker.move;

import io.sluice.broker.interbroker.TimedChannel;
import io.sluice.codec.message.Message;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

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

/**
 * The target's dedicated connection to one source for one transfer, over a {@link TimedChannel} (every connect,
 * write and read bounded by a timeout, as {@code BrokerClient}'s). Request and response
 * headers go through small heap buffers; chunk payloads go socket → one reused direct buffer → staging file, never
 * through a heap array (FileChannel.transferFrom from a socket would do the same through 8 KiB JDK buffers).
 *
 * <p>Not thread-safe; one per transfer thread, except {@link #close()}, which any thread may call to break a
 * blocked call (cancel).
 */
final class MoveConnection implements AutoCloseable {
    private static final int INITIAL_HEADER_BYTES = 1024;
    /** Socket reads per chunk: 1 MiB chunks arrive in 4 runs, small enough to stay in L2 for the checksum. */
    private static final int PAYLOAD_BUFFER_BYTES = 256 * 1024;

    private final InetSocketAddress address;
    private final int timeoutMs;
    private final ByteBuffer responsePrefix = ByteBuffer.allocate(RESPONSE_HEADER_OFFSET);
    /** Payload bytes pass through it from socket to file; direct, so neither the read nor the write copies. */
    private final ByteBuffer payload = ByteBuffer.allocateDirect(PAYLOAD_BUFFER_BYTES);
    private ByteBuffer header = ByteBuffer.allocate(INITIAL_HEADER_BYTES);
    private volatile TimedChannel connection;
    private int correlationId;
    private int pendingPayload;

    MoveConnection(InetSocketAddress address, int timeoutMs) {
        this.address = address;
        this.timeoutMs = timeoutMs;
    }

    InetSocketAddress address() {
        return address;
    }

    void connect() throws IOException {
        connection = TimedChannel.connect(address, timeoutMs);
    }

    /** Sends {@code request} and returns its answer, which carries no payload. */
    <T extends Message> T call(MoveCodec codec, Message request, Class<T> type) throws IOException {
        send(codec, request);
        T answer = codec.decode(readHeader(), type, type.getSimpleName() + " from " + address);
        if (pendingPayload != 0) {
            throw new MoveProtocolException(type.getSimpleName() + " frame", "carries " + pendingPayload + " payload bytes");
        }
        return answer;
    }

    /**
     * Sends a chunk request and returns the header of the answer; when it carries no error its {@code length} payload
     * bytes must then be taken with {@link #receivePayload}.
     */
    MoveChunkHeader requestChunk(MoveCodec codec, MoveChunkRequest request) throws IOException {
        send(codec, request);
        MoveChunkHeader answer = codec.decode(readHeader(), MoveChunkHeader.class, "MoveChunkHeader from " + address);
        int expected = answer.errorCode == 0 ? answer.length : 0;
        if (pendingPayload != expected) {
            throw new MoveProtocolException("MoveChunkHeader.length", answer.length + " (error " + answer.errorCode
                    + ") but the frame carries " + pendingPayload + " payload bytes");
        }
        return answer;
    }

    /**
     * Lands the pending payload in {@code file} at {@code position} through this connection's direct buffer: each
     * run read from the socket is shown to {@code sink} (checksum, test faults) before it is written, so the chunk's
     * CRC-32C is computed in flight, with no read back and no heap copy.
     */
    void receivePayload(FileChannel file, long position, PayloadSink sink) throws IOException {
        int length = pendingPayload;
        long done = 0;
        TimedChannel timed = connection;
        SocketChannel channel = timed.channel();
        long deadline = timed.deadline();
        while (done < length) {
            payload.clear().limit((int) Math.min(payload.capacity(), length - done));
            int n = channel.read(payload);
            if (n < 0) {
                pendingPayload = length - (int) done;
                throw new EOFException("connection to " + address + " closed after " + done + " of " + length
                        + " payload bytes");
            }
            if (n == 0) {
                timed.await(SelectionKey.OP_READ, deadline, "reading from");
                continue;
            }
            deadline = timed.deadline();
            payload.flip();
            sink.arrived(payload.duplicate(), position + done);
            long at = position + done;
            while (payload.hasRemaining()) {
                at += file.write(payload, at);
            }
            sink.landed(position + done, n);
            done += n;
        }
        pendingPayload = 0;
    }

    /** Sees payload runs as they arrive and once they are in the file. */
    interface PayloadSink {
        /** {@code bytes} (a view: reading it does not consume the run) arrived for file position {@code position}. */
        void arrived(ByteBuffer bytes, long position) throws IOException;

        void landed(long position, long bytes);
    }

    private void send(MoveCodec codec, Message request) throws IOException {
        if (pendingPayload != 0) {
            throw new IllegalStateException(pendingPayload + " payload bytes of the last answer were not received");
        }
        ByteBuffer message = codec.encode(request);
        ByteBuffer frame = ByteBuffer.allocate(REQUEST_MESSAGE_OFFSET + message.remaining());
        frame.putInt(REQUEST_MESSAGE_OFFSET - SIZE_LENGTH + message.remaining()).putShort(API_KEY).putShort(VERSION)
                .putInt(++correlationId).put(message).flip();
        connection.writeFully(frame);
    }

    private ByteBuffer readHeader() throws IOException {
        TimedChannel timed = connection;
        long deadline = timed.deadline();
        responsePrefix.clear();
        timed.readFully(responsePrefix, deadline);
        int size = responsePrefix.getInt(0);
        int correlation = responsePrefix.getInt(RESPONSE_CORRELATION_ID_OFFSET);
        int headerLength = responsePrefix.getInt(HEADER_LENGTH_OFFSET);
        if (correlation != correlationId) {
            throw new MoveProtocolException("move response correlationId", correlation + " does not match " + correlationId);
        }
        checkResponseLengths(size, headerLength);
        if (header.capacity() < headerLength) {
            header = ByteBuffer.allocate(Math.min(MAX_RESPONSE_HEADER_BYTES, Math.max(headerLength, header.capacity() * 2)));
        }
        header.clear().limit(headerLength);
        timed.readFully(header, deadline);
        pendingPayload = size - CORRELATION_ID_LENGTH - HEADER_LENGTH_LENGTH - headerLength;
        return header.flip();
    }

    /** Checks a response's size and header length fields before anything is allocated for them. */
    static void checkResponseLengths(int size, int headerLength) {
        if (headerLength < 0 || headerLength > MAX_RESPONSE_HEADER_BYTES) {
            throw new MoveProtocolException("move response headerLength", headerLength + " outside [0, "
                    + MAX_RESPONSE_HEADER_BYTES + "]");
        }
        if (size < CORRELATION_ID_LENGTH + HEADER_LENGTH_LENGTH + headerLength) {
            throw new MoveProtocolException("move response size", size + " is below its header of " + headerLength
                    + " bytes");
        }
    }

    @Override
    public void close() {
        TimedChannel open = connection;
        if (open != null) {
            open.close();
        }
    }
}
