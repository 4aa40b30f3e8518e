package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.CONTROLLED_SHUTDOWN_ENABLE;
import static io.sluice.broker.config.BrokerConfigKeys.CONTROLLED_SHUTDOWN_MAX_RETRIES;
import static io.sluice.broker.config.BrokerConfigKeys.CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS;
import static io.sluice.broker.config.BrokerConfigKeys.NUM_REPLICA_FETCHERS;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_FETCH_BACKOFF_MS;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_FETCH_MAX_BYTES;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_FETCH_MIN_BYTES;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_FETCH_RESPONSE_MAX_BYTES;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_FETCH_WAIT_MAX_MS;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_LAG_TIME_MAX_MS;
import static io.sluice.broker.config.BrokerConfigKeys.REPLICA_SOCKET_TIMEOUT_MS;

/**
 * The replication settings of a broker (Kafka's names and defaults; see {@link BrokerConfigKeys} for each key's
 * meaning). Immutable.
 */
public record ReplicaConfig(
        int numFetchers,
        int fetchMaxBytes,
        int fetchWaitMaxMs,
        int fetchMinBytes,
        int fetchResponseMaxBytes,
        int fetchBackoffMs,
        long lagTimeMaxMs,
        int socketTimeoutMs,
        long highWatermarkCheckpointIntervalMs,
        boolean controlledShutdownEnable,
        int controlledShutdownMaxRetries,
        long controlledShutdownRetryBackoffMs) {

    public static ReplicaConfig of(BrokerConfig config) {
        return new ReplicaConfig(
                config.integer(NUM_REPLICA_FETCHERS),
                config.integer(REPLICA_FETCH_MAX_BYTES),
                config.integer(REPLICA_FETCH_WAIT_MAX_MS),
                config.integer(REPLICA_FETCH_MIN_BYTES),
                config.integer(REPLICA_FETCH_RESPONSE_MAX_BYTES),
                config.integer(REPLICA_FETCH_BACKOFF_MS),
                config.longValue(REPLICA_LAG_TIME_MAX_MS),
                Math.max(config.integer(REPLICA_SOCKET_TIMEOUT_MS), config.integer(REPLICA_FETCH_WAIT_MAX_MS) + 1_000),
                config.longValue(REPLICA_HIGH_WATERMARK_CHECKPOINT_INTERVAL_MS),
                config.bool(CONTROLLED_SHUTDOWN_ENABLE),
                config.integer(CONTROLLED_SHUTDOWN_MAX_RETRIES),
                config.longValue(CONTROLLED_SHUTDOWN_RETRY_BACKOFF_MS));
    }
}
