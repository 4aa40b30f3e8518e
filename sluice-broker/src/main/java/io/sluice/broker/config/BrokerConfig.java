package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;

import io.sluice.broker.group.GroupCoordinatorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The broker's configuration, parsed and validated from Kafka-style properties (key by key in
 * {@link ParsedBrokerProperties}, then across keys in {@link BrokerListeners} and {@link CrossKeyRules}). The log
 * settings are read through {@link #log()}, the group coordinator's through {@link #groupCoordinatorConfig()}.
 * Immutable; thread-safe.
 */
public final class BrokerConfig {
    private final Map<String, Object> values;
    private final Map<String, String> explicit;
    private final List<String> unknownKeys;
    private final List<String> ignoredKeys;
    /** listener.name.&lt;name&gt;.&lt;key&gt; entries as given, validated against their base key. */
    private final Map<String, String> listenerOverrides;

    private final int brokerId;
    private final BrokerListeners listeners;
    private final List<Path> logDirs;
    private final BrokerLogConfig log;

    private BrokerConfig(ParsedBrokerProperties properties) {
        this.values = properties.values();
        this.explicit = properties.explicit();
        this.unknownKeys = properties.unknownKeys();
        this.ignoredKeys = properties.ignoredKeys();
        this.listenerOverrides = properties.listenerOverrides();
        this.brokerId = CrossKeyRules.resolveBrokerId(values, explicit);
        this.listeners = new BrokerListeners(values, listenerOverrides);
        this.logDirs = CrossKeyRules.resolveLogDirs(values);
        CrossKeyRules.checkSessionTimeouts(values, explicit);
        this.log = new BrokerLogConfig(this);
    }

    /**
     * Parses and validates {@code props}. Keys Sluice does not know are collected in
     * {@link #unknownKeys()}, Kafka keys it accepts without using in {@link #ignoredKeys()}.
     *
     * @throws ConfigException naming the first key whose value is refused
     */
    public static BrokerConfig fromMap(Map<String, String> props) {
        return new BrokerConfig(ParsedBrokerProperties.parse(props));
    }

    /** Every key {@link #fromMap} understands, in documentation order. */
    public static List<ConfigKey> brokerKeys() {
        return BrokerConfigKeys.all();
    }

    /**
     * Kafka broker keys Sluice accepts from a properties file without acting on them (each reported as ignored at
     * start): exact names, then name prefixes. The README's configuration reference lists them.
     */
    public static List<String> ignoredKafkaKeys() {
        return IgnoredKafkaKeys.describe();
    }

    /** Keys given that neither Sluice nor Kafka knows (probably typos); sorted. */
    public List<String> unknownKeys() {
        return unknownKeys;
    }

    /** Kafka keys given that Sluice accepts but does not use; sorted. */
    public List<String> ignoredKeys() {
        return ignoredKeys;
    }

    /** Whether {@code key} was given explicitly (as opposed to defaulted). */
    public boolean isExplicit(String key) {
        return explicit.containsKey(key);
    }

    /** The explicitly given keys and their trimmed text, sorted by key. */
    public Map<String, String> explicitValues() {
        return explicit;
    }

    /** The effective value of a broker key as Kafka would show it, or null when unset. */
    public String valueText(String key) {
        BrokerConfigKeys.requireKnown(key);
        return ConfigType.format(values.get(key));
    }

    /** {@code authorizer.class.name}: empty when ACLs are not checked. */
    public String authorizerClassName() {
        return string(AUTHORIZER_CLASS_NAME);
    }

    /** {@code super.users} as given: principals separated by semicolons. */
    public String superUsers() {
        return string(SUPER_USERS);
    }

    public boolean allowEveryoneIfNoAclFound() {
        return bool(ALLOW_EVERYONE_IF_NO_ACL_FOUND);
    }

    public int brokerId() {
        return brokerId;
    }

    /** Where to bind, in the order given. */
    public List<Listener> listeners() {
        return listeners.listeners();
    }

    /** What clients are told; the listeners when advertised.listeners is unset. */
    public List<Listener> advertisedListeners() {
        return listeners.advertisedListeners();
    }

    /** log.dirs when set, else log.dir; relative paths resolve against the working directory. */
    public List<Path> logDirs() {
        return logDirs;
    }

    public int numPartitions() {
        return integer(NUM_PARTITIONS);
    }

    public int defaultReplicationFactor() {
        return integer(DEFAULT_REPLICATION_FACTOR);
    }

    public int minInsyncReplicas() {
        return integer(MIN_INSYNC_REPLICAS);
    }

    public boolean autoCreateTopicsEnable() {
        return bool(AUTO_CREATE_TOPICS_ENABLE);
    }

    public boolean deleteTopicEnable() {
        return bool(DELETE_TOPIC_ENABLE);
    }

    public int messageMaxBytes() {
        return integer(MESSAGE_MAX_BYTES);
    }

    public int socketRequestMaxBytes() {
        return integer(SOCKET_REQUEST_MAX_BYTES);
    }

    /** -1 means the OS default. */
    public int socketSendBufferBytes() {
        return integer(SOCKET_SEND_BUFFER_BYTES);
    }

    /** -1 means the OS default. */
    public int socketReceiveBufferBytes() {
        return integer(SOCKET_RECEIVE_BUFFER_BYTES);
    }

    /** quota.window.num: samples a client quota's rate is measured over. */
    public int quotaWindowNum() {
        return integer(QUOTA_WINDOW_NUM);
    }

    /** quota.window.size.seconds: length of each sample of a client quota's rate. */
    public int quotaWindowSizeSeconds() {
        return integer(QUOTA_WINDOW_SIZE_SECONDS);
    }

    public long connectionsMaxIdleMs() {
        return longValue(CONNECTIONS_MAX_IDLE_MS);
    }

    /** sluice.move.batch.header.memory.bytes: heap for the batch header tables of new segments. */
    public long moveBatchHeaderMemoryBytes() {
        return longValue(MOVE_BATCH_HEADER_MEMORY_BYTES);
    }

    public int numNetworkThreads() {
        return integer(NUM_NETWORK_THREADS);
    }

    public int numIoThreads() {
        return integer(NUM_IO_THREADS);
    }

    /** The log settings: topics' log defaults, the log manager's task intervals, the cleaner's settings. */
    public BrokerLogConfig log() {
        return log;
    }

    /** Empty means start an embedded ZooKeeper. */
    public Optional<String> zookeeperConnect() {
        return Optional.ofNullable((String) values.get(ZOOKEEPER_CONNECT));
    }

    public Duration zookeeperSessionTimeout() {
        return Duration.ofMillis(integer(ZOOKEEPER_SESSION_TIMEOUT_MS));
    }

    public Duration zookeeperConnectionTimeout() {
        return Duration.ofMillis(integer(ZOOKEEPER_CONNECTION_TIMEOUT_MS));
    }

    /** Port of the embedded ZooKeeper; 0 means a free one. */
    public int zookeeperEmbeddedPort() {
        return integer(ZOOKEEPER_EMBEDDED_PORT);
    }

    /** Empty when the broker has no rack. */
    public String brokerRack() {
        return string(BROKER_RACK);
    }

    /** Empty means generate one and store it with the data. */
    public Optional<String> clusterId() {
        return Optional.ofNullable((String) values.get(CLUSTER_ID));
    }

    /** Where the HTTP listener (Prometheus metrics) binds; empty when there is none. */
    public Optional<HttpListenerAddress> httpListener() {
        return Optional.ofNullable((String) values.get(BrokerConfigKeys.HTTP_LISTENER))
                .map(HttpListenerAddress::parse);
    }

    /** The group coordinator's settings, from the group.*, offset.* and offsets.* keys. */
    public GroupCoordinatorConfig groupCoordinatorConfig() {
        return new GroupCoordinatorConfig(
                integer(GROUP_INITIAL_REBALANCE_DELAY_MS),
                integer(GROUP_MIN_SESSION_TIMEOUT_MS),
                integer(GROUP_MAX_SESSION_TIMEOUT_MS),
                integer(GROUP_MAX_SIZE),
                integer(OFFSETS_RETENTION_MINUTES),
                longValue(OFFSETS_RETENTION_CHECK_INTERVAL_MS),
                integer(OFFSET_METADATA_MAX_BYTES),
                integer(OFFSETS_TOPIC_NUM_PARTITIONS),
                integer(GROUP_MEMBER_METADATA_MAX_BYTES),
                integer(OFFSETS_COMMIT_TIMEOUT_MS));
    }

    public int offsetsTopicNumPartitions() {
        return integer(OFFSETS_TOPIC_NUM_PARTITIONS);
    }

    /** The configured replication factor of the committed-offsets topic, before the cap to the live brokers. */
    public int offsetsTopicReplicationFactor() {
        return integer(OFFSETS_TOPIC_REPLICATION_FACTOR);
    }

    public boolean uncleanLeaderElectionEnable() {
        return bool(UNCLEAN_LEADER_ELECTION_ENABLE);
    }

    public boolean autoLeaderRebalanceEnable() {
        return bool(AUTO_LEADER_REBALANCE_ENABLE);
    }

    public Duration leaderImbalanceCheckInterval() {
        return Duration.ofSeconds(longValue(LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS));
    }

    public int leaderImbalancePerBrokerPercentage() {
        return integer(LEADER_IMBALANCE_PER_BROKER_PERCENTAGE);
    }

    public Duration controllerRetryBackoff() {
        return Duration.ofMillis(longValue(CONTROLLER_RETRY_BACKOFF_MS));
    }

    /** How long a topic change waits for the controller's answer and for this broker to apply it. */
    public long controllerWaitMs() {
        return longValue(CONTROLLER_WAIT_MS);
    }

    public int controllerForwardRequestTimeoutMs() {
        return integer(CONTROLLER_FORWARD_REQUEST_TIMEOUT_MS);
    }

    /** Bytes/s a leader sends to throttled followers; Long.MAX_VALUE means unthrottled. */
    public long leaderReplicationThrottledRate() {
        return longValue(LEADER_REPLICATION_THROTTLED_RATE);
    }

    /** Bytes/s a follower fetches for throttled partitions; Long.MAX_VALUE means unthrottled. */
    public long followerReplicationThrottledRate() {
        return longValue(FOLLOWER_REPLICATION_THROTTLED_RATE);
    }

    /** Bytes/s of moves between log directories; Long.MAX_VALUE means unthrottled. */
    public long replicaAlterLogDirsIoMaxBytesPerSecond() {
        return longValue(REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND);
    }

    /**
     * This configuration with {@code dynamic} values laid over the explicitly given ones (the dynamic broker
     * configuration from the cluster state), parsed and checked as a whole.
     *
     * @throws ConfigException naming the first key whose value is refused
     */
    public BrokerConfig withOverrides(Map<String, String> dynamic) {
        if (dynamic.isEmpty()) {
            return this;
        }
        Map<String, String> merged = new TreeMap<>(explicit);
        merged.putAll(dynamic);
        return fromMap(merged);
    }

    public int producerIdExpirationMs() {
        return integer(PRODUCER_ID_EXPIRATION_MS);
    }

    /** The security protocol {@code listener} maps to (listener.security.protocol.map). */
    public SecurityProtocol securityProtocol(Listener listener) {
        return listeners.securityProtocol(listener);
    }

    /**
     * The listener brokers reach each other on (replication, the controller channel, partition moves): the advertised
     * listener inter.broker.listener.name names, else the one named like security.inter.broker.protocol, else the first
     * advertised one.
     */
    public Listener interBrokerListener() {
        return listeners.interBrokerListener();
    }

    /**
     * The text of a security key for {@code listenerName}: listener.name.&lt;name&gt;.&lt;key&gt; when given, else the
     * key itself, else its default; null when none of them is set.
     */
    public String listenerValue(String listenerName, String key) {
        return listeners.listenerValue(listenerName, key);
    }

    /**
     * The JAAS entry of {@code mechanism} on {@code listenerName}: listener.name.&lt;l&gt;.&lt;mechanism&gt;.sasl.jaas.config,
     * else listener.name.&lt;l&gt;.sasl.jaas.config, else sasl.jaas.config; null when none is set.
     */
    public String saslJaasConfig(String listenerName, String mechanism) {
        return listeners.saslJaasConfig(listenerName, mechanism);
    }

    /** The explicit keys with every secret (PASSWORD keys, JAAS entries) shown as [hidden]. */
    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>(explicit);
        shown.putAll(listenerOverrides);
        shown.replaceAll((key, value) -> ListenerOverrides.isSecret(key) ? "[hidden]" : value);
        return "BrokerConfig" + shown;
    }

    /** The parsed value of {@code key}: null when it is unset and has no default. */
    Object value(String key) {
        return values.get(key);
    }

    int integer(String key) {
        return (Integer) values.get(key);
    }

    long longValue(String key) {
        return (Long) values.get(key);
    }

    double doubleValue(String key) {
        return (Double) values.get(key);
    }

    boolean bool(String key) {
        return (Boolean) values.get(key);
    }

    String string(String key) {
        return (String) values.get(key);
    }

    @SuppressWarnings("unchecked")
    List<String> list(String key) {
        return (List<String>) values.get(key);
    }
}
