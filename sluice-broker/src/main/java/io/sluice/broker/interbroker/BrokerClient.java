package io.sluice.broker.interbroker;

import io.sluice.broker.security.BlockingTransport;
import io.sluice.broker.security.ClientSecurity;
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
 * fails the call instead of allocating. On a secured inter-broker listener the connection is opened through
 * {@link ClientSecurity} (TLS and/or SASL login) before the first request.
 *
 * <p>Not thread-safe; one per sending thread. A failed call closes the connection; the next call reconnects.
 */
public final class BrokerClient implements AutoCloseable {
    private static final int SIZE_PREFIX_BYTES = 4;
    private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

    private final String clientId;
    private final int maxResponseBytes;
    private final int timeoutMs;
    private final ClientSecurity security;
    private InetSocketAddress address;
    private BlockingTransport transport;
    private ByteBuffer receive = ByteBuffer.allocateDirect(INITIAL_BUFFER_BYTES);
    private final ByteBuffer sizePrefix = ByteBuffer.allocate(SIZE_PREFIX_BYTES);
    private int correlationId;

    /**
     * @param clientId         Kafka client id sent in every request header (the receiving broker logs it)
     * @param maxResponseBytes largest response frame accepted
     * @param timeoutMs        bound on connecting and on each blocking read or write
     */
    public BrokerClient(String clientId, int maxResponseBytes, int timeoutMs) {
        this(clientId, maxResponseBytes, timeoutMs, ClientSecurity.plaintext());
    }

    /** @param security how connections are secured (the inter-broker listener's TLS and SASL) */
    public BrokerClient(String clientId, int maxResponseBytes, int timeoutMs, ClientSecurity security) {
        this.clientId = clientId;
        this.maxResponseBytes = maxResponseBytes;
        this.timeoutMs = timeoutMs;
        this.security = security;
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
            RequestHeaderData header = new RequestHeaderData()
                    .setRequestApiKey(api.id)
                    .setRequestApiVersion(version)
                    .setClientId(clientId)
                    .setCorrelationId(correlation);
            ByteBuffer body = RequestUtils.serialize(header, api.requestHeaderVersion(version), request, version);
            sizePrefix.clear();
            sizePrefix.putInt(body.remaining()).flip();
            long deadline = deadline();
            transport.writeFully(sizePrefix, deadline);
            transport.writeFully(body, deadline);
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
        if (transport != null && transport.sessionEnding()) {
            // The broker closes a connection whose SASL session ended (KIP-368): log in anew before it does.
            disconnect();
        }
        if (transport != null) {
            return;
        }
        transport = security.connect(address, timeoutMs, clientId);
    }

    private ByteBuffer readFrame() throws IOException {
        long deadline = deadline();
        sizePrefix.clear();
        transport.readFully(sizePrefix, deadline);
        int size = sizePrefix.getInt(0);
        if (size < 0 || size > maxResponseBytes) {
            throw new IOException(
                    "response of " + size + " bytes from " + address + " outside [0, " + maxResponseBytes + "]");
        }
        if (receive.capacity() < size) {
            receive = ByteBuffer.allocateDirect(Math.min(maxResponseBytes, Math.max(size, receive.capacity() * 2)));
        }
        receive.clear().limit(size);
        transport.readFully(receive, deadline);
        receive.flip();
        return receive;
    }

    private long deadline() {
        return System.nanoTime() + timeoutMs * 1_000_000L;
    }

    /** Closes the connection; the next call opens a new one. */
    public void disconnect() {
        if (transport != null) {
            transport.close();
            transport = null;
        }
    }

    @Override
    public void close() {
        disconnect();
    }
}
