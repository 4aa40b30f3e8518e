package io.sluice.broker.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards topic auto-creation from a broker that is not the controller to the controller, the way
 * Kafka's brokers do: through the Kafka protocol, with kafka-clients' admin client, which finds the
 * controller in the cluster's own Metadata answers. It connects to the inter-broker listener (each broker's first
 * endpoint) with that listener's security and this broker's own login. The client is created on first use.
 *
 * <p>Thread-safe.
 */
public final class ControllerForwarder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerForwarder.class);

    private final ClusterView cluster;
    private final Map<String, Object> clientSecurity;
    private final int requestTimeoutMs;
    private Admin admin;
    private boolean closed;

    /**
     * @param clientSecurity   kafka-clients security properties of the inter-broker listener
     * @param requestTimeoutMs the admin client's request timeout (sluice.controller.forward.request.timeout.ms)
     */
    public ControllerForwarder(ClusterView cluster, Map<String, Object> clientSecurity, int requestTimeoutMs) {
        this.cluster = cluster;
        this.clientSecurity = Map.copyOf(clientSecurity);
        this.requestTimeoutMs = requestTimeoutMs;
    }

    /** Asks the controller to create {@code topic} with the broker defaults; the outcome is only logged. */
    public void createTopicAsync(String topic) {
        send(new NewTopic(topic, Optional.empty(), Optional.empty()));
    }

    /** Asks the controller to create {@code topic} with {@code partitions} partitions; the outcome is only logged. */
    public void createTopicAsync(String topic, int partitions) {
        send(new NewTopic(topic, Optional.of(partitions), Optional.empty()));
    }

    private void send(NewTopic newTopic) {
        Admin client = client();
        if (client == null) {
            return;
        }
        String topic = newTopic.name();
        // The outcome is only logged (see createTopicAsync); the future whenComplete returns repeats a logged failure.
        var unused = client.createTopics(List.of(newTopic)).all().whenComplete((ok, error) -> {
            if (error == null) {
                LOG.info("Controller created auto-created topic {}", topic);
            } else if (!(error.getCause() instanceof TopicExistsException)
                    && !(error instanceof TopicExistsException)) {
                LOG.warn("Forwarding the creation of topic {} to the controller failed: {}", topic, error.toString());
            }
        });
    }

    private synchronized Admin client() {
        if (closed) {
            return null;
        }
        if (admin == null) {
            StringJoiner bootstrap = new StringJoiner(",");
            for (BrokerNode b : cluster.liveBrokers()) {
                bootstrap.add(b.host() + ":" + b.port());
            }
            Map<String, Object> props = new HashMap<>(clientSecurity);
            props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap.toString());
            props.put(
                    AdminClientConfig.CLIENT_ID_CONFIG,
                    "sluice-broker-" + cluster.self().id() + "-forwarder");
            props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeoutMs);
            props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2 * requestTimeoutMs);
            admin = Admin.create(props);
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (admin != null) {
            admin.close(java.time.Duration.ofSeconds(1));
        }
    }
}
