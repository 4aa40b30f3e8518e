package io.sluice.broker.move;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy that can break a connection once: after {@code cutAfter} bytes from the upstream (source)
 * side it forwards exactly that many, then closes both sockets; later connections pass through untouched.
 * Thread-safe; one accept thread and two pump threads per connection, all daemons.
 */
final class CuttingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress upstream;
    private final AtomicLong cutAfter = new AtomicLong(-1);
    private final AtomicLong forwardedDown = new AtomicLong();

    CuttingProxy(InetSocketAddress upstream) throws IOException {
        this.upstream = upstream;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "cutting-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** Breaks the connection that carries the {@code bytes}-th upstream byte from now. */
    void cutAfter(long bytes) {
        forwardedDown.set(0);
        cutAfter.set(bytes);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket down = server.accept();
                Socket up = new Socket(upstream.getAddress(), upstream.getPort());
                pump(down, up, false);
                pump(up, down, true);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean downstream) {
        Thread pump = new Thread(
                () -> {
                    byte[] buffer = new byte[8192];
                    try (from;
                            to) {
                        InputStream in = from.getInputStream();
                        OutputStream out = to.getOutputStream();
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            if (downstream) {
                                long limit = cutAfter.get();
                                long before = forwardedDown.getAndAdd(n);
                                if (limit >= 0 && before + n >= limit) {
                                    out.write(buffer, 0, (int) Math.max(0, limit - before));
                                    out.flush();
                                    cutAfter.set(-1);
                                    return;
                                }
                            }
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // the other pump closed the sockets
                    }
                },
                "cutting-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
