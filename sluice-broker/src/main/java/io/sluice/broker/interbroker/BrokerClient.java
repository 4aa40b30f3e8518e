package io.sluice.broker.interbroker;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * One blocking Kafka-protocol connection from this broker to another (followers to leaders, leaders to the
 * controller): writes a request built from kafka-clients' generated message classes and reads its response frame
 * into one reused direct buffer, so a fetched record batch goes socket → this buffer → segment file with no other
 * copy. The buffer grows to the largest response seen, never beyond {@code maxResponseBytes}: a forged size prefix
 * fails the call instead of allocating.
 *
 * <p>Not thread-safe; one per sending thread. A failed call closes the connection; the next call reconnects.
 */
public final class BrokerClient implements AutoCloseable {
    private static final int SIZE_PREFIX_BYTES = 4;
    private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

    private final String clientId;
    private final int maxResponseBytes;
    private final int timeoutMs;
    private InetSocketAddress address;
    private TimedChannel connection;
    private ByteBuffer receive = ByteBuffer.allocateDirect(INITIAL_BUFFER_BYTES);
    private final ByteBuffer sizePrefix = ByteBuffer.allocate(SIZE_PREFIX_BYTES);
    private int correlationId;

    /**
     * @param clientId         Kafka client id sent in every request header (the receiving broker logs it)
     * @param maxResponseBytes largest response frame accepted
     * @param timeoutMs        bound on connecting and on each blocking read or write
     */
    public BrokerClient(String clientId, int maxResponseBytes, int timeoutMs) {
        this.clientId = clientId;
        this.maxResponseBytes = maxResponseBytes;
        this.timeoutMs = timeoutMs;
    }

    /** Points the client at {@code target}; an open connection to another address is closed. */
    public void target(InetSocketAddress target) {
        if (address != null && !address.equals(target)) {
            disconnect();
        }
        address = target;
    }

    /**
     * Sends {@code request} and returns its response body, positioned after the response header. The returned
     * buffer is this client's receive buffer: it is valid until the next call.
     *
     * @throws IOException when the connection fails, times out, or the response is malformed or too large
     */
    public ByteBuffer call(ApiKeys api, short version, ApiMessage request) throws IOException {
        if (address == null) {
            throw new IOException("no target broker");
        }
        try {
            connectIfNeeded();
            int correlation = ++correlationId;
            RequestHeaderData header = new RequestHeaderData().setRequestApiKey(api.id).setRequestApiVersion(version)
                    .setClientId(clientId).setCorrelationId(correlation);
            ByteBuffer body = RequestUtils.serialize(header, api.requestHeaderVersion(version), request, version);
            sizePrefix.clear();
            sizePrefix.putInt(body.remaining()).flip();
            writeFully(sizePrefix);
            writeFully(body);
            ByteBuffer response = readFrame();
            ResponseHeader responseHeader = ResponseHeader.parse(response, api.responseHeaderVersion(version));
            if (responseHeader.correlationId() != correlation) {
                throw new IOException("response correlation id " + responseHeader.correlationId() + " from " + address
                        + " does not match request " + correlation);
            }
            return response;
        } catch (IOException | RuntimeException e) {
            disconnect();
            throw e instanceof IOException io ? io : new IOException("bad response from " + address + ": " + e, e);
        }
    }

    private void connectIfNeeded() throws IOException {
        if (connection == null || !connection.isOpen()) {
            connection = TimedChannel.connect(address, timeoutMs);
        }
    }

    private void writeFully(ByteBuffer source) throws IOException {
        connection.writeFully(source);
    }

    private ByteBuffer readFrame() throws IOException {
        long deadline = connection.deadline();
        sizePrefix.clear();
        connection.readFully(sizePrefix, deadline);
        int size = sizePrefix.getInt(0);
        if (size < 0 || size > maxResponseBytes) {
            throw new IOException("response of " + size + " bytes from " + address + " outside [0, " + maxResponseBytes + "]");
        }
        if (receive.capacity() < size) {
            receive = ByteBuffer.allocateDirect(Math.min(maxResponseBytes, Math.max(size, receive.capacity() * 2)));
        }
        receive.clear().limit(size);
        connection.readFully(receive, deadline);
        receive.flip();
        return receive;
    }

    /** Closes the connection; the next call opens a new one. */
    public void disconnect() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    @Override
    public void close() {
        disconnect();
    }
}
