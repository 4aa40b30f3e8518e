package io.sluice.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** connections.max.idle.ms over real sockets: silent connections are closed, talking ones are not. */
class IdleConnectionCloserTest {
    private static final long MAX_IDLE_MS = 300;

    private NetworkServer server;

    @BeforeEach
    void start() throws InterruptedException {
        // no API registered: an ApiVersions request gets Kafka's UNSUPPORTED_VERSION answer, a read and a write
        server = NetworkServer.start(
                new NetworkServer.Settings("127.0.0.1", 0, 1, 1, 1 << 20, 0, 0, MAX_IDLE_MS), new ApiRegistry());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(
                server.boundAddress().getAddress(), server.boundAddress().getPort());
        socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(30));
        return socket;
    }

    /** An ApiVersions v0 request (header v1, no client id) and its answer's correlation id. */
    private static int askApiVersions(Socket socket, int correlationId) throws IOException {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(10);
        out.writeShort(ApiKeys.API_VERSIONS.id);
        out.writeShort(0);
        out.writeInt(correlationId);
        out.writeShort(-1);
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] answer = new byte[in.readInt()];
        in.readFully(answer);
        return java.nio.ByteBuffer.wrap(answer).getInt();
    }

    @Test
    void shouldCloseAConnectionThatSaysNothing() throws IOException {
        try (Socket socket = connect()) {
            long start = System.nanoTime();
            assertEquals(-1, socket.getInputStream().read(), "the broker ends a silent connection");
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waitedMs >= MAX_IDLE_MS, "closed after " + waitedMs + " ms, before the idle limit");
        }
    }

    @Test
    void shouldKeepATalkingConnectionOpenAndCloseItOnceItFallsSilent() throws Exception {
        try (Socket socket = connect()) {
            long talkUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(4 * MAX_IDLE_MS);
            int correlationId = 0;
            while (System.nanoTime() < talkUntil) {
                correlationId++;
                assertEquals(correlationId, askApiVersions(socket, correlationId), "answered: still open");
                Thread.sleep(MAX_IDLE_MS / 3); // pacing the requests, not waiting for a result
            }
            assertTrue(correlationId >= 4, "talked past the idle limit several times: " + correlationId);
            assertEquals(-1, socket.getInputStream().read(), "silent again, it is closed");
            assertThrows(IOException.class, () -> askApiVersions(socket, 99));
        }
    }
}
