package io.sluice.broker.move;

import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.broker.topic.Partition;
import io.sluice.log.TopicPartitionKey;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The target side of partition moves on this broker: a partition this broker was just added to by a reassignment,
 * with an empty local log, is filled from an in-sync replica's segment files ({@link MoveTransferClient}) before its
 * follower fetch starts. At most {@code sluice.move.max.concurrent.per.broker} run at once; the rest queue, and a
 * queued partition does not fetch. Whatever ends a transfer (done, failed, nothing to ship), the partition then follows
 * its leader from its log end, so a move never waits on the file path: a failed transfer falls back to fetching the
 * records. A replica removed meanwhile cancels its transfer (staging removed); broker shutdown interrupts it (staging
 * kept, the next start resumes).
 *
 * <p>Thread-safe: started and cancelled on the cluster-state thread, run on the move threads, read anywhere.
 */
public final class MoveTargets implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MoveTargets.class);

    private final int selfId;
    private final MoveConfig config;
    private final Function<Partition, ByteRateLimiter> limiter;
    private final ClientSecurity security;
    private final ExecutorService pool;
    private final Map<TopicPartitionKey, Running> running = new ConcurrentHashMap<>();

    /** A transfer queued or running, with the counters {@code sluice partition moves} and metrics read. */
    private record Running(MoveTransferClient client, TransferProgress progress) {}

    /**
     * @param limiter  the receive-rate bound of each new transfer ({@code follower.replication.throttled.rate} when
     *                 the partition is throttled)
     * @param security how transfer connections are secured (the inter-broker listener's TLS and SASL)
     */
    public MoveTargets(
            int selfId, MoveConfig config, Function<Partition, ByteRateLimiter> limiter, ClientSecurity security) {
        this.selfId = selfId;
        this.config = config;
        this.limiter = limiter;
        this.security = security;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(config.maxConcurrentMoves(), r -> {
            Thread t = new Thread(r, "sluice-move-target-" + selfId + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Whether {@code partition} should start from files: the path is on, this broker is adding it, its log is empty. */
    public boolean wants(Partition partition) {
        return config.fileTransferEnable()
                && partition.assignment().isAdding(selfId)
                && partition.log().logEndOffset() == 0
                && partition.log().logStartOffset() == 0;
    }

    /** Whether a transfer of {@code partition} is queued or running (its follower fetch waits for it). */
    public boolean isRunning(Partition partition) {
        return running.containsKey(key(partition));
    }

    /**
     * Queues the transfer of {@code partition} from {@code sources} (in-sync replicas first); {@code then} runs on the
     * move thread when it ends, unless it was cancelled or the broker is closing.
     */
    public void start(Partition partition, List<InetSocketAddress> sources, Runnable then) {
        TopicPartitionKey key = key(partition);
        Running move =
                new Running(new MoveTransferClient(config, limiter.apply(partition), security), new TransferProgress());
        if (running.putIfAbsent(key, move) != null) {
            return;
        }
        LOG.info(
                "{}: added by a reassignment with an empty log; copying its segment files from {}", partition, sources);
        try {
            pool.execute(() -> run(partition, key, move, sources, then));
        } catch (RejectedExecutionException e) {
            running.remove(key, move);
        }
    }

    private void run(
            Partition partition, TopicPartitionKey key, Running move, List<InetSocketAddress> sources, Runnable then) {
        boolean proceed = true;
        try {
            long from = move.client()
                    .bootstrap(
                            partition.log(), partition.topic().name(), partition.index(), sources, -1, move.progress());
            LOG.info(
                    "{}: segment files in; follower fetch continues from offset {} ({})",
                    partition,
                    from,
                    move.progress());
        } catch (InterruptedException e) {
            proceed = false;
            Thread.currentThread().interrupt();
        } catch (MoveException e) {
            proceed = !move.progress().phase().equals(TransferPhase.CANCELLED);
            if (proceed) {
                LOG.warn(
                        "{}: copying segment files failed ({}); fetching every record instead",
                        partition,
                        e.getMessage());
            }
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("{}: copying segment files failed; fetching every record instead", partition, e);
        } finally {
            running.remove(key, move);
        }
        if (proceed && !partition.log().isClosed()) {
            then.run();
        }
    }

    /** Cancels the transfer of a partition this broker no longer hosts (staging removed, source pins released). */
    public void cancel(Partition partition) {
        Running move = running.get(key(partition));
        if (move != null) {
            move.client().cancel();
        }
    }

    /** Counters of the transfer of {@code topic}-{@code partition}, null when none is queued or running. */
    public TransferProgress progress(String topic, int partition) {
        Running move = running.get(new TopicPartitionKey(topic, partition));
        return move == null ? null : move.progress();
    }

    private static TopicPartitionKey key(Partition partition) {
        return new TopicPartitionKey(partition.topic().name(), partition.index());
    }

    /** Interrupts running transfers (their staging is kept for the next start) and stops the move threads. */
    @Override
    public void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
