package io.sluice.it;

import io.sluice.testkit.RawKafkaSocket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Sends single requests built with kafka-clients' request classes over a {@link RawKafkaSocket} and parses the
 * response, at the highest version both kafka-clients and the broker support; lets a test hand-craft what a real
 * client never sends (a corrupted batch, an unknown topic without auto-creation).
 *
 * <p>Not thread-safe; one per test connection.
 */
final class RawProtocolClient implements AutoCloseable {

    static final String CLIENT_ID = "sluice-it-raw";
    /** Bound on a response frame: far above any response these tests provoke, far below the test heap. */
    static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

    private final RawKafkaSocket socket;
    private final Map<ApiKeys, ApiVersion> brokerVersions = new EnumMap<>(ApiKeys.class);
    private int nextCorrelationId = 1;

    private RawProtocolClient(RawKafkaSocket socket) {
        this.socket = socket;
    }

    static RawProtocolClient connect(String bootstrap) throws IOException {
        RawProtocolClient client = new RawProtocolClient(RawKafkaSocket.connect(bootstrap));
        try {
            ApiVersionsResponse versions = client.send(
                    new ApiVersionsRequest.Builder(), ApiKeys.API_VERSIONS, ApiKeys.API_VERSIONS.latestVersion());
            if (versions.data().errorCode() != 0) {
                throw new IOException(
                        "ApiVersions failed with error code " + versions.data().errorCode());
            }
            for (ApiVersion version : versions.data().apiKeys()) {
                if (ApiKeys.hasId(version.apiKey())) {
                    client.brokerVersions.put(ApiKeys.forId(version.apiKey()), version);
                }
            }
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
        return client;
    }

    /** The highest version of {@code api} that both sides support; fails if the broker does not advertise it. */
    short version(ApiKeys api) {
        ApiVersion broker = brokerVersions.get(api);
        if (broker == null) {
            throw new IllegalStateException(
                    "broker does not advertise " + api + "; it advertises " + brokerVersions.keySet());
        }
        short version = (short) Math.min(broker.maxVersion(), api.latestVersion());
        if (version < broker.minVersion() || version < api.oldestVersion()) {
            throw new IllegalStateException("no common version of " + api + ": broker " + broker.minVersion() + ".."
                    + broker.maxVersion() + ", kafka-clients " + api.oldestVersion() + ".." + api.latestVersion());
        }
        return version;
    }

    /** Sends {@code builder}'s request at the common version of {@code api} and returns the parsed response. */
    <R extends AbstractResponse> R send(AbstractRequest.Builder<?> builder, ApiKeys api) throws IOException {
        return send(builder, api, version(api));
    }

    <R extends AbstractResponse> R send(AbstractRequest.Builder<?> builder, ApiKeys api, short version)
            throws IOException {
        return receive(sendOnly(builder, api, version));
    }

    /**
     * Sends {@code builder}'s request without waiting for its response, so the test can act while the broker holds
     * it (a long-poll fetch); {@link #receive} reads the response.
     */
    RequestHeader sendOnly(AbstractRequest.Builder<?> builder, ApiKeys api, short version) throws IOException {
        RequestHeader header = new RequestHeader(api, version, CLIENT_ID, nextCorrelationId++);
        socket.sendFrame(builder.build(version).serializeWithHeader(header));
        return header;
    }

    /** Reads and parses the response to the request {@link #sendOnly} sent with {@code header}. */
    @SuppressWarnings("unchecked")
    <R extends AbstractResponse> R receive(RequestHeader header) throws IOException {
        ByteBuffer response = socket.readFrame(MAX_RESPONSE_BYTES);
        return (R) AbstractResponse.parseResponse(response, header);
    }

    RawKafkaSocket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
