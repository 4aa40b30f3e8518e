package io.sluice.testkit;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * A plain TCP connection to a broker for bad-input tests: sends arbitrary bytes or size-prefixed frames and reads
 * response frames with bounded waits and a bounded frame size, so a misbehaving broker fails the test instead of
 * hanging it or exhausting its heap.
 *
 * <p>Not thread-safe; one per test connection.
 */
public final class RawKafkaSocket implements AutoCloseable {

    /** Default bound on every blocking read. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(15);

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final int DISCARD_CHUNK = 8 * 1024;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private RawKafkaSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code "host:port"}; every later read waits at most {@code readTimeout}. */
    public static RawKafkaSocket connect(String bootstrap, Duration readTimeout) throws IOException {
        int colon = bootstrap.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("bootstrap must be host:port, was '" + bootstrap + "'");
        }
        Socket socket = new Socket();
        try {
            socket.connect(
                    new InetSocketAddress(
                            bootstrap.substring(0, colon), Integer.parseInt(bootstrap.substring(colon + 1))),
                    (int) CONNECT_TIMEOUT.toMillis());
            socket.setSoTimeout((int) readTimeout.toMillis());
            socket.setTcpNoDelay(true);
            return new RawKafkaSocket(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    public static RawKafkaSocket connect(String bootstrap) throws IOException {
        return connect(bootstrap, DEFAULT_READ_TIMEOUT);
    }

    /** Writes {@code bytes} exactly as given (no size prefix). */
    public void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Writes a size prefix equal to {@code payload.remaining()}, then the payload. */
    public void sendFrame(ByteBuffer payload) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(KafkaFrameDescriptor.SIZE_LENGTH + payload.remaining());
        frame.putInt(KafkaFrameDescriptor.SIZE_OFFSET, payload.remaining());
        frame.position(KafkaFrameDescriptor.SIZE_LENGTH);
        frame.put(payload.duplicate());
        sendRaw(frame.array());
    }

    /** Writes a size prefix that claims {@code declaredSize} bytes follow, then {@code body} (which may be shorter). */
    public void sendDeclaredFrame(int declaredSize, byte[] body) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(KafkaFrameDescriptor.SIZE_LENGTH + body.length);
        frame.putInt(KafkaFrameDescriptor.SIZE_OFFSET, declaredSize);
        frame.position(KafkaFrameDescriptor.SIZE_LENGTH);
        frame.put(body);
        sendRaw(frame.array());
    }

    /** Half-closes the connection: the broker sees end of stream, responses can still be read. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /**
     * Reads one response frame and returns its payload (everything after the size prefix).
     *
     * @throws EOFException           if the broker closed the connection
     * @throws SocketTimeoutException if nothing arrived within the read timeout
     * @throws IOException            if the frame's size is negative or above {@code maxFrameBytes}
     */
    public ByteBuffer readFrame(int maxFrameBytes) throws IOException {
        int size = in.readInt();
        if (size < 0 || size > maxFrameBytes) {
            throw new IOException("response frame size " + size + " outside [0, " + maxFrameBytes + "]");
        }
        byte[] payload = new byte[size];
        in.readFully(payload);
        return ByteBuffer.wrap(payload);
    }

    /**
     * Waits until the broker closes the connection (end of stream or reset), discarding what it sends meanwhile.
     *
     * @return true if it closed within {@code timeout}, false if it was still open
     */
    public boolean awaitClosedByPeer(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] discard = new byte[DISCARD_CHUNK];
        InputStream raw = socket.getInputStream();
        int originalTimeout = socket.getSoTimeout();
        try {
            while (System.nanoTime() < deadline) {
                long remainingMillis = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                socket.setSoTimeout((int) Math.min(remainingMillis, Integer.MAX_VALUE));
                try {
                    if (raw.read(discard) == -1) {
                        return true;
                    }
                } catch (SocketTimeoutException e) {
                    return false;
                } catch (SocketException e) {
                    return true;
                }
            }
            return false;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(originalTimeout);
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
