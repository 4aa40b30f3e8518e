package io.sluice.testkit.cluster;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBrokerCollection;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * A PLAINTEXT Kafka listener in the test JVM that answers ApiVersions and Metadata and nothing else: its Metadata
 * answers list the brokers a test scripts, one list per answer, the last one repeated. It counts its Metadata answers,
 * so a test sees which broker was asked and how often.
 *
 * <p>Thread-safe: one accepting thread and one thread per connection; the script and the count are guarded by this.
 */
final class FakeMetadataBroker implements AutoCloseable {
    private static final short MAX_METADATA_VERSION = 12;
    private static final short MAX_API_VERSIONS_VERSION = 3;
    private static final int MAX_REQUEST_BYTES = 1024 * 1024;

    private final int id;
    private final ServerSocket server;
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final Deque<List<FakeMetadataBroker>> script = new ArrayDeque<>();
    private int metadataAnswers;

    private FakeMetadataBroker(int id, ServerSocket server) {
        this.id = id;
        this.server = server;
    }

    /** Listens on an ephemeral loopback port; lists only itself until {@link #willList} says otherwise. */
    static FakeMetadataBroker start(int id) throws IOException {
        FakeMetadataBroker broker =
                new FakeMetadataBroker(id, new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        broker.script.add(List.of(broker));
        Thread acceptor = new Thread(broker::accept, "fake-metadata-broker-" + id);
        acceptor.setDaemon(true);
        acceptor.start();
        return broker;
    }

    int id() {
        return id;
    }

    String bootstrap() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** The brokers (at their real addresses) each next Metadata answer lists, in turn; the last list stays. */
    @SafeVarargs
    final synchronized void willList(List<FakeMetadataBroker>... answers) {
        script.clear();
        script.addAll(List.of(answers));
    }

    synchronized int metadataAnswers() {
        return metadataAnswers;
    }

    private synchronized List<FakeMetadataBroker> nextListing() {
        metadataAnswers++;
        return script.size() > 1 ? script.removeFirst() : script.getFirst();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket connection = server.accept();
                connections.add(connection);
                Thread serving = new Thread(() -> serve(connection), "fake-metadata-broker-" + id + "-connection");
                serving.setDaemon(true);
                serving.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            DataInputStream in = new DataInputStream(connection.getInputStream());
            OutputStream out = connection.getOutputStream();
            while (true) {
                int size = in.readInt();
                if (size < 0 || size > MAX_REQUEST_BYTES) {
                    return;
                }
                byte[] request = new byte[size];
                in.readFully(request);
                RequestHeader header = RequestHeader.parse(ByteBuffer.wrap(request));
                out.write(frame(header, answer(header)));
                out.flush();
            }
        } catch (IOException e) {
            // the client went away, or the fake was closed
        }
    }

    private ApiMessage answer(RequestHeader header) throws IOException {
        if (header.apiKey() == ApiKeys.API_VERSIONS) {
            ApiVersionCollection apis = new ApiVersionCollection();
            apis.add(new ApiVersion()
                    .setApiKey(ApiKeys.API_VERSIONS.id)
                    .setMinVersion((short) 0)
                    .setMaxVersion(MAX_API_VERSIONS_VERSION));
            apis.add(new ApiVersion()
                    .setApiKey(ApiKeys.METADATA.id)
                    .setMinVersion((short) 0)
                    .setMaxVersion(MAX_METADATA_VERSION));
            return new ApiVersionsResponseData()
                    .setErrorCode(Errors.NONE.code())
                    .setApiKeys(apis);
        }
        if (header.apiKey() == ApiKeys.METADATA) {
            MetadataResponseBrokerCollection brokers = new MetadataResponseBrokerCollection();
            for (FakeMetadataBroker listed : nextListing()) {
                brokers.add(new MetadataResponseBroker()
                        .setNodeId(listed.id)
                        .setHost("127.0.0.1")
                        .setPort(listed.server.getLocalPort()));
            }
            return new MetadataResponseData()
                    .setBrokers(brokers)
                    .setClusterId("fake-cluster")
                    .setControllerId(id);
        }
        throw new IOException("fake broker " + id + " answers no " + header.apiKey());
    }

    /** Size prefix, response header (v0 for ApiVersions, whatever the version), and the answer at the asked version. */
    private static byte[] frame(RequestHeader header, ApiMessage answer) {
        short headerVersion = header.apiKey().responseHeaderVersion(header.apiVersion());
        ResponseHeaderData responseHeader = new ResponseHeaderData().setCorrelationId(header.correlationId());
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = responseHeader.size(cache, headerVersion) + answer.size(cache, header.apiVersion());
        ByteBuffer frame = ByteBuffer.allocate(Integer.BYTES + size);
        frame.putInt(size);
        ByteBufferAccessor writer = new ByteBufferAccessor(frame);
        responseHeader.write(writer, cache, headerVersion);
        answer.write(writer, cache, header.apiVersion());
        return frame.array();
    }

    /** Stops listening and drops every connection: the broker is gone. */
    @Override
    public void close() throws IOException {
        server.close();
        for (Socket connection : connections) {
            connection.close();
        }
    }
}
