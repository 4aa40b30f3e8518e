package io.sluice.broker.config;

import io.sluice.log.LogConfig;
import java.util.List;
import java.util.Map;

/**
 * Every broker key Sluice uses, with Apache Kafka's names and (unless noted) Kafka's defaults: the names are here, each
 * key's type, default, validator and doc are in the class of its area ({@link ServerKeyDefinitions},
 * {@link LogKeyDefinitions}, {@link ClusterKeyDefinitions}, {@link GroupAndOffsetKeyDefinitions},
 * {@link ReplicationKeyDefinitions}, {@link QuotaAndMetricsKeyDefinitions}, {@link MoveKeyDefinitions},
 * {@link SecurityKeyDefinitions}), assembled here in documentation order.
 * Immutable; thread-safe.
 */
public final class BrokerConfigKeys {
    public static final String BROKER_ID = "broker.id";
    public static final String NODE_ID = "node.id";
    public static final String LISTENERS = "listeners";
    public static final String ADVERTISED_LISTENERS = "advertised.listeners";
    public static final String LISTENER_SECURITY_PROTOCOL_MAP = "listener.security.protocol.map";
    public static final String LOG_DIRS = "log.dirs";
    public static final String LOG_DIR = "log.dir";
    public static final String NUM_PARTITIONS = "num.partitions";
    public static final String DEFAULT_REPLICATION_FACTOR = "default.replication.factor";
    public static final String MIN_INSYNC_REPLICAS = "min.insync.replicas";
    public static final String AUTO_CREATE_TOPICS_ENABLE = "auto.create.topics.enable";
    public static final String DELETE_TOPIC_ENABLE = "delete.topic.enable";
    public static final String MESSAGE_MAX_BYTES = "message.max.bytes";
    public static final String SOCKET_REQUEST_MAX_BYTES = "socket.request.max.bytes";
    public static final String SOCKET_SEND_BUFFER_BYTES = "socket.send.buffer.bytes";
    public static final String SOCKET_RECEIVE_BUFFER_BYTES = "socket.receive.buffer.bytes";
    public static final String CONNECTIONS_MAX_IDLE_MS = "connections.max.idle.ms";
    public static final String NUM_NETWORK_THREADS = "num.network.threads";
    public static final String NUM_IO_THREADS = "num.io.threads";
    public static final String LOG_SEGMENT_BYTES = "log.segment.bytes";
    public static final String LOG_ROLL_MS = "log.roll.ms";
    public static final String LOG_ROLL_HOURS = "log.roll.hours";
    public static final String LOG_RETENTION_MS = "log.retention.ms";
    public static final String LOG_RETENTION_MINUTES = "log.retention.minutes";
    public static final String LOG_RETENTION_HOURS = "log.retention.hours";
    public static final String LOG_RETENTION_BYTES = "log.retention.bytes";
    public static final String LOG_RETENTION_CHECK_INTERVAL_MS = "log.retention.check.interval.ms";
    public static final String LOG_INDEX_INTERVAL_BYTES = "log.index.interval.bytes";
    public static final String LOG_INDEX_SIZE_MAX_BYTES = "log.index.size.max.bytes";
    public static final String LOG_FLUSH_INTERVAL_MESSAGES = "log.flush.interval.messages";
    public static final String LOG_FLUSH_INTERVAL_MS = "log.flush.interval.ms";
    public static final String LOG_FLUSH_SCHEDULER_INTERVAL_MS = "log.flush.scheduler.interval.ms";
    public static final String LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS = "log.flush.offset.checkpoint.interval.ms";
    public static final String LOG_SEGMENT_DELETE_DELAY_MS = "log.segment.delete.delay.ms";
    public static final String LOG_MESSAGE_TIMESTAMP_TYPE = "log.message.timestamp.type";
    public static final String LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS = "log.message.timestamp.before.max.ms";
    public static final String LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS = "log.message.timestamp.after.max.ms";
    public static final String COMPRESSION_TYPE = "compression.type";
    public static final String LOG_CLEANUP_POLICY = "log.cleanup.policy";
    public static final String LOG_CLEANER_ENABLE = "log.cleaner.enable";
    public static final String LOG_CLEANER_THREADS = "log.cleaner.threads";
    public static final String LOG_CLEANER_DEDUPE_BUFFER_SIZE = "log.cleaner.dedupe.buffer.size";
    public static final String LOG_CLEANER_IO_BUFFER_LOAD_FACTOR = "log.cleaner.io.buffer.load.factor";
    public static final String LOG_CLEANER_IO_BUFFER_SIZE = "log.cleaner.io.buffer.size";
    public static final String LOG_CLEANER_IO_MAX_BYTES_PER_SECOND = "log.cleaner.io.max.bytes.per.second";
    public static final String LOG_CLEANER_BACKOFF_MS = "log.cleaner.backoff.ms";
    public static final String LOG_CLEANER_MIN_CLEANABLE_RATIO = "log.cleaner.min.cleanable.ratio";
    public static final String LOG_CLEANER_DELETE_RETENTION_MS = "log.cleaner.delete.retention.ms";
    public static final String LOG_CLEANER_MIN_COMPACTION_LAG_MS = "log.cleaner.min.compaction.lag.ms";
    public static final String LOG_CLEANER_MAX_COMPACTION_LAG_MS = "log.cleaner.max.compaction.lag.ms";
    public static final String ZOOKEEPER_CONNECT = "zookeeper.connect";
    public static final String ZOOKEEPER_SESSION_TIMEOUT_MS = "zookeeper.session.timeout.ms";
    public static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS = "zookeeper.connection.timeout.ms";
    public static final String ZOOKEEPER_EMBEDDED_PORT = "zookeeper.embedded.port";
    public static final String BROKER_RACK = "broker.rack";
    public static final String CLUSTER_ID = "cluster.id";
    public static final String GROUP_INITIAL_REBALANCE_DELAY_MS = "group.initial.rebalance.delay.ms";
    public static final String GROUP_MIN_SESSION_TIMEOUT_MS = "group.min.session.timeout.ms";
    public static final String GROUP_MAX_SESSION_TIMEOUT_MS = "group.max.session.timeout.ms";
    public static final String GROUP_MAX_SIZE = "group.max.size";
    public static final String GROUP_MEMBER_METADATA_MAX_BYTES = "sluice.group.member.metadata.max.bytes";
    public static final String OFFSET_METADATA_MAX_BYTES = "offset.metadata.max.bytes";
    public static final String OFFSETS_TOPIC_NUM_PARTITIONS = "offsets.topic.num.partitions";
    public static final String OFFSETS_TOPIC_REPLICATION_FACTOR = "offsets.topic.replication.factor";
    public static final String OFFSETS_COMMIT_TIMEOUT_MS = "offsets.commit.timeout.ms";
    public static final String OFFSETS_RETENTION_MINUTES = "offsets.retention.minutes";
    public static final String OFFSETS_RETENTION_CHECK_INTERVAL_MS = "offsets.retention.check.interval.ms";
    public static final String PRODUCER_ID_EXPIRATION_MS = "producer.id.expiration.ms";
    public static final String NUM_REPLICA_FETCHERS = "num.replica.fetchers";
    public static final String REPLICA_FETCH_MAX_BYTES = "replica.fetch.max.bytes";
    public static final String REPLICA_FETCH_WAIT_MAX_MS = "replica.fetch.wait.max.ms";
    public static final String REPLICA_FETCH_MIN_BYTES = "replica.fetch.min.bytes";
    public static final String REPLICA_FETCH_RESPONSE_MAX_BYTES = "replica.fetch.response.max.bytes";
    public static final String REPLICA_FETCH_BACKOFF_MS = "replica.fetch.backoff.ms";
    public static final String QUOTA_WINDOW_NUM = "quota.window.num";
    public static final String QUOTA_WINDOW_SIZE_SECONDS = "quota.window.size.seconds";
    public static final String REPLICA_LAG_TIME_MAX_MS = "replica.lag.time.max.ms";
    public static final String REPLICA_SOCKET_TIMEOUT_MS = "replica.socket.timeout.ms";
    public static final String REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS =
            "replica.high.watermark.checkpoint.interval.ms";
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";
    public static final String AUTO_LEADER_REBALANCE_ENABLE = "auto.leader.rebalance.enable";
    public static final String LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS = "leader.imbalance.check.interval.seconds";
    public static final String LEADER_IMBALANCE_PER_BROKER_PERCENTAGE = "leader.imbalance.per.broker.percentage";
    public static final String CONTROLLED_SHUTDOWN_ENABLE = "controlled.shutdown.enable";
    public static final String CONTROLLED_SHUTDOWN_MAX_RETRIES = "controlled.shutdown.max.retries";
    public static final String CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS = "controlled.shutdown.retry.backoff.ms";
    public static final String CONTROLLER_RETRY_BACKOFF_MS = "sluice.controller.retry.backoff.ms";
    public static final String CONTROLLER_WAIT_MS = "sluice.controller.wait.ms";
    public static final String CONTROLLER_FORWARD_WAIT_MS = "sluice.controller.forward.wait.ms";
    public static final String CONTROLLER_FORWARD_RETRY_BACKOFF_MS = "sluice.controller.forward.retry.backoff.ms";
    public static final String CONTROLLER_FORWARD_REQUEST_TIMEOUT_MS = "sluice.controller.forward.request.timeout.ms";
    public static final String INTER_BROKER_LISTENER_NAME = "inter.broker.listener.name";
    public static final String SECURITY_INTER_BROKER_PROTOCOL = "security.inter.broker.protocol";
    public static final String MOVE_FILE_TRANSFER_ENABLE = "sluice.move.file.transfer.enable";
    public static final String MOVE_CHUNK_BYTES = "sluice.move.chunk.bytes";
    public static final String MOVE_DIRECT_IO_ENABLE = "sluice.move.direct.io.enable";
    public static final String MOVE_PAGE_CACHE_SPILL_ENABLE = "sluice.move.page.cache.spill.enable";
    public static final String MOVE_PAGE_CACHE_SPILL_MAX_PERCENT = "sluice.move.page.cache.spill.max.percent";
    public static final String MOVE_SOCKET_SEND_BUFFER_BYTES = "sluice.move.socket.send.buffer.bytes";
    public static final String MOVE_CHUNKS_IN_FLIGHT = "sluice.move.chunks.in.flight";
    public static final String MOVE_MAX_CONCURRENT_PER_BROKER = "sluice.move.max.concurrent.per.broker";
    public static final String MOVE_PIN_TIMEOUT_MS = "sluice.move.pin.timeout.ms";
    public static final String MOVE_BATCH_HEADER_MEMORY_BYTES = "sluice.move.batch.header.memory.bytes";
    public static final String MOVE_RETRY_BACKOFF_MS = "sluice.move.retry.backoff.ms";
    public static final String MOVE_MAX_IDLE_ROUNDS = "sluice.move.max.idle.rounds";
    public static final String MOVE_FREE_SPACE_MARGIN_BYTES = "sluice.move.free.space.margin.bytes";
    public static final String HTTP_LISTENER = "sluice.http.listener";
    public static final String HTTP_AUTHENTICATION = "sluice.http.authentication";
    public static final String METRICS_ENABLE = "sluice.metrics.enable";
    public static final String LEADER_REPLICATION_THROTTLED_RATE = "leader.replication.throttled.rate";
    public static final String FOLLOWER_REPLICATION_THROTTLED_RATE = "follower.replication.throttled.rate";
    public static final String REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND =
            "replica.alter.log.dirs.io.max.bytes.per.second";
    public static final String SSL_KEYSTORE_TYPE = "ssl.keystore.type";
    public static final String SSL_KEYSTORE_LOCATION = "ssl.keystore.location";
    public static final String SSL_KEYSTORE_PASSWORD = "ssl.keystore.password";
    public static final String SSL_KEY_PASSWORD = "ssl.key.password";
    public static final String SSL_TRUSTSTORE_TYPE = "ssl.truststore.type";
    public static final String SSL_TRUSTSTORE_LOCATION = "ssl.truststore.location";
    public static final String SSL_TRUSTSTORE_PASSWORD = "ssl.truststore.password";
    public static final String SSL_CLIENT_AUTH = "ssl.client.auth";
    public static final String SSL_PROTOCOL = "ssl.protocol";
    public static final String SSL_ENABLED_PROTOCOLS = "ssl.enabled.protocols";
    public static final String SSL_CIPHER_SUITES = "ssl.cipher.suites";
    public static final String SSL_ENDPOINT_IDENTIFICATION_ALGORITHM = "ssl.endpoint.identification.algorithm";
    public static final String SSL_PRINCIPAL_MAPPING_RULES = "ssl.principal.mapping.rules";
    public static final String SASL_ENABLED_MECHANISMS = "sasl.enabled.mechanisms";
    public static final String SASL_MECHANISM_INTER_BROKER_PROTOCOL = "sasl.mechanism.inter.broker.protocol";
    public static final String SASL_JAAS_CONFIG = "sasl.jaas.config";
    public static final String SASL_SERVER_MAX_RECEIVE_SIZE = "sasl.server.max.receive.size";
    public static final String CONNECTION_FAILED_AUTHENTICATION_DELAY_MS = "connection.failed.authentication.delay.ms";
    public static final String CONNECTIONS_MAX_REAUTH_MS = "connections.max.reauth.ms";
    public static final String AUTHORIZER_CLASS_NAME = "authorizer.class.name";
    public static final String SUPER_USERS = "super.users";
    public static final String ALLOW_EVERYONE_IF_NO_ACL_FOUND = "allow.everyone.if.no.acl.found";
    /** Kafka's ZooKeeper-mode and KRaft ACL authorizers; either name turns Sluice's ACL checks on. */
    public static final String ZK_ACL_AUTHORIZER = "kafka.security.authorizer.AclAuthorizer";

