package io.sluice.cluster.zk;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on 127.0.0.1 between ZooKeeper clients and a ZooKeeper server that injects two faults. It can lose one
 * reply: armed with a marker, it forwards the next multi request whose bytes hold the marker, and when the server's
 * reply to it comes back it drops the connection instead of forwarding the reply. The server has applied the multi
 * and keeps the session; the client sees a connection loss, reconnects through the proxy and may send the multi
 * again. And it can hold one request (of an op type, holding a marker) until the test releases it, so that the test
 * changes ZooKeeper between a client's reads. Frames are
 * ZooKeeper's: a 4-byte length, then (after the connect handshake) a request header (xid, op type) or a reply header
 * (xid first).
 *
 * <p>Thread-safe: one accepting thread and two forwarding threads per connection; arm and read from any thread.
 */
public final class FaultyZkProxy implements AutoCloseable {
    /** ZooKeeper's op type of an exists request. */
    public static final int EXISTS_OP_TYPE = 3;

    private static final int MULTI_OP_TYPE = 14;
    private static final int NO_XID = Integer.MIN_VALUE;

    private final int targetPort;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicReference<byte[]> armed = new AtomicReference<>();
    private final AtomicInteger repliesDropped = new AtomicInteger();
    private final AtomicReference<HeldRequest> toHold = new AtomicReference<>();
    private volatile boolean closed;

    public FaultyZkProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptAll, "zk-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** The reply to the next multi request holding {@code marker} (UTF-8) is lost with its connection. */
    public void loseReplyToNextMultiHolding(String marker) {
        armed.set(marker.getBytes(StandardCharsets.UTF_8));
    }

    /** Holds the next request of {@code opType} holding {@code marker} (UTF-8) until it is released. */
    public HeldRequest holdNextRequest(int opType, String marker) {
        HeldRequest held = new HeldRequest(opType, marker.getBytes(StandardCharsets.UTF_8));
        toHold.set(held);
        return held;
    }

    /** A request the proxy holds back: arrived once the client sent it, forwarded once released. Thread-safe. */
    public static final class HeldRequest {
        private final int opType;
        private final byte[] marker;
        private final CountDownLatch arrived = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        private HeldRequest(int opType, byte[] marker) {
            this.opType = opType;
            this.marker = marker;
        }

        public boolean arrived() {
            return arrived.getCount() == 0;
        }

        public void release() {
            released.countDown();
        }
    }

    /** Replies lost so far. */
    public int repliesDropped() {
        return repliesDropped.get();
    }

    private void acceptAll() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
                sockets.add(client);
                sockets.add(server);
                Connection c = new Connection(client, server);
                start(c::forwardRequests, "zk-proxy-requests");
                start(c::forwardReplies, "zk-proxy-replies");
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("zk proxy: " + e);
                }
            }
        }
    }

    private static void start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    /** One client connection and its server connection. */
    private final class Connection {
        private final Socket client;
        private final Socket server;
        private volatile int replyToLose = NO_XID;

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void forwardRequests() {
            try (DataInputStream in = new DataInputStream(client.getInputStream());
                    DataOutputStream out = new DataOutputStream(server.getOutputStream())) {
                boolean handshake = true;
                while (true) {
                    byte[] frame = readFrame(in);
                    if (!handshake && frame.length >= 8) {
                        ByteBuffer b = ByteBuffer.wrap(frame);
                        byte[] marker = armed.get();
                        if (b.getInt(4) == MULTI_OP_TYPE
                                && marker != null
                                && contains(frame, marker)
                                && armed.compareAndSet(marker, null)) {
                            replyToLose = b.getInt(0);
                        }
                        HeldRequest held = toHold.get();
                        if (held != null
                                && b.getInt(4) == held.opType
                                && contains(frame, held.marker)
                                && toHold.compareAndSet(held, null)) {
                            held.arrived.countDown();
                            awaitRelease(held);
                        }
                    }
                    handshake = false;
                    writeFrame(out, frame);
                }
            } catch (IOException e) {
                closeBoth();
            }
        }

        void forwardReplies() {
            try (DataInputStream in = new DataInputStream(server.getInputStream());
                    DataOutputStream out = new DataOutputStream(client.getOutputStream())) {
                boolean handshake = true;
                while (true) {
                    byte[] frame = readFrame(in);
                    if (!handshake
                            && frame.length >= 4
                            && ByteBuffer.wrap(frame).getInt(0) == replyToLose) {
                        repliesDropped.incrementAndGet();
                        closeBoth();
                        return;
                    }
                    handshake = false;
                    writeFrame(out, frame);
                }
            } catch (IOException e) {
                closeBoth();
            }
        }

        private void closeBoth() {
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    private static void awaitRelease(HeldRequest held) throws IOException {
        try {
            if (!held.released.await(60, TimeUnit.SECONDS)) {
                throw new IOException("held request never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while holding a request", e);
        }
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            throw new EOFException("bad frame length " + length);
        }
        byte[] frame = new byte[length];
        in.readFully(frame);
        return frame;
    }

    private static void writeFrame(DataOutputStream out, byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        HeldRequest held = toHold.get();
        if (held != null) {
            held.release();
        }
        listener.close();
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
