package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;
import static io.sluice.broker.config.ConfigType.BOOLEAN;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.LONG;
import static io.sluice.broker.config.ConfigValidator.ANY;
import static io.sluice.broker.config.ConfigValidator.atLeast;
import static io.sluice.broker.config.ConfigValidator.between;

/**
 * The broker keys of replication: the follower's fetching, the ISR, leader election and balance, controlled shutdown,
 * and the replication throttles. Part of the catalogue {@link BrokerConfigKeys} assembles; the order of the definitions
 * is the documentation order.
 * Stateless; thread-safe.
 */
final class ReplicationKeyDefinitions {
    private ReplicationKeyDefinitions() {}

    /** How followers fetch; these follow the group and offset keys. */
    static void defineFetching(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                NUM_REPLICA_FETCHERS,
                INT,
                "1",
                "Fetcher threads per leader broker; a follower's partitions on one leader are spread over them.",
                atLeast(1));
        catalogue.define(
                REPLICA_FETCH_MAX_BYTES,
                INT,
                "1048576",
                "Bytes a follower asks per partition in one fetch (the first batch comes whole even when larger).",
                atLeast(0));
        catalogue.define(
                REPLICA_FETCH_WAIT_MAX_MS,
                INT,
                "500",
                "How long a follower's fetch waits at the leader for new data.",
                atLeast(0));
        catalogue.define(
                REPLICA_FETCH_MIN_BYTES,
                INT,
                "1",
                "Bytes a follower's fetch waits for before the leader answers.",
                atLeast(1));
        catalogue.define(
                REPLICA_FETCH_RESPONSE_MAX_BYTES,
                INT,
                "10485760",
                "Bytes a follower asks for in one fetch across its partitions.",
                atLeast(0));
        catalogue.define(
                REPLICA_FETCH_BACKOFF_MS,
                INT,
                "1000",
                "Pause before a follower fetches a partition again after an error.",
                atLeast(0));
    }

    /** ISR membership, high watermark checkpoints, leader election and balance, controlled shutdown; these
     * follow the client quota windows. */
    static void defineIsrLeadershipAndShutdown(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                REPLICA_LAG_TIME_MAX_MS,
                LONG,
                "30000",
                "A follower not caught up with the leader for this long leaves the ISR; one that catches up rejoins.",
                atLeast(1));
        catalogue.define(
                REPLICA_SOCKET_TIMEOUT_MS,
                INT,
                "30000",
                "Bound on a follower's connect, send and wait for an answer (above replica.fetch.wait.max.ms).",
                atLeast(1));
        catalogue.define(
                REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS,
                LONG,
                "5000",
                "How often high watermarks are written to replication-offset-checkpoint in each log directory.",
                atLeast(1));
        catalogue.define(
                UNCLEAN_LEADER_ELECTION_ENABLE,
                BOOLEAN,
                "false",
                "Elect an out-of-sync replica when no ISR member is alive (acknowledged records may be lost); topics may override.",
                ANY);
        catalogue.define(
                AUTO_LEADER_REBALANCE_ENABLE,
                BOOLEAN,
                "true",
                "The controller moves leadership back to preferred replicas when imbalanced.",
                ANY);
        catalogue.define(
                LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS,
                LONG,
                "300",
                "How often the controller checks leader imbalance.",
                atLeast(1));
        catalogue.define(
                LEADER_IMBALANCE_PER_BROKER_PERCENTAGE,
                INT,
                "10",
                "Share of a broker's preferred partitions led elsewhere above which leadership moves back.",
                between(0, 100));
        catalogue.define(
                CONTROLLED_SHUTDOWN_ENABLE,
                BOOLEAN,
                "true",
                "On SIGTERM, ask the controller to move this broker's leaderships first.",
                ANY);
        catalogue.define(
                CONTROLLED_SHUTDOWN_MAX_RETRIES,
                INT,
                "3",
                "Attempts at a controlled shutdown before the broker stops anyway.",
                atLeast(0));
        catalogue.define(
                CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS,
                LONG,
                "5000",
                "Pause between controlled shutdown attempts.",
                atLeast(0));
    }

    /** The replication throttles (KIP-73); these follow the HTTP and metrics keys. */
    static void defineThrottles(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                LEADER_REPLICATION_THROTTLED_RATE,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Bytes/s this broker sends as leader for the partitions in leader.replication.throttled.replicas (KIP-73).",
                atLeast(1));
        catalogue.define(
                FOLLOWER_REPLICATION_THROTTLED_RATE,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Bytes/s this broker fetches as follower for the partitions in follower.replication.throttled.replicas.",
                atLeast(1));
        catalogue.define(
                REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND,
                LONG,
                String.valueOf(Long.MAX_VALUE),
                "Kafka's throttle of replica moves between one broker's log directories; Sluice makes no such moves, so only the default (no limit) is accepted.",
                ReplicationKeyDefinitions::ensureNoLogDirThrottle);
    }

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
}
