package io.sluice.broker.config;

import static io.sluice.broker.config.ConfigType.BOOLEAN;
import static io.sluice.broker.config.ConfigType.DOUBLE;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.LIST;
import static io.sluice.broker.config.ConfigType.LONG;
import static io.sluice.broker.config.ConfigType.PASSWORD;
import static io.sluice.broker.config.ConfigType.STRING;
import static io.sluice.broker.config.ConfigValidator.ANY;
import static io.sluice.broker.config.ConfigValidator.atLeast;
import static io.sluice.broker.config.ConfigValidator.between;
import static io.sluice.broker.config.ConfigValidator.inRange;
import static io.sluice.broker.config.ConfigValidator.nonEmpty;
import static io.sluice.broker.config.ConfigValidator.nonEmptyListOf;
import static io.sluice.broker.config.ConfigValidator.oneOf;

import io.sluice.log.LogConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every broker key Sluice uses, with Apache Kafka's names and (unless noted) Kafka's defaults.
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
    public static final String MOVE_SOCKET_SEND_BUFFER_BYTES = "sluice.move.socket.send.buffer.bytes";
    public static final String MOVE_CHUNKS_IN_FLIGHT = "sluice.move.chunks.in.flight";
    public static final String MOVE_MAX_CONCURRENT_PER_BROKER = "sluice.move.max.concurrent.per.broker";
    public static final String MOVE_PIN_TIMEOUT_MS = "sluice.move.pin.timeout.ms";
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

    private static final Map<String, ConfigKey> KEYS = new LinkedHashMap<>();

    static {
        define(
                BROKER_ID,
                INT,
                "0",
                "Id of this broker in the cluster; node.id is read when broker.id is absent.",
                atLeast(0));
        define(
                LISTENERS,
                LIST,
                "PLAINTEXT://127.0.0.1:9092",
                "Comma list of NAME://HOST:PORT to bind, each served with the security protocol its name maps to; port 0 picks a free port.",
                nonEmpty());
        define(
                ADVERTISED_LISTENERS,
                LIST,
                null,
                "Comma list of NAME://HOST:PORT registered for each listener name; a request is answered with the brokers' endpoints of the listener it arrived on; unset means the listeners.",
                ANY);
        define(
                LISTENER_SECURITY_PROTOCOL_MAP,
                STRING,
                "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL",
                "Maps listener names to PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.",
                ANY);
        define(LOG_DIRS, LIST, null, "Comma list of directories holding partition logs; unset means log.dir.", ANY);
        define(
                LOG_DIR,
                STRING,
                "./data",
                "Directory holding partition logs when log.dirs is unset (relative to the working directory).",
                nonEmpty());
        define(
                NUM_PARTITIONS,
                INT,
                "1",
                "Partitions of an auto-created topic or of CreateTopics with -1 partitions.",
                atLeast(1));
        define(
                DEFAULT_REPLICATION_FACTOR,
                INT,
                "1",
                "Replication factor of auto-created topics and of CreateTopics with -1.",
                atLeast(1));
        define(
                MIN_INSYNC_REPLICAS,
                INT,
                "1",
                "In-sync replicas an acks=-1 produce needs before it is acknowledged.",
                atLeast(1));
        define(
                AUTO_CREATE_TOPICS_ENABLE,
                BOOLEAN,
                "true",
                "Create a topic when a producer or metadata request names an unknown one.",
                ANY);
        define(DELETE_TOPIC_ENABLE, BOOLEAN, "true", "Allow DeleteTopics; when false, deletes are refused.", ANY);
        define(
                MESSAGE_MAX_BYTES,
                INT,
                "1048588",
                "Largest record batch a producer may send, after compression.",
                atLeast(0));
        define(
                SOCKET_REQUEST_MAX_BYTES,
                INT,
                "104857600",
                "Largest request frame; larger or negative frame lengths close the connection.",
                atLeast(1));
        define(
                SOCKET_SEND_BUFFER_BYTES,
                INT,
                "102400",
                "SO_SNDBUF of client sockets; -1 leaves the OS default.",
                atLeast(-1));
        define(
                SOCKET_RECEIVE_BUFFER_BYTES,
                INT,
                "102400",
                "SO_RCVBUF of client sockets; -1 leaves the OS default.",
                atLeast(-1));
        define(
                CONNECTIONS_MAX_IDLE_MS,
                LONG,
                "600000",
                "Idle connections are closed after this many milliseconds.",
                atLeast(1));
        define(
                NUM_NETWORK_THREADS,
                INT,
                "3",
                "Threads reading requests from and writing responses to sockets.",
                atLeast(1));
        define(NUM_IO_THREADS, INT, "8", "Threads handling requests (including disk I/O).", atLeast(1));
        define(
                LOG_SEGMENT_BYTES,
                INT,
                "1073741824",
                "A segment rolls when appending would make it larger than this.",
                atLeast(MIN_SEGMENT_BYTES));
        define(
                LOG_ROLL_MS,
                LONG,
                null,
                "A segment rolls when its first record is this old; unset means log.roll.hours.",
                atLeast(1));
        define(
                LOG_ROLL_HOURS,
                INT,
                "168",
                "A segment rolls when its first record is this many hours old (when log.roll.ms is unset).",
                atLeast(1));
        define(
                LOG_RETENTION_MS,
                LONG,
                null,
                "Delete segments older than this; -1 keeps forever; unset means log.retention.minutes.",
                atLeast(-1));
        define(
                LOG_RETENTION_MINUTES,
                INT,
                null,
                "Retention in minutes when log.retention.ms is unset; unset means log.retention.hours.",
                atLeast(-1));
        define(
                LOG_RETENTION_HOURS,
                INT,
                "168",
                "Retention in hours when log.retention.ms and log.retention.minutes are unset.",
                atLeast(-1));
        define(
                LOG_RETENTION_BYTES,
                LONG,
                "-1",
                "Delete oldest segments while a partition is larger than this; -1 means no size limit.",
                atLeast(-1));
        define(LOG_RETENTION_CHECK_INTERVAL_MS, LONG, "300000", "How often retention is checked.", atLeast(1));
        define(
                LOG_INDEX_INTERVAL_BYTES,
                INT,
                "4096",
                "Bytes of records between two entries of the sparse offset index.",
                atLeast(0));
        define(
                LOG_INDEX_SIZE_MAX_BYTES,
                INT,
                "10485760",
                "Largest offset or time index file; a full index rolls the segment.",
                atLeast(MIN_INDEX_BYTES));
        define(
                LOG_FLUSH_INTERVAL_MESSAGES,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "fsync a partition after this many records (1 = every batch); the default leaves flushing to the OS.",
                atLeast(1));
        define(
                LOG_FLUSH_INTERVAL_MS,
                LONG,
                null,
                "fsync a partition when its oldest unflushed record is this old; unset means log.flush.scheduler.interval.ms.",
                atLeast(0));
        define(
                LOG_FLUSH_SCHEDULER_INTERVAL_MS,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "How often the flusher checks whether a partition needs an fsync by time.",
                atLeast(0));
        define(
                LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS,
                INT,
                "60000",
                "How often the recovery point checkpoint is written.",
                atLeast(0));
        define(
                LOG_SEGMENT_DELETE_DELAY_MS,
                LONG,
                "60000",
                "Delay between removing a segment from the log and deleting its files.",
                atLeast(0));
        define(
                LOG_MESSAGE_TIMESTAMP_TYPE,
                STRING,
                "CreateTime",
                "CreateTime keeps producer timestamps; LogAppendTime stamps the broker's clock.",
                oneOf(TIMESTAMP_TYPES));
        define(
                LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Refuse CreateTime timestamps further than this in the past.",
                atLeast(0));
        define(
                LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Refuse CreateTime timestamps further than this in the future.",
                atLeast(0));
        define(
                COMPRESSION_TYPE,
                STRING,
                "producer",
                "Stored compression: producer keeps the producer's codec; uncompressed, gzip, snappy, lz4 or zstd recompress.",
                oneOf(BROKER_COMPRESSION_TYPES));
        define(
                LOG_CLEANUP_POLICY,
                LIST,
                "delete",
                "Default cleanup policy of topics: delete and/or compact.",
                nonEmptyListOf(CLEANUP_POLICIES));
        define(
                LOG_CLEANER_ENABLE,
                BOOLEAN,
                "true",
                "Run the log cleaner, which compacts topics with cleanup.policy compact.",
                ANY);
        define(LOG_CLEANER_THREADS, INT, "1", "Log cleaner threads: compacted logs cleaned at once.", atLeast(1));
        define(
                LOG_CLEANER_DEDUPE_BUFFER_SIZE,
                LONG,
                "134217728",
                "Memory of the cleaners' key-to-offset maps (24 bytes a key), split over the threads; bounds the dirty log one clean covers.",
                atLeast(24 * 1024));
        define(
                LOG_CLEANER_IO_BUFFER_LOAD_FACTOR,
                DOUBLE,
                "0.9",
                "How full a cleaner's key map may get before its clean stops mapping.",
                inRange(0.01, 1.0));
        define(
                LOG_CLEANER_IO_BUFFER_SIZE,
                INT,
                "524288",
                "Read and write buffer of each cleaner thread (grown for a larger batch).",
                atLeast(4096));
        define(
                LOG_CLEANER_IO_MAX_BYTES_PER_SECOND,
                DOUBLE,
                String.valueOf(Double.MAX_VALUE),
                "Bytes per second the cleaner threads read and write together; the default is unlimited.",
                inRange(1, Double.MAX_VALUE));
        define(
                LOG_CLEANER_BACKOFF_MS,
                LONG,
                "15000",
                "Pause of a cleaner thread that found no log to clean.",
                atLeast(0));
        define(
                LOG_CLEANER_MIN_CLEANABLE_RATIO,
                DOUBLE,
                "0.5",
                "Default min.cleanable.dirty.ratio: a log is cleaned once this share of its cleanable bytes is dirty.",
                inRange(0, 1));
        define(
                LOG_CLEANER_DELETE_RETENTION_MS,
                LONG,
                "86400000",
                "Default delete.retention.ms: how long a tombstone stays readable after the cleaner first keeps it.",
                atLeast(0));
        define(
                LOG_CLEANER_MIN_COMPACTION_LAG_MS,
                LONG,
                "0",
                "Default min.compaction.lag.ms: a record stays uncompacted at least this long.",
                atLeast(0));
        define(
                LOG_CLEANER_MAX_COMPACTION_LAG_MS,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Default max.compaction.lag.ms: a record becomes cleanable at most this long after it is written.",
                atLeast(1));
        define(
                ZOOKEEPER_CONNECT,
                STRING,
                null,
                "ZooKeeper connect string of the cluster; unset starts an embedded ZooKeeper.",
                nonEmpty());
        define(
                ZOOKEEPER_SESSION_TIMEOUT_MS,
                INT,
                "18000",
                "A broker silent this long is removed from the cluster and its partitions go offline; a paused controller is fenced.",
                atLeast(4000));
        define(
                ZOOKEEPER_CONNECTION_TIMEOUT_MS,
                INT,
                "15000",
                "How long the broker waits for ZooKeeper at start.",
                atLeast(1));
        define(
                ZOOKEEPER_EMBEDDED_PORT,
                INT,
                "0",
                "Port on 127.0.0.1 of the embedded ZooKeeper (used when zookeeper.connect is unset); 0 picks a free one.",
                atLeast(0));
        define(
                BROKER_RACK,
                STRING,
                "",
                "Rack of this broker; topic creation spreads a partition's replicas over racks.",
                ANY);
        define(
                CLUSTER_ID,
                STRING,
                null,
                "Cluster id reported to clients; unset means generated once and stored in the data directory.",
                nonEmpty());
        define(
                GROUP_INITIAL_REBALANCE_DELAY_MS,
                INT,
                "3000",
                "How long a new consumer group waits for more members before its first rebalance.",
                atLeast(0));
        define(
                GROUP_MIN_SESSION_TIMEOUT_MS,
                INT,
                "6000",
                "Smallest session timeout a consumer may ask for.",
                atLeast(0));
        define(
                GROUP_MAX_SESSION_TIMEOUT_MS,
                INT,
                "1800000",
                "Largest session timeout a consumer may ask for.",
                atLeast(0));
        define(
                GROUP_MAX_SIZE,
                INT,
                String.valueOf(Integer.MAX_VALUE),
                "Most members one consumer group may have.",
                atLeast(1));
        define(
                OFFSETS_TOPIC_NUM_PARTITIONS,
                INT,
                "50",
                "Partitions of the committed-offsets topic (fixed once created).",
                atLeast(1));
        define(
                OFFSETS_TOPIC_REPLICATION_FACTOR,
                INT,
                "3",
                "Replication factor of the committed-offsets topic, capped to the live brokers when it is created.",
                atLeast(1));
        define(
                OFFSETS_COMMIT_TIMEOUT_MS,
                INT,
                "5000",
                "How long a commit or group change waits for every in-sync replica before it fails as timed out.",
                atLeast(1));
        define(
                OFFSETS_RETENTION_MINUTES,
                INT,
                "10080",
                "Committed offsets of an empty group are kept this long.",
                atLeast(1));
        define(
                OFFSETS_RETENTION_CHECK_INTERVAL_MS,
                LONG,
                "600000",
                "How often expired committed offsets are removed.",
                atLeast(1));
        define(
                PRODUCER_ID_EXPIRATION_MS,
                INT,
                "86400000",
                "Idempotent producer state is dropped after this long without a write.",
                atLeast(1));
        define(
                NUM_REPLICA_FETCHERS,
                INT,
                "1",
                "Fetcher threads per leader broker; a follower's partitions on one leader are spread over them.",
                atLeast(1));
        define(
                REPLICA_FETCH_MAX_BYTES,
                INT,
                "1048576",
                "Bytes a follower asks per partition in one fetch (the first batch comes whole even when larger).",
                atLeast(0));
        define(
                REPLICA_FETCH_WAIT_MAX_MS,
                INT,
                "500",
                "How long a follower's fetch waits at the leader for new data.",
                atLeast(0));
        define(
                REPLICA_FETCH_MIN_BYTES,
                INT,
                "1",
                "Bytes a follower's fetch waits for before the leader answers.",
                atLeast(1));
        define(
                REPLICA_FETCH_RESPONSE_MAX_BYTES,
                INT,
                "10485760",
                "Bytes a follower asks for in one fetch across its partitions.",
                atLeast(0));
        define(
                REPLICA_FETCH_BACKOFF_MS,
                INT,
                "1000",
                "Pause before a follower fetches a partition again after an error.",
                atLeast(0));
        define(
                QUOTA_WINDOW_NUM,
                INT,
                "11",
                "Samples a client quota's rate is measured over (Kafka's default: ten whole windows and the current one).",
                atLeast(1));
        define(
                QUOTA_WINDOW_SIZE_SECONDS,
                INT,
                "1",
                "Length of each sample of a client quota's rate, in seconds.",
                atLeast(1));
        define(
                REPLICA_LAG_TIME_MAX_MS,
                LONG,
                "30000",
                "A follower not caught up with the leader for this long leaves the ISR; one that catches up rejoins.",
                atLeast(1));
        define(
                REPLICA_SOCKET_TIMEOUT_MS,
                INT,
                "30000",
                "Bound on a follower's connect, send and wait for an answer (above replica.fetch.wait.max.ms).",
                atLeast(1));
        define(
                REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS,
                LONG,
                "5000",
                "How often high watermarks are written to replication-offset-checkpoint in each log directory.",
                atLeast(1));
        define(
                UNCLEAN_LEADER_ELECTION_ENABLE,
                BOOLEAN,
                "false",
                "Elect an out-of-sync replica when no ISR member is alive (acknowledged records may be lost); topics may override.",
                ANY);
        define(
                AUTO_LEADER_REBALANCE_ENABLE,
                BOOLEAN,
                "true",
                "The controller moves leadership back to preferred replicas when imbalanced.",
                ANY);
        define(
                LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS,
                LONG,
                "300",
                "How often the controller checks leader imbalance.",
                atLeast(1));
        define(
                LEADER_IMBALANCE_PER_BROKER_PERCENTAGE,
                INT,
                "10",
                "Share of a broker's preferred partitions led elsewhere above which leadership moves back.",
                between(0, 100));
        define(
                CONTROLLED_SHUTDOWN_ENABLE,
                BOOLEAN,
                "true",
                "On SIGTERM, ask the controller to move this broker's leaderships first.",
                ANY);
        define(
                CONTROLLED_SHUTDOWN_MAX_RETRIES,
                INT,
                "3",
                "Attempts at a controlled shutdown before the broker stops anyway.",
                atLeast(0));
        define(
                CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS,
                LONG,
                "5000",
                "Pause between controlled shutdown attempts.",
                atLeast(0));
        define(
                CONTROLLER_RETRY_BACKOFF_MS,
                LONG,
                "500",
                "Pause before the controller retries a take-over or a membership update that failed (ZooKeeper busy or unreachable); short, as brokers wait for it.",
                atLeast(1));
        define(
                CONTROLLER_WAIT_MS,
                LONG,
                "30000",
                "Longest a topic change (CreateTopics, DeleteTopics, CreatePartitions) waits for the controller and for this broker to apply it before REQUEST_TIMED_OUT; a controller failover fits in it.",
                atLeast(1));
        define(
                CONTROLLER_FORWARD_WAIT_MS,
                LONG,
                "20000",
                "How long a change forwarded to the controller (configs, client quotas, ACLs, SCRAM credentials) is retried while no controller takes it, like Kafka's forwarding timeout: a failover fits in it.",
                atLeast(0));
        define(
                CONTROLLER_FORWARD_RETRY_BACKOFF_MS,
                LONG,
                "250",
                "Pause between two attempts of a forwarded change that found no controller.",
                atLeast(1));
        define(
                CONTROLLER_FORWARD_REQUEST_TIMEOUT_MS,
                INT,
                "15000",
                "Request timeout of the admin client that forwards topic auto-creation to the controller (its API timeout is twice this).",
                atLeast(1));
        define(
                INTER_BROKER_LISTENER_NAME,
                STRING,
                null,
                "Advertised listener brokers use to reach each other (replication, controller channel, moves); unset: the one security.inter.broker.protocol names, else the first advertised listener.",
                nonEmpty());
        define(
                SECURITY_INTER_BROKER_PROTOCOL,
                STRING,
                null,
                "Security protocol of the inter-broker listener: the listener of that name is used; set at most one of it and inter.broker.listener.name (unset, unlike Kafka's PLAINTEXT default: see inter.broker.listener.name).",
                nonEmpty());
        define(
                MOVE_FILE_TRANSFER_ENABLE,
                BOOLEAN,
                "true",
                "A new replica of a moved partition starts from an in-sync replica's segment files, then fetches the tail; false: it fetches every record (Kafka's way).",
                ANY);
        define(
                MOVE_DIRECT_IO_ENABLE,
                BOOLEAN,
                "true",
                "A move's target writes the segment bytes it receives with O_DIRECT where the file system allows it: the bytes go from its receive buffer to the disk without a copy into the page cache (one memory copy per byte less, no dirty pages to flush at the segment's fsync); false: buffered writes, as everywhere else. Falls back to buffered writes on a file system that refuses O_DIRECT.",
                ANY);
        define(
                MOVE_SOCKET_SEND_BUFFER_BYTES,
                INT,
                "4194304",
                "SO_SNDBUF a connection takes when it starts answering a partition move's chunk requests, in place of socket.send.buffer.bytes: with Kafka's 100 KiB each chunk goes out in many rounds of sendfile and a wait for the socket to drain; -1 keeps socket.send.buffer.bytes.",
                atLeast(-1));
        define(
                MOVE_CHUNK_BYTES,
                INT,
                "4194304",
                "Bytes per checksummed chunk of a partition move: the most a broken transfer or a bad checksum sends again. Each chunk costs a request, an answer and their bookkeeping on both brokers whatever its size; 4 MiB keeps that under a few hundred per GB.",
                atLeast(4096));
        define(
                MOVE_CHUNKS_IN_FLIGHT,
                INT,
                "4",
                "Chunk requests a move's target keeps outstanding on its transfer connection, so the source's disk, its checksum and the wire overlap instead of taking turns.",
                between(1, 64));
        define(
                MOVE_MAX_CONCURRENT_PER_BROKER,
                INT,
                "2",
                "Partition moves a broker serves as source, and runs as target, at once; each streams at disk speed.",
                atLeast(1));
        define(
                MOVE_PIN_TIMEOUT_MS,
                LONG,
                "60000",
                "How long a source keeps a move's segments pinned after its connection is gone, so the target can resume.",
                atLeast(0));
        define(
                MOVE_RETRY_BACKOFF_MS,
                LONG,
                "1000",
                "Pause after every source of a move failed before they are tried again.",
                atLeast(0));
        define(
                MOVE_MAX_IDLE_ROUNDS,
                INT,
                "5",
                "Rounds over all sources without a verified byte after which a move fails and its staging is removed.",
                atLeast(1));
        define(
                MOVE_FREE_SPACE_MARGIN_BYTES,
                LONG,
                "268435456",
                "A reassignment is refused up front when a new replica's broker would keep less than this many bytes free after taking the partition (its tail still grows).",
                atLeast(0));
        define(
                HTTP_LISTENER,
                STRING,
                null,
                "host:port (a bare port binds 127.0.0.1) of the HTTP listener serving Prometheus metrics at /metrics; unset: no HTTP listener.",
                (key, value) -> HttpListenerAddress.parse((String) value));
        define(
                HTTP_AUTHENTICATION,
                STRING,
                "none",
                "basic: the HTTP listener asks for HTTP Basic credentials, checked against the PLAIN and SCRAM accounts the Kafka listeners accept; none: no login (the listener binds 127.0.0.1 unless told otherwise).",
                oneOf("none", "basic"));
        define(
                METRICS_ENABLE,
                BOOLEAN,
                "true",
                "false makes the per-request, per-topic and produce-validation metrics no-ops (their MBeans stay at zero), to measure what they cost.",
                ANY);
        define(
                LEADER_REPLICATION_THROTTLED_RATE,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Bytes/s this broker sends as leader for the partitions in leader.replication.throttled.replicas (KIP-73).",
                atLeast(1));
        define(
                FOLLOWER_REPLICATION_THROTTLED_RATE,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Bytes/s this broker fetches as follower for the partitions in follower.replication.throttled.replicas.",
                atLeast(1));
        define(
                REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Kafka's throttle of replica moves between one broker's log directories; Sluice makes no such moves, so only the default (no limit) is accepted.",
                BrokerConfigKeys::ensureNoLogDirThrottle);
        defineSecurityKeys();
    }

    /** TLS and SASL keys; each may be given per listener as listener.name.<name>.<key>. */
    private static void defineSecurityKeys() {
        define(
                SSL_KEYSTORE_TYPE,
                STRING,
                "JKS",
                "Format of the key store: JKS or PKCS12 (Kafka's default).",
                oneOf("JKS", "PKCS12"));
        define(
                SSL_KEYSTORE_LOCATION,
                STRING,
                null,
                "Key store holding this broker's TLS key and certificate; required on SSL and SASL_SSL listeners (unset means none).",
                ANY);
        define(
                SSL_KEYSTORE_PASSWORD,
                PASSWORD,
                null,
                "Password of the key store; unset means the store is read without one.",
                ANY);
        define(
                SSL_KEY_PASSWORD,
                PASSWORD,
                null,
                "Password of the private key in the key store; unset means the key store password.",
                ANY);
        define(SSL_TRUSTSTORE_TYPE, STRING, "JKS", "Format of the trust store: JKS or PKCS12.", oneOf("JKS", "PKCS12"));
        define(
                SSL_TRUSTSTORE_LOCATION,
                STRING,
                null,
                "Trust store for client certificates and for the brokers this one connects to; unset means the JDK's CAs.",
                ANY);
        define(
                SSL_TRUSTSTORE_PASSWORD,
                PASSWORD,
                null,
                "Password of the trust store; unset means the store is read without one.",
                ANY);
        define(
                SSL_CLIENT_AUTH,
                STRING,
                "none",
                "required: clients must present a trusted certificate (mTLS); requested: they may; none: they are not asked.",
                oneOf("required", "requested", "none"));
        define(
                SSL_PROTOCOL,
                STRING,
                "TLSv1.3",
                "Protocol of the SSLContext (TLSv1.3 also negotiates TLSv1.2 when enabled).",
                nonEmpty());
        define(
                SSL_ENABLED_PROTOCOLS,
                LIST,
                "TLSv1.2,TLSv1.3",
                "TLS versions accepted; older ones are refused, as in Kafka.",
                nonEmpty());
        define(
                SSL_CIPHER_SUITES,
                LIST,
                "",
                "Cipher suites accepted; empty means the JDK's defaults for the enabled protocols.",
                ANY);
        define(
                SSL_ENDPOINT_IDENTIFICATION_ALGORITHM,
                STRING,
                "https",
                "How this broker checks the certificate of a broker it connects to: https checks the host name; empty does not.",
                ANY);
        define(
                SSL_PRINCIPAL_MAPPING_RULES,
                STRING,
                "DEFAULT",
                "Kafka's rules (RULE:pattern/replacement/[LU]) turning a client certificate's subject into the principal name.",
                nonEmpty());
        define(
                SASL_ENABLED_MECHANISMS,
                LIST,
                "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
                "SASL mechanisms offered on SASL listeners (Kafka defaults to GSSAPI, which Sluice does not implement).",
                nonEmptyListOf(new String[] {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}));
        define(
                SASL_MECHANISM_INTER_BROKER_PROTOCOL,
                STRING,
                "PLAIN",
                "Mechanism this broker logs in with on a SASL inter-broker listener (Kafka's default GSSAPI is not implemented).",
                oneOf("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"));
        define(
                SASL_JAAS_CONFIG,
                PASSWORD,
                null,
                "JAAS entry: user_<name>=\"<password>\" options are the accounts, username/password the broker's own login; "
                        + "listener.name.<l>.<mechanism>.sasl.jaas.config wins; unset means no accounts.",
                ANY);
        define(
                SASL_SERVER_MAX_RECEIVE_SIZE,
                INT,
                "524288",
                "Largest request frame before SASL authentication completes, so an unauthenticated peer cannot make the broker allocate.",
                atLeast(1));
        define(
                CONNECTION_FAILED_AUTHENTICATION_DELAY_MS,
                INT,
                "100",
                "A failed login is answered and closed after this delay, slowing password guessing.",
                atLeast(0));
        define(
                CONNECTIONS_MAX_REAUTH_MS,
                LONG,
                "0",
                "A SASL login lasts this long, then the client must log in again on its connection or be closed (KIP-368); 0 is forever.",
                atLeast(0));
        define(
                AUTHORIZER_CLASS_NAME,
                STRING,
                "",
                "Kafka's AclAuthorizer or StandardAuthorizer turns ACL checks on (either name, same semantics); empty: everyone may do anything.",
                oneOf("", ZK_ACL_AUTHORIZER, KRAFT_ACL_AUTHORIZER));
        define(
                SUPER_USERS,
                STRING,
                "",
                "Principals (User:name), separated by semicolons, that pass every ACL check; brokers log in as one on the inter-broker listener.",
                ANY);
        define(
                ALLOW_EVERYONE_IF_NO_ACL_FOUND,
                BOOLEAN,
                "false",
                "With an authorizer, a resource that no ACL names is open to everyone when true (Kafka's default false: closed).",
                ANY);
    }

    private BrokerConfigKeys() {}

    /**
     * Sluice has no AlterReplicaLogDirs, so a log-directory throttle would never act: a value is refused (INVALID_CONFIG
     * when altered), the default accepted and deleting it allowed, so Kafka's reassignment tool still clears it.
     */
    private static void ensureNoLogDirThrottle(String name, Object value) {
        if (((Long) value) != Long.MAX_VALUE) {
            throw new ConfigException(
                    name,
                    ConfigType.format(value),
                    "Sluice does not move replicas between log directories "
                            + "(AlterReplicaLogDirs), so it has no log directory throttle; only " + Long.MAX_VALUE
                            + " is accepted");
        }
    }

    /** All broker keys, in documentation order. */
    static List<ConfigKey> all() {
        return List.copyOf(KEYS.values());
    }

    /** The key named {@code name}, or null. */
    static ConfigKey byName(String name) {
        return KEYS.get(name);
    }

    private static void define(
            String name, ConfigType type, String defaultValue, String doc, ConfigValidator validator) {
        ConfigKey key = new ConfigKey(name, type, defaultValue, doc, validator);
        if (defaultValue != null) {
            key.parse(defaultValue);
        }
        if (KEYS.put(name, key) != null) {
            throw new IllegalStateException("duplicate configuration key " + name);
        }
    }
}
