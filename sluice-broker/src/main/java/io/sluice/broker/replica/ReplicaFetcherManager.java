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

    /** A partition being caught up by its own fetcher before it joins the shared one towards its leader. */
    private record CatchingUp(ReplicaFetcher fetcher, int leaderId, InetSocketAddress leaderAddress, int leaderEpoch) {}

    private final int selfId;
    private final ReplicaConfig config;
    private final FetcherSetup setup;
    private final Map<FetcherKey, ReplicaFetcher> fetchers = new HashMap<>();
    private final Map<Partition, FetcherKey> assigned = new HashMap<>();
    private final Map<Partition, CatchingUp> catchingUp = new HashMap<>();
    private boolean closed;

    public ReplicaFetcherManager(
            int selfId,
            ReplicaConfig config,
            LongSupplier clock,
            ReplicationThrottling throttling,
            ClientSecurity security) {
        this.selfId = selfId;
        this.config = config;
        this.setup = new FetcherSetup(selfId, config, new FollowerAppender(), clock, throttling, security);
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
                    "sluice-replica-fetcher-" + selfId + "-from-" + leaderId + "-" + key.index(), leaderAddress, setup);
            fetchers.put(key, fetcher);
            fetcher.add(partition, leaderEpoch);
            fetcher.start();
        } else {
            fetcher.retarget(leaderAddress);
            fetcher.add(partition, leaderEpoch);
        }
        assigned.put(partition, key);
    }

    /**
     * {@link #follow}, for a partition whose log a move has just filled: it is first fetched by a fetcher of its own,
     * without a long poll, until it has what the leader has (and the leader can take it into the ISR), and then by the
     * shared fetcher. The shared fetcher may be in a long poll for other partitions on the same leader for up to
     * {@code replica.fetch.wait.max.ms}, which would otherwise delay the end of the move by as much.
     */
    public synchronized void followCaughtUpFirst(
            Partition partition, int leaderId, InetSocketAddress leaderAddress, int leaderEpoch) {
        if (closed) {
            return;
        }
        unfollow(partition);
        ReplicaFetcher fetcher = ReplicaFetcher.catchUp(
                "sluice-replica-catch-up-" + selfId + "-from-" + leaderId + "-" + partition,
                leaderAddress,
                setup,
                partition,
                leaderEpoch,
                this::caughtUp);
        catchingUp.put(partition, new CatchingUp(fetcher, leaderId, leaderAddress, leaderEpoch));
        fetcher.start();
    }

    /** A catch-up fetcher is done: its partition goes to the shared fetcher, unless it was unfollowed meanwhile. */
    private synchronized void caughtUp(ReplicaFetcher fetcher, Partition partition) {
        CatchingUp current = catchingUp.get(partition);
        if (current == null || current.fetcher() != fetcher) {
            return;
        }
        catchingUp.remove(partition);
        fetcher.remove(partition);
        follow(partition, current.leaderId(), current.leaderAddress(), current.leaderEpoch());
    }

    /** Stops fetching {@code partition}; returns once no fetched data is being applied to it. */
    public synchronized void unfollow(Partition partition) {
        CatchingUp caught = catchingUp.remove(partition);
        if (caught != null) {
            // remove() waits for an answer being applied; stop() does not wait for the thread, which may be about
            // to call caughtUp and block on this manager.
            caught.fetcher().remove(partition);
            caught.fetcher().stop();
        }
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
        for (CatchingUp caught : catchingUp.values()) {
            caught.fetcher().stop();
        }
        catchingUp.clear();
        for (ReplicaFetcher fetcher : fetchers.values()) {
            fetcher.shutdown();
        }
        fetchers.clear();
        assigned.clear();
    }
}
