package io.sluice.broker.replica;

import io.sluice.broker.config.ReplicaConfig;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.broker.topic.Partition;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The follower side of replication on this broker: which fetcher fetches which followed partition. Partitions on
 * one leader are spread over {@code num.replica.fetchers} fetchers by topic and partition, so one leader costs at
 * most that many connections and long polls, however many partitions it leads.
 *
 * <p>Thread-safe: every method is synchronized; fetchers run on their own threads.
 */
public final class ReplicaFetcherManager implements AutoCloseable {
    private record FetcherKey(int leaderId, int index) {}

    private final int selfId;
    private final ReplicaConfig config;
    private final FollowerAppender appender = new FollowerAppender();
    private final LongSupplier clock;
    private final ReplicationThrottling throttling;
    private final ClientSecurity security;
    private final Map<FetcherKey, ReplicaFetcher> fetchers = new HashMap<>();
    private final Map<Partition, FetcherKey> assigned = new HashMap<>();
    private boolean closed;

    public ReplicaFetcherManager(
            int selfId,
            ReplicaConfig config,
            LongSupplier clock,
            ReplicationThrottling throttling,
            ClientSecurity security) {
        this.selfId = selfId;
        this.throttling = throttling;
        this.security = security;
        this.config = config;
        this.clock = clock;
    }

    /** Fetches {@code partition} from broker {@code leaderId} at {@code leaderAddress} in {@code leaderEpoch}. */
    public synchronized void follow(
            Partition partition, int leaderId, InetSocketAddress leaderAddress, int leaderEpoch) {
        if (closed) {
            return;
        }
        unfollow(partition);
        FetcherKey key = new FetcherKey(
                leaderId,
                Math.floorMod(Objects.hash(partition.topic().name(), partition.index()), config.numFetchers()));
        ReplicaFetcher fetcher = fetchers.get(key);
        if (fetcher == null) {
            fetcher = new ReplicaFetcher(
                    "sluice-replica-fetcher-" + selfId + "-from-" + leaderId + "-" + key.index(),
                    selfId,
                    leaderAddress,
                    config,
                    appender,
                    clock,
                    throttling,
                    security);
            fetchers.put(key, fetcher);
            fetcher.add(partition, leaderEpoch);
            fetcher.start();
        } else {
            fetcher.retarget(leaderAddress);
            fetcher.add(partition, leaderEpoch);
        }
        assigned.put(partition, key);
    }

    /** Stops fetching {@code partition}; returns once no fetched data is being applied to it. */
    public synchronized void unfollow(Partition partition) {
        FetcherKey key = assigned.remove(partition);
        if (key == null) {
            return;
        }
        ReplicaFetcher fetcher = fetchers.get(key);
        fetcher.remove(partition);
        if (fetcher.isEmpty()) {
            fetchers.remove(key);
            fetcher.shutdown();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (ReplicaFetcher fetcher : fetchers.values()) {
            fetcher.shutdown();
        }
        fetchers.clear();
        assigned.clear();
    }
}
