package io.sluice.broker.interbroker;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * A connection from this broker to another as a non-blocking socket driven by a private selector, so that every
 * connect, write and read waits with a bound and a thread interrupt ends the wait.
 *
 * <p>Not thread-safe; one per connection, used by one thread, except {@link #close()}, which any thread may call to
 * break a blocked call.
 */
public final class TimedChannel implements AutoCloseable {
    private final InetSocketAddress address;
    private final int timeoutMs;
    private final SocketChannel channel;
    private final Selector selector;

    private TimedChannel(InetSocketAddress address, int timeoutMs, SocketChannel channel, Selector selector) {
        this.address = address;
        this.timeoutMs = timeoutMs;
        this.channel = channel;
        this.selector = selector;
    }

    /** Connects to {@code address} (TCP_NODELAY) within {@code timeoutMs}, which also bounds every later wait. */
    public static TimedChannel connect(InetSocketAddress address, int timeoutMs) throws IOException {
        SocketChannel opened = SocketChannel.open();
        Selector waiter = Selector.open();
        TimedChannel timed = new TimedChannel(address, timeoutMs, opened, waiter);
        try {
            opened.configureBlocking(false);
            opened.setOption(StandardSocketOptions.TCP_NODELAY, true);
            opened.connect(address);
            long deadline = timed.deadline();
            while (!opened.finishConnect()) {
                timed.await(SelectionKey.OP_CONNECT, deadline, "connecting to");
            }
            return timed;
        } catch (IOException | RuntimeException e) {
            timed.close();
            throw e;
        }
    }

    public SocketChannel channel() {
        return channel;
    }

    public InetSocketAddress address() {
        return address;
    }

    public boolean isOpen() {
        return channel.isOpen();
    }

    /** The bound of a wait starting now. */
    public long deadline() {
        return System.nanoTime() + timeoutMs * 1_000_000L;
    }

    public void writeFully(ByteBuffer source) throws IOException {
        long deadline = deadline();
        while (source.hasRemaining()) {
            if (channel.write(source) == 0) {
                await(SelectionKey.OP_WRITE, deadline, "writing to");
            }
        }
    }

    public void readFully(ByteBuffer target, long deadline) throws IOException {
        while (target.hasRemaining()) {
            int n = channel.read(target);
            if (n < 0) {
                throw new EOFException("connection to " + address + " closed by the peer");
            }
            if (n == 0) {
                await(SelectionKey.OP_READ, deadline, "reading from");
            }
        }
    }

    /** Waits until {@code op} is ready, {@code deadline} passes (SocketTimeoutException) or the thread is interrupted. */
    public void await(int op, long deadline, String what) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException(what + " " + address + " interrupted");
        }
        long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
        if (leftMs <= 0) {
            throw new SocketTimeoutException(what + " " + address + " took over " + timeoutMs + " ms");
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
            selector.close();
        } catch (IOException ignored) {
            // closing: nothing left to do with it
        }
    }
}