    public static final String KRAFT_ACL_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    /** Per-listener overrides are {@code listener.name.<lower-case listener name>.<key>}, as in Kafka. */
    public static final String LISTENER_PREFIX = "listener.name.";

    /** Compression names a broker or topic accepts (Kafka's BrokerCompressionType). */
    static final String[] BROKER_COMPRESSION_TYPES = {"uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"};

    static final String[] TIMESTAMP_TYPES = {"CreateTime", "LogAppendTime"};
    static final String[] CLEANUP_POLICIES = {"delete", "compact"};
    /** Smallest segment the log accepts (one batch must fit; Kafka's own minimum of 14 bytes holds no v2 batch). */
    static final int MIN_SEGMENT_BYTES = LogConfig.MIN_SEGMENT_BYTES;
    /** Smallest index file the log accepts (io.sluice.log.LogConfig checks log.index.size.max.bytes >= 16). */
    static final int MIN_INDEX_BYTES = 16;

    /**
     * Every key, by name, in documentation order: the area classes are called in that order, some more than once so
     * that their keys keep their place in it.
     */
    private static final Map<String, ConfigKey> KEYS = defineInDocumentationOrder();

    private BrokerConfigKeys() {}

    private static Map<String, ConfigKey> defineInDocumentationOrder() {
        BrokerKeyCatalogue catalogue = new BrokerKeyCatalogue();
        ServerKeyDefinitions.defineInto(catalogue);
        LogKeyDefinitions.defineInto(catalogue);
        ClusterKeyDefinitions.defineMembership(catalogue);
        GroupAndOffsetKeyDefinitions.defineInto(catalogue);
        ReplicationKeyDefinitions.defineFetching(catalogue);
        QuotaAndMetricsKeyDefinitions.defineQuotaWindows(catalogue);
        ReplicationKeyDefinitions.defineIsrLeadershipAndShutdown(catalogue);
        ClusterKeyDefinitions.defineControllerAndInterBrokerListener(catalogue);
        MoveKeyDefinitions.defineInto(catalogue);
        QuotaAndMetricsKeyDefinitions.defineHttpAndMetrics(catalogue);
        ReplicationKeyDefinitions.defineThrottles(catalogue);
        SecurityKeyDefinitions.defineInto(catalogue);
        return catalogue.keys();
    }

    /** All broker keys, in documentation order. */
    static List<ConfigKey> all() {
        return List.copyOf(KEYS.values());
    }

    /** The key named {@code name}, or null. */
    static ConfigKey byName(String name) {
        return KEYS.get(name);
    }

    /** Refuses a name that is not a broker key. */
    static void requireKnown(String name) {
        if (byName(name) == null) {
            throw new IllegalArgumentException("not a broker configuration key: " + name);
        }
    }
}
