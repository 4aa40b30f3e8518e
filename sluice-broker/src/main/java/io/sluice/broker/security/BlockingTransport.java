package io.sluice.broker.security;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * Blocking reads and writes with a deadline over one non-blocking {@link SocketChannel} (waiting on its own
 * {@link Selector}), in plain text or through a client {@link SSLEngine}. Under TLS, a read into a buffer with room
 * for a whole TLS record decrypts straight into it; only a short tail goes through a small staging buffer.
 *
 * <p>Not thread-safe; one per connection, used by one thread at a time. {@link #close()} closes the channel and
 * selector.
 */
public final class BlockingTransport implements AutoCloseable {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SocketChannel channel;
    private final Selector selector;
    private final InetSocketAddress address;
    private final SSLEngine engine;
    private ByteBuffer netIn;
    private ByteBuffer netOut;
    private ByteBuffer appIn;
    /** When the SASL session of this connection should be renewed (a new connection); Long.MAX_VALUE for never. */
    private long renewAtNanos = Long.MAX_VALUE;

    BlockingTransport(SocketChannel channel, Selector selector, InetSocketAddress address, SSLEngine engine) {
        this.channel = channel;
        this.selector = selector;
        this.address = address;
        this.engine = engine;
        if (engine != null) {
            int packet = engine.getSession().getPacketBufferSize();
            netIn = ByteBuffer.allocateDirect(packet);
            netOut = ByteBuffer.allocateDirect(packet);
            appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    /**
     * Whether the broker's SASL session on this connection is near its end (85% of the session lifetime it gave,
     * KIP-368): the owner then opens a new connection before the broker would close this one.
     */
    public boolean sessionEnding() {
        return System.nanoTime() - renewAtNanos >= 0 && renewAtNanos != Long.MAX_VALUE;
    }

    void sessionLifetime(long lifetimeMs) {
        if (lifetimeMs > 0) {
            renewAtNanos = System.nanoTime() + lifetimeMs * 850_000L;
        }
    }

    /** Runs the TLS handshake (nothing to do in plain text). */
    void handshake(long deadlineNanos) throws IOException {
        if (engine == null) {
            return;
        }
        engine.beginHandshake();
        HandshakeStatus status = engine.getHandshakeStatus();
        while (status != HandshakeStatus.FINISHED && status != HandshakeStatus.NOT_HANDSHAKING) {
            switch (status) {
                case NEED_WRAP -> status = wrapAndSend(EMPTY, deadlineNanos).getHandshakeStatus();
                case NEED_TASK -> status = runTasks();
                default -> {
                    SSLEngineResult result = unwrapBuffered(deadlineNanos);
                    status = result.getHandshakeStatus();
                }
            }
        }
    }

    /** Writes all of {@code source} (encrypted under TLS). */
    public void writeFully(ByteBuffer source, long deadlineNanos) throws IOException {
        if (engine == null) {
            while (source.hasRemaining()) {
                if (channel.write(source) == 0) {
                    await(SelectionKey.OP_WRITE, deadlineNanos, "writing to");
                }
            }
            return;
        }
        while (source.hasRemaining()) {
            wrapAndSend(source, deadlineNanos);
        }
    }

    /** Fills {@code target} up to its limit (decrypting under TLS). */
    public void readFully(ByteBuffer target, long deadlineNanos) throws IOException {
        if (engine == null) {
            while (target.hasRemaining()) {
                int n = channel.read(target);
                if (n < 0) {
                    throw new EOFException("connection to " + address + " closed by the peer");
                }
                if (n == 0) {
                    await(SelectionKey.OP_READ, deadlineNanos, "reading from");
                }
            }
            return;
        }
        while (target.hasRemaining()) {
            if (appIn.position() > 0) {
                appIn.flip();
                int n = Math.min(appIn.remaining(), target.remaining());
                ByteBuffer slice = appIn.slice();
                slice.limit(n);
                target.put(slice);
                appIn.position(appIn.position() + n);
                appIn.compact();
                continue;
            }
            boolean direct = target.remaining() >= engine.getSession().getApplicationBufferSize();
            if (direct) {
                unwrap(target, deadlineNanos);
            } else {
                unwrapBuffered(deadlineNanos);
            }
            if (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
                wrapAndSend(EMPTY, deadlineNanos);
            }
        }
    }

    /** One unwrap into {@link #appIn}, growing it while the session's records do not fit. */
    private SSLEngineResult unwrapBuffered(long deadlineNanos) throws IOException {
        while (true) {
            SSLEngineResult result = unwrap(appIn, deadlineNanos);
            if (result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                return result;
            }
            appIn = grow(appIn, engine.getSession().getApplicationBufferSize());
        }
    }

    /**
     * One unwrap into {@code into}, reading from the socket first when no whole record is buffered; returns
     * BUFFER_OVERFLOW to the caller when the record does not fit.
     */
    private SSLEngineResult unwrap(ByteBuffer into, long deadlineNanos) throws IOException {
        while (true) {
            netIn.flip();
            SSLEngineResult result;
            try {
                result = engine.unwrap(netIn, into);
            } finally {
                netIn.compact();
            }
            switch (result.getStatus()) {
                case OK -> {
                    HandshakeStatus status = result.getHandshakeStatus();
                    if (status == HandshakeStatus.NEED_TASK) {
                        status = runTasks();
                    }
                    return result;
                }
                case BUFFER_UNDERFLOW -> {
                    if (!netIn.hasRemaining()) {
                        netIn = grow(netIn, engine.getSession().getPacketBufferSize());
                    }
                    fillNetIn(deadlineNanos);
                }
                case BUFFER_OVERFLOW -> {
                    return result;
                }
                default -> throw new EOFException("TLS connection to " + address + " closed by the peer");
            }
        }
    }

    private SSLEngineResult wrapAndSend(ByteBuffer source, long deadlineNanos) throws IOException {
        while (true) {
            netOut.clear();
            SSLEngineResult result = engine.wrap(source, netOut);
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                netOut = ByteBuffer.allocateDirect(netOut.capacity() * 2);
                continue;
            }
            if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                throw new SSLException("TLS connection to " + address + " is closed");
            }
            netOut.flip();
            while (netOut.hasRemaining()) {
                if (channel.write(netOut) == 0) {
                    await(SelectionKey.OP_WRITE, deadlineNanos, "writing to");
                }
            }
            return result;
        }
    }

    private void fillNetIn(long deadlineNanos) throws IOException {
        while (true) {
            int n = channel.read(netIn);
            if (n < 0) {
                throw new EOFException("connection to " + address + " closed by the peer during TLS");
            }
            if (n > 0) {
                return;
            }
            await(SelectionKey.OP_READ, deadlineNanos, "reading from");
        }
    }

    private HandshakeStatus runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
        return engine.getHandshakeStatus();
    }

    private static ByteBuffer grow(ByteBuffer buffer, int atLeast) {
        ByteBuffer bigger = buffer.isDirect()
                ? ByteBuffer.allocateDirect(Math.max(atLeast, buffer.capacity() * 2))
                : ByteBuffer.allocate(Math.max(atLeast, buffer.capacity() * 2));
        buffer.flip();
        bigger.put(buffer);
        return bigger;
    }

    private void await(int op, long deadlineNanos, String what) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException(what + " " + address + " interrupted");
        }
        long leftMs = (deadlineNanos - System.nanoTime()) / 1_000_000L;
        if (leftMs <= 0) {
            throw new SocketTimeoutException(what + " " + address + " timed out");
        }
        SelectionKey key = channel.register(selector, op);
        try {
            selector.select(leftMs);
        } finally {
            key.interestOps(0);
            selector.selectedKeys().clear();
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing left to do with it
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing: nothing left to do with it
        }
    }
}
