package io.sluice.testkit.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.ApiVersions;
import org.apache.kafka.clients.ClientRequest;
import org.apache.kafka.clients.ClientResponse;
import org.apache.kafka.clients.ClientUtils;
import org.apache.kafka.clients.ManualMetadataUpdater;
import org.apache.kafka.clients.MetadataRecoveryStrategy;
import org.apache.kafka.clients.NetworkClient;
import org.apache.kafka.clients.NetworkClientUtils;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.network.ChannelBuilder;
import org.apache.kafka.common.network.Selector;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.utils.LogContext;
import org.apache.kafka.common.utils.Time;

/**
 * One connection to one chosen broker, over its listener's security (TLS, SASL) as a Kafka client configures it, that
 * asks that broker which brokers it knows: the ids its Metadata answer lists, which is the cluster state the broker has
 * applied. The Admin client cannot ask this: its describeCluster goes to the least loaded of the nodes its bootstrap
 * broker named, so its answer can come from another broker. Here the client knows no node but this one.
 *
 * <p>Built on kafka-clients' NetworkClient with only what 3.9 and 4.x both have (testkit runs with either).
 *
 * <p>Not thread-safe; one per broker, used by one thread.
 */
final class BrokerMetadataClient implements AutoCloseable {
    private static final String CLIENT_ID = "sluice-process-cluster-probe";
    /** Bound on a connection's set-up, TLS and SASL included, and on one answer: a stalled broker fails the ask. */
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

    private static final long CONNECTIONS_MAX_IDLE_MS = Duration.ofMinutes(5).toMillis();
    private static final long RECONNECT_BACKOFF_MS = 100;
    private static final long RECONNECT_BACKOFF_MAX_MS = 1_000;
    /** -1: the operating system's default socket buffers. */
    private static final int OS_DEFAULT_BUFFER = -1;

    private final Node broker;
    private final Time time = Time.SYSTEM;
    private final Metrics metrics;
    private final NetworkClient client;

    private BrokerMetadataClient(Node broker, Metrics metrics, NetworkClient client) {
        this.broker = broker;
        this.metrics = metrics;
        this.client = client;
    }

    /**
     * A client for broker {@code brokerId} at {@code bootstrap} ({@code host:port}); connects on the first ask.
     *
     * @param clientProperties Kafka client settings for that listener ({@code security.protocol}, {@code ssl.*},
     *     {@code sasl.*}); empty for PLAINTEXT
     * @throws org.apache.kafka.common.KafkaException if the settings are unusable (a trust store that does not load)
     */
    static BrokerMetadataClient open(int brokerId, String bootstrap, Map<String, String> clientProperties) {
        int colon = bootstrap.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("bootstrap must be host:port, was '" + bootstrap + "'");
        }
        Node broker =
                new Node(brokerId, bootstrap.substring(0, colon), Integer.parseInt(bootstrap.substring(colon + 1)));
        Map<String, Object> settings = new HashMap<>(clientProperties);
        settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        LogContext logContext = new LogContext("[" + CLIENT_ID + " broker " + brokerId + "] ");
        Time time = Time.SYSTEM;
        Metrics metrics = new Metrics(time);
        try {
            ChannelBuilder channels =
                    ClientUtils.createChannelBuilder(new AdminClientConfig(settings), time, logContext);
            // The selector owns the channel builder (and its SASL login) from here on and closes it.
            Selector selector = new Selector(CONNECTIONS_MAX_IDLE_MS, metrics, time, CLIENT_ID, channels, logContext);
            NetworkClient client = new NetworkClient(
                    selector,
                    new ManualMetadataUpdater(List.of(broker)),
                    CLIENT_ID,
                    1,
                    RECONNECT_BACKOFF_MS,
                    RECONNECT_BACKOFF_MAX_MS,
                    OS_DEFAULT_BUFFER,
                    OS_DEFAULT_BUFFER,
                    (int) ASK_TIMEOUT.toMillis(),
                    ASK_TIMEOUT.toMillis(),
                    ASK_TIMEOUT.toMillis(),
                    time,
                    true,
                    new ApiVersions(),
                    logContext,
                    MetadataRecoveryStrategy.NONE);
            return new BrokerMetadataClient(broker, metrics, client);
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
    }

    /**
     * The ids of the brokers this broker lists in its Metadata answer (no topics asked), ascending.
     *
     * @throws IOException if the connection, its handshakes or the answer did not complete within {@link #ASK_TIMEOUT}
     */
    Set<Integer> listedBrokerIds() throws IOException {
        if (!NetworkClientUtils.awaitReady(client, broker, time, ASK_TIMEOUT.toMillis())) {
            throw new IOException("no connection to broker " + broker.id() + " at " + broker.host() + ":"
                    + broker.port() + " within " + ASK_TIMEOUT);
        }
        ClientRequest request = client.newClientRequest(
                broker.idString(), new MetadataRequest.Builder(List.of(), false), time.milliseconds(), true);
        ClientResponse response = NetworkClientUtils.sendAndReceive(client, request, time);
        if (response.versionMismatch() != null) {
            throw new IOException("broker " + broker.id() + " cannot answer Metadata", response.versionMismatch());
        }
        Set<Integer> ids = new TreeSet<>();
        for (Node listed : ((MetadataResponse) response.responseBody()).brokers()) {
            ids.add(listed.id());
        }
        return ids;
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            metrics.close();
        }
    }

    @Override
    public String toString() {
        return "BrokerMetadataClient[" + broker + "]";
    }
}
