package io.sluice.it.cluster;

import io.sluice.testkit.RawKafkaSocket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * One connection to one chosen broker carrying requests at versions the test fixes (no ApiVersions round trip, no
 * routing, no retries), answered in the order sent. Requests can be written now and their answers read later: a
 * paused (SIGSTOPped) broker's kernel still accepts the connection and holds what is written until it resumes.
 *
 * <p>Not thread-safe; one per test connection.
 */
final class RawConnection implements AutoCloseable {
    private static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
    private static final String CLIENT_ID = "sluice-cluster-it-raw";

    private final RawKafkaSocket socket;
    private final Deque<RequestHeader> unanswered = new ArrayDeque<>();
    private int nextCorrelationId = 1;

    private RawConnection(RawKafkaSocket socket) {
        this.socket = socket;
    }

    /** Connects to {@code bootstrap} ({@code host:port}); every read of an answer waits at most {@code readTimeout}. */
    static RawConnection open(String bootstrap, Duration readTimeout) throws IOException {
        return new RawConnection(RawKafkaSocket.connect(bootstrap, readTimeout));
    }

    /** Writes {@code builder}'s request at {@code version} without waiting for its answer. */
    void send(AbstractRequest.Builder<?> builder, ApiKeys api, short version) throws IOException {
        RequestHeader header = new RequestHeader(api, version, CLIENT_ID, nextCorrelationId++);
        socket.sendFrame(builder.build(version).serializeWithHeader(header));
        unanswered.addLast(header);
    }

    /** Reads the answer to the oldest request not answered yet. */
    @SuppressWarnings("unchecked")
    <R extends AbstractResponse> R receive() throws IOException {
        RequestHeader header = unanswered.removeFirst();
        ByteBuffer response = socket.readFrame(MAX_RESPONSE_BYTES);
        return (R) AbstractResponse.parseResponse(response, header);
    }

    /** {@link #send}, then {@link #receive} its answer. */
    <R extends AbstractResponse> R call(AbstractRequest.Builder<?> builder, ApiKeys api, short version)
            throws IOException {
        send(builder, api, version);
        return receive();
    }

    /** One request to {@code bootstrap} over a fresh connection. */
    static <R extends AbstractResponse> R once(
            String bootstrap, Duration readTimeout, AbstractRequest.Builder<?> builder, ApiKeys api, short version)
            throws IOException {
        try (RawConnection connection = open(bootstrap, readTimeout)) {
            return connection.call(builder, api, version);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
