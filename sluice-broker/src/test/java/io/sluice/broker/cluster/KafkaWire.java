package io.sluice.broker.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;

/** One request and its response over a plain socket, addressed to exactly the broker given (no client routing). Not thread-safe. */
public final class KafkaWire implements AutoCloseable {
    private static final int MAX_RESPONSE_BYTES = 16 << 20;
    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private int correlationId;

    public KafkaWire(String host, int port) throws IOException {
        socket = new Socket(host, port);
        socket.setSoTimeout(30_000);
        out = new DataOutputStream(socket.getOutputStream());
        in = new DataInputStream(socket.getInputStream());
    }

    @SuppressWarnings("unchecked")
    public <R extends AbstractResponse> R send(AbstractRequest request) throws IOException {
        RequestHeader header =
                new RequestHeader(request.apiKey(), request.version(), "kafka-wire-test", ++correlationId);
        ByteBuffer frame = request.serializeWithHeader(header);
        out.writeInt(frame.remaining());
        out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
        out.flush();
        int size = in.readInt();
        if (size < 0 || size > MAX_RESPONSE_BYTES) {
            throw new IOException("response frame of " + size + " bytes");
        }
        byte[] body = new byte[size];
        in.readFully(body);
        return (R) AbstractResponse.parseResponse(ByteBuffer.wrap(body), header);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
