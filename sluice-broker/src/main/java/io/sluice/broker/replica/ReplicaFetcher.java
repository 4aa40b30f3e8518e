package io.sluice.broker.replica;

import io.sluice.broker.config.ReplicaConfig;
import io.sluice.broker.interbroker.BrokerClient;
import io.sluice.broker.topic.Partition;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One follower fetch loop towards one leader broker: every partition this broker follows on that leader (or the
 * share of them {@code num.replica.fetchers} gives this fetcher) goes into one long-poll Fetch carrying this broker's
 * replica id, and each answer is appended as it arrived ({@link FollowerAppender}). A partition that fails (fenced
 * epoch, not the leader any more, storage error) waits {@code replica.fetch.backoff.ms} before it is fetched again;
 * a failed connection backs the whole fetcher off.
 *
 * <p>A catch-up fetcher ({@link #catchUp}) is the short-lived exception: one partition a move has just installed,
 * fetched on a connection of its own without a long poll until an answer brings nothing more (that fetch, at the
 * leader's log end, is what lets the leader take it into the ISR), then handed to the shared fetcher; so the end of a
 * move does not wait out another partition's long poll that the shared fetcher has in flight.
 *
 * <p>Thread-safe: partitions are added and removed from any thread; removal waits until an answer being applied to
 * the partition is done, so a partition that changed role is never written by a stale fetch.
 */
final class ReplicaFetcher implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcher.class);
    /** Fetch v15: topic ids, diverging epochs and the replica id in ReplicaState. */
    static final short FETCH_VERSION = 15;
    /** Bound on a catch-up fetcher's rounds: a partition written to all the time never gets an empty answer. */
    static final int CATCH_UP_MAX_ROUNDS = 20;

    /** Where a catch-up fetcher hands its partition when it is done (called on the catch-up fetcher's thread). */
    interface CatchUpDone {
        void caughtUp(ReplicaFetcher catchUp, Partition partition);
    }

    /** A followed partition: the leader epoch it is fetched in, and when it may be fetched again after a failure. */
    private static final class Followed {
        final int leaderEpoch;
        long retryAtMs;

        Followed(int leaderEpoch) {
            this.leaderEpoch = leaderEpoch;
        }
    }

    private final String name;
    private final int selfId;
    private final ReplicaConfig config;
    private final BrokerClient client;
    private final FollowerAppender appender;
    private final LongSupplier clock;
    private final ReplicationThrottling throttling;
    private final int maxWaitMs;
    /** Null for a shared fetcher; for a catch-up fetcher, where its partition goes when it is done. */
    private final CatchUpDone catchUpDone;

    private final Map<Partition, Followed> partitions = new ConcurrentHashMap<>();
    private final ReentrantLock applying = new ReentrantLock();
    private final Condition changed = applying.newCondition();
    /** Partitions added since start (guarded by {@code applying}): wakes a fetcher that found nothing to fetch. */
    private long additions;

    private volatile InetSocketAddress leaderAddress;
    private volatile boolean running = true;
    private Thread thread;

    /** A shared fetcher towards the leader at {@code leaderAddress} (not started). */
    ReplicaFetcher(String name, InetSocketAddress leaderAddress, FetcherSetup setup) {
        this(name, leaderAddress, setup, setup.config().fetchWaitMaxMs(), null);
    }

    /**
     * A catch-up fetcher for {@code partition} in {@code leaderEpoch} (not started): Fetch answers at once, and
     * {@code done} takes the partition after an answer that brought nothing, a failure, or
     * {@value #CATCH_UP_MAX_ROUNDS} rounds.
     */
    static ReplicaFetcher catchUp(
            String name,
            InetSocketAddress leaderAddress,
            FetcherSetup setup,
            Partition partition,
            int leaderEpoch,
            CatchUpDone done) {
        ReplicaFetcher fetcher = new ReplicaFetcher(name, leaderAddress, setup, 0, done);
        fetcher.add(partition, leaderEpoch);
        return fetcher;
    }

    private ReplicaFetcher(
            String name, InetSocketAddress leaderAddress, FetcherSetup setup, int maxWaitMs, CatchUpDone catchUpDone) {
        this.name = name;
        this.maxWaitMs = maxWaitMs;
        this.catchUpDone = catchUpDone;
        this.throttling = setup.throttling();
        this.selfId = setup.selfId();
        this.leaderAddress = leaderAddress;
        this.config = setup.config();
        this.appender = setup.appender();
        this.clock = setup.clock();
        this.client = new BrokerClient(
                name,
                config.fetchResponseMaxBytes() + config.fetchMaxBytes() + 64 * 1024,
                config.socketTimeoutMs(),
                setup.security());
    }

    void start() {
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The leader moved to another address (it restarted on a new port). */
    void retarget(InetSocketAddress address) {
        leaderAddress = address;
    }

    void add(Partition partition, int leaderEpoch) {
        applying.lock();
        try {
            partitions.put(partition, new Followed(leaderEpoch));
            additions++;
            changed.signalAll();
        } finally {
            applying.unlock();
        }
    }

    /** Stops fetching {@code partition}; returns once no answer is being applied to it. */
    void remove(Partition partition) {
        applying.lock();
        try {
            partitions.remove(partition);
        } finally {
            applying.unlock();
        }
    }

    boolean isEmpty() {
        return partitions.isEmpty();
    }

    @Override
    public void run() {
        if (catchUpDone != null) {
            catchUp();
            return;
        }
        while (running) {
            try {
                long additionsBefore = additions();
                if (!fetchOnce()) {
                    awaitWork(additionsBefore);
                }
            } catch (IOException e) {
                if (running) {
                    LOG.info(
                            "{}: fetching from {} failed ({}); retrying in {} ms",
                            name,
                            leaderAddress,
                            e.getMessage(),
                            config.fetchBackoffMs());
                    pause(config.fetchBackoffMs());
                }
            } catch (RuntimeException e) {
                LOG.error("{}: fetch round failed; retrying in {} ms", name, config.fetchBackoffMs(), e);
                pause(config.fetchBackoffMs());
            }
        }
        client.close();
    }

    /** The catch-up loop: rounds until one appends nothing (or fails), then the partition goes to the shared fetcher. */
    private void catchUp() {
        try {
            for (int round = 0; running && round < CATCH_UP_MAX_ROUNDS; round++) {
                Partition partition = onlyPartition();
                if (partition == null) {
                    break;
                }
                long before = partition.log().logEndOffset();
                if (!fetchOnce() || partition.log().logEndOffset() == before) {
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.info(
                    "{}: catching up from {} failed ({}); the shared fetcher goes on",
                    name,
                    leaderAddress,
                    e.toString());
        } finally {
            client.close();
        }
        Partition partition = onlyPartition();
        if (running && partition != null) {
            catchUpDone.caughtUp(this, partition);
        }
    }

    private Partition onlyPartition() {
        for (Partition p : partitions.keySet()) {
            return p;
        }
        return null;
    }

    /** Ends a catch-up fetcher without waiting for it (its thread may be waiting to hand its partition over). */
    void stop() {
        running = false;
    }

    /** One Fetch round trip; false when no partition is ready to fetch. */
    private boolean fetchOnce() throws IOException {
        long now = clock.getAsLong();
        Map<Uuid, Map<Integer, Partition>> byTopic = new HashMap<>();
        Map<Partition, Integer> epochs = new HashMap<>();
        FetchRequestData request = new FetchRequestData()
                .setReplicaState(
                        new FetchRequestData.ReplicaState().setReplicaId(selfId).setReplicaEpoch(-1))
                .setMaxWaitMs(maxWaitMs)
                .setMinBytes(config.fetchMinBytes())
                .setMaxBytes(config.fetchResponseMaxBytes())
                .setSessionId(0)
                .setSessionEpoch(-1);
        Map<Uuid, FetchRequestData.FetchTopic> topics = new HashMap<>();
        for (Map.Entry<Partition, Followed> e : partitions.entrySet()) {
            Partition p = e.getKey();
            Followed followed = e.getValue();
            if (followed.retryAtMs > now || throttling.holdsFollowerFetch(p)) {
                continue;
            }
            Uuid topicId = p.topic().id();
            topics.computeIfAbsent(topicId, id -> {
                        FetchRequestData.FetchTopic t = new FetchRequestData.FetchTopic().setTopicId(id);
                        request.topics().add(t);
                        return t;
                    })
                    .partitions()
                    .add(new FetchRequestData.FetchPartition()
                            .setPartition(p.index())
                            .setCurrentLeaderEpoch(followed.leaderEpoch)
                            .setFetchOffset(p.log().logEndOffset())
                            .setLastFetchedEpoch(p.log().latestEpoch())
                            .setLogStartOffset(p.log().logStartOffset())
                            .setPartitionMaxBytes(config.fetchMaxBytes()));
            byTopic.computeIfAbsent(topicId, id -> new HashMap<>()).put(p.index(), p);
            epochs.put(p, followed.leaderEpoch);
        }
        if (epochs.isEmpty()) {
            return false;
        }
        client.target(leaderAddress);
        ByteBuffer body = client.call(ApiKeys.FETCH, FETCH_VERSION, request);
        FetchResponseData response = new FetchResponseData(new ByteBufferAccessor(body), FETCH_VERSION);
        if (response.errorCode() != Errors.NONE.code()) {
            throw new IOException("fetch answered " + Errors.forCode(response.errorCode()));
        }
        List<Partition> failed = new ArrayList<>();
        applying.lock();
        try {
            for (FetchResponseData.FetchableTopicResponse topic : response.responses()) {
                Map<Integer, Partition> asked = byTopic.get(topic.topicId());
                if (asked == null) {
                    continue;
                }
                for (FetchResponseData.PartitionData data : topic.partitions()) {
                    Partition p = asked.get(data.partitionIndex());
                    Followed followed = p == null ? null : partitions.get(p);
                    if (followed == null || followed.leaderEpoch != epochs.get(p)) {
                        continue;
                    }
                    if (!appender.apply(p, followed.leaderEpoch, data)) {
                        failed.add(p);
                    }
                    throttling.followerFetched(
                            p, data.records() == null ? 0 : data.records().sizeInBytes());
                }
            }
            long retryAt = clock.getAsLong() + config.fetchBackoffMs();
            for (Partition p : failed) {
                Followed followed = partitions.get(p);
                if (followed != null) {
                    followed.retryAtMs = retryAt;
                }
            }
        } finally {
            applying.unlock();
        }
        return true;
    }

    private long additions() {
        applying.lock();
        try {
            return additions;
        } finally {
            applying.unlock();
        }
    }

    /**
     * Waits up to {@code replica.fetch.backoff.ms} for a partition to be added, unless one was added since
     * {@code additionsBefore} (a round that found nothing to fetch must not sleep through the addition it missed).
     */
    private void awaitWork(long additionsBefore) {
        applying.lock();
        try {
            // In a loop: a spurious wake-up must not end the wait early, only an addition, the time or shutdown does.
            long leftNanos = config.fetchBackoffMs() * 1_000_000L;
            while (additions == additionsBefore && leftNanos > 0 && running) {
                leftNanos = changed.awaitNanos(leftNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        } finally {
            applying.unlock();
        }
    }

    private void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    void shutdown() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(config.socketTimeoutMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        client.close();
    }
}
