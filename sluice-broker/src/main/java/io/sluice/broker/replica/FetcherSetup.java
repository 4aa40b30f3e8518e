package io.sluice.broker.replica;

import io.sluice.broker.config.ReplicaConfig;
import io.sluice.broker.security.ClientSecurity;
import java.util.function.LongSupplier;

/**
 * What every replica fetcher of one broker shares: who fetches ({@code selfId}), the replication settings, where
 * fetched batches are appended, the clock, the throttles and how to connect to a leader.
 *
 * <p>Immutable; thread-safe as its parts are.
 */
record FetcherSetup(
        int selfId,
        ReplicaConfig config,
        FollowerAppender appender,
        LongSupplier clock,
        ReplicationThrottling throttling,
        ClientSecurity security) {}
