package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.LONG;
import static io.sluice.broker.config.ConfigType.STRING;
import static io.sluice.broker.config.ConfigValidator.ANY;
import static io.sluice.broker.config.ConfigValidator.atLeast;
import static io.sluice.broker.config.ConfigValidator.nonEmpty;

/**
 * The broker keys of cluster membership and coordination: ZooKeeper, rack and cluster id, the controller's waits and
 * retries, and the listener brokers reach each other on. Part of the catalogue {@link BrokerConfigKeys} assembles; the
 * order of the definitions is the documentation order.
 * Stateless; thread-safe.
 */
final class ClusterKeyDefinitions {
    private ClusterKeyDefinitions() {}

    /** ZooKeeper, rack and cluster id; they follow the log keys. */
    static void defineMembership(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                ZOOKEEPER_CONNECT,
                STRING,
                null,
                "ZooKeeper connect string of the cluster; unset starts an embedded ZooKeeper.",
                nonEmpty());
        catalogue.define(
                ZOOKEEPER_SESSION_TIMEOUT_MS,
                INT,
                "18000",
                "A broker silent this long is removed from the cluster and its partitions go offline; a paused controller is fenced.",
                atLeast(4000));
        catalogue.define(
                ZOOKEEPER_CONNECTION_TIMEOUT_MS,
                INT,
                "15000",
                "How long the broker waits for ZooKeeper at start.",
                atLeast(1));
        catalogue.define(
                ZOOKEEPER_EMBEDDED_PORT,
                INT,
                "0",
                "Port on 127.0.0.1 of the embedded ZooKeeper (used when zookeeper.connect is unset); 0 picks a free one.",
                atLeast(0));
        catalogue.define(
                BROKER_RACK,
                STRING,
                "",
                "Rack of this broker; topic creation spreads a partition's replicas over racks.",
                ANY);
        catalogue.define(
                CLUSTER_ID,
                STRING,
                null,
                "Cluster id reported to clients; unset means generated once and stored in the data directory.",
                nonEmpty());
    }

    /** The controller's waits and retries and the inter-broker listener; they follow the leadership keys. */
    static void defineControllerAndInterBrokerListener(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                CONTROLLER_RETRY_BACKOFF_MS,
                LONG,
                "500",
                "Pause before the controller retries a take-over or a membership update that failed (ZooKeeper busy or unreachable); short, as brokers wait for it.",
                atLeast(1));
        catalogue.define(
                CONTROLLER_WAIT_MS,
                LONG,
                "30000",
                "Longest a topic change (CreateTopics, DeleteTopics, CreatePartitions) waits for the controller and for this broker to apply it before REQUEST_TIMED_OUT; a controller failover fits in it.",
                atLeast(1));
        catalogue.define(
                CONTROLLER_FORWARD_WAIT_MS,
                LONG,
                "20000",
                "How long a change forwarded to the controller (configs, client quotas, ACLs, SCRAM credentials) is retried while no controller takes it, like Kafka's forwarding timeout: a failover fits in it.",
                atLeast(0));
        catalogue.define(
                CONTROLLER_FORWARD_RETRY_BACKOFF_MS,
                LONG,
                "250",
                "Pause between two attempts of a forwarded change that found no controller.",
                atLeast(1));
        catalogue.define(
                CONTROLLER_FORWARD_REQUEST_TIMEOUT_MS,
                INT,
                "15000",
                "Request timeout of the admin client that forwards topic auto-creation to the controller (its API timeout is twice this).",
                atLeast(1));
        catalogue.define(
                INTER_BROKER_LISTENER_NAME,
                STRING,
                null,
                "Advertised listener brokers use to reach each other (replication, controller channel, moves); unset: the one security.inter.broker.protocol names, else the first advertised listener.",
                nonEmpty());
        catalogue.define(
                SECURITY_INTER_BROKER_PROTOCOL,
                STRING,
                null,
                "Security protocol of the inter-broker listener: the listener of that name is used; set at most one of it and inter.broker.listener.name (unset, unlike Kafka's PLAINTEXT default: see inter.broker.listener.name).",
                nonEmpty());
    }
}
