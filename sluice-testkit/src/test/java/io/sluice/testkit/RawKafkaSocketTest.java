package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RawKafkaSocketTest {

    private ServerSocket server;

    @BeforeEach
    void listen() throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        server.setSoTimeout(10_000);
    }

    @AfterEach
    void closeServer() throws IOException {
        server.close();
    }

    private String bootstrap() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    @Test
    void shouldSendSizePrefixedFrameAndReadResponseFrame() throws IOException {
        try (RawKafkaSocket client = RawKafkaSocket.connect(bootstrap());
                Socket peer = server.accept()) {
            client.sendFrame(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            DataInputStream in = new DataInputStream(peer.getInputStream());
            assertEquals(3, in.readInt());
            assertEquals(0x010203, (in.readByte() << 16) | (in.readByte() << 8) | in.readByte());
            DataOutputStream out = new DataOutputStream(peer.getOutputStream());
            out.writeInt(2);
            out.write(new byte[] {7, 8});
            ByteBuffer frame = client.readFrame(16);
            assertEquals(2, frame.remaining());
            assertEquals(7, frame.get(0));
        }
    }

    @Test
    void shouldRefuseForgedResponseSizeWithoutAllocatingIt() throws IOException {
        try (RawKafkaSocket client = RawKafkaSocket.connect(bootstrap());
                Socket peer = server.accept()) {
            new DataOutputStream(peer.getOutputStream()).writeInt(Integer.MAX_VALUE);
            IOException failure = assertThrows(IOException.class, () -> client.readFrame(1024));
            assertTrue(failure.getMessage().contains(Integer.toString(Integer.MAX_VALUE)), failure.getMessage());
        }
    }

    @Test
    void shouldReportEndOfStreamWhenPeerClosesMidFrame() throws IOException {
        try (RawKafkaSocket client = RawKafkaSocket.connect(bootstrap())) {
            try (Socket peer = server.accept()) {
                DataOutputStream out = new DataOutputStream(peer.getOutputStream());
                out.writeInt(100);
                out.write(new byte[10]);
            }
            assertThrows(EOFException.class, () -> client.readFrame(1024));
        }
    }

    @Test
    void shouldTimeOutInsteadOfHangingWhenNothingArrives() throws IOException {
        try (RawKafkaSocket client = RawKafkaSocket.connect(bootstrap(), Duration.ofMillis(200));
                Socket peer = server.accept()) {
            assertThrows(SocketTimeoutException.class, () -> client.readFrame(1024));
            assertFalse(client.awaitClosedByPeer(Duration.ofMillis(200)), "peer is still open");
        }
    }

    @Test
    void shouldSeeClosedByPeer() throws IOException {
        try (RawKafkaSocket client = RawKafkaSocket.connect(bootstrap())) {
            server.accept().close();
            assertTrue(client.awaitClosedByPeer(Duration.ofSeconds(10)));
        }
    }

    @Test
    void shouldSendDeclaredSizeThatDiffersFromBody() throws IOException {
        try (RawKafkaSocket client = RawKafkaSocket.connect(bootstrap());
                Socket peer = server.accept()) {
            client.sendDeclaredFrame(-1, new byte[] {5});
            DataInputStream in = new DataInputStream(peer.getInputStream());
            assertEquals(-1, in.readInt());
            assertEquals(5, in.readByte());
        }
    }
}
