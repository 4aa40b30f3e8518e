package io.sluice.broker.interbroker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.junit.jupiter.api.Test;

/** The broker-to-broker client against a peer that answers right, forges lengths, stops mid-frame or never answers. */
class BrokerClientTest {
    private static final short VERSION = 3;
    private static final int MAX_RESPONSE = 64 * 1024;

    /**
     * A one-connection peer on loopback, on its own daemon thread, that reads one request and lets {@code answer}
     * write to the socket; a failure of the peer itself is printed by the thread's uncaught-exception handler.
     */
    private static void peer(ServerSocket server, BiConsumer<Integer, DataOutputStream> answer) {
        Thread peer = new Thread(
                () -> {
                    try (Socket s = server.accept()) {
                        DataInputStream in = new DataInputStream(s.getInputStream());
                        byte[] request = new byte[in.readInt()];
                        in.readFully(request);
                        ByteBuffer header = ByteBuffer.wrap(request);
                        header.getShort();
                        header.getShort();
                        int correlation = header.getInt();
                        DataOutputStream out = new DataOutputStream(s.getOutputStream());
                        answer.accept(correlation, out);
                        out.flush();
                        Thread.sleep(2_000);
                    } catch (IOException | InterruptedException e) {
                        // the client closed first
                    }
                },
                "broker-client-test-peer");
        peer.setDaemon(true);
        peer.start();
    }

    private static void write(DataOutputStream out, int size, byte[] body) {
        try {
            out.writeInt(size);
            out.write(body);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] response(int correlation) {
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlation);
        ByteBuffer h = MessageUtil.toByteBuffer(header, ApiKeys.API_VERSIONS.responseHeaderVersion(VERSION));
        ByteBuffer b = MessageUtil.toByteBuffer(new ApiVersionsResponseData().setErrorCode((short) 0), VERSION);
        ByteBuffer all =
                ByteBuffer.allocate(h.remaining() + b.remaining()).put(h).put(b);
        return all.array();
    }

    private static ByteBuffer call(ServerSocket server, int timeoutMs) throws IOException {
        try (BrokerClient client = new BrokerClient("test", MAX_RESPONSE, timeoutMs)) {
            client.target(new InetSocketAddress("127.0.0.1", server.getLocalPort()));
            ByteBuffer body = client.call(
                    ApiKeys.API_VERSIONS,
                    VERSION,
                    new ApiVersionsRequestData().setClientSoftwareName("t").setClientSoftwareVersion("1"));
            ByteBuffer copy = ByteBuffer.allocate(body.remaining()).put(body);
            return copy.flip();
        }
    }

    @Test
    void shouldReturnTheResponseBodyAfterItsHeader() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            peer(server, (correlation, out) -> {
                byte[] body = response(correlation);
                write(out, body.length, body);
            });
            ByteBuffer body = call(server, 5_000);
            ApiVersionsResponseData parsed = new ApiVersionsResponseData(new ByteBufferAccessor(body), VERSION);
            assertEquals(0, parsed.errorCode());
        }
    }

    @Test
    void shouldRefuseAForgedSizeWithoutAllocatingIt() throws Exception {
        for (int forged : new int[] {-1, Integer.MIN_VALUE, MAX_RESPONSE + 1, Integer.MAX_VALUE}) {
            try (ServerSocket server = new ServerSocket(0)) {
                peer(server, (correlation, out) -> write(out, forged, new byte[0]));
                IOException e = assertThrows(IOException.class, () -> call(server, 5_000));
                assertTrue(e.getMessage().contains(Integer.toString(forged)), e.getMessage());
            }
        }
    }

    @Test
    void shouldFailOnAFrameCutShort() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            CompletableFuture<Void> answered = CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept()) {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    in.readFully(new byte[in.readInt()]);
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    out.writeInt(100);
                    out.write(new byte[10]);
                } catch (IOException e) {
                    // nothing more to do
                }
            });
            assertThrows(EOFException.class, () -> call(server, 5_000));
            answered.join();
        }
    }

    @Test
    void shouldRefuseAnAnswerToAnotherRequest() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            peer(server, (correlation, out) -> {
                byte[] body = response(correlation + 1);
                write(out, body.length, body);
            });
            IOException e = assertThrows(IOException.class, () -> call(server, 5_000));
            assertTrue(e.getMessage().contains("correlation"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseGarbageAfterTheSizePrefix() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            peer(server, (correlation, out) -> write(out, 2, new byte[] {1, 2}));
            assertThrows(IOException.class, () -> call(server, 5_000));
        }
    }

    @Test
    void shouldTimeOutWhenThePeerNeverAnswers() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            peer(server, (correlation, out) -> {});
            assertThrows(SocketTimeoutException.class, () -> call(server, 300));
        }
    }
}
