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
 * kept, the next start resumes). The latest request wins: a transfer asked for while a cancelled one of the same
 * partition is still ending (its teardown releases pins and deletes staging, seconds at worst) starts once that one
 * ended, never beside it, since both would use the one staging directory; a cancel drops such a queued request too.
 *
 * <p>Thread-safe: started and cancelled on the cluster-state thread, run on the move threads, read anywhere; starts,
 * cancels and the end of each transfer (with what follows it: its continuation or the next transfer) are serialized
 * on this object, so a cancel lands either before a continuation or after it, never during it.
 */
public final class MoveTargets implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MoveTargets.class);

    private final int selfId;
    private final MoveConfig config;
    private final Function<Partition, ByteRateLimiter> limiter;
    private final ClientSecurity security;
    private final ExecutorService pool;
    /** The transfer of each partition that is queued, running or ending; changed under this object's lock. */
    private final Map<TopicPartitionKey, Running> running = new ConcurrentHashMap<>();
    /** Set by {@link #close()}: nothing starts or continues any more. Guarded by this. */
    private boolean closing;

    /**
     * A transfer queued, running or ending, with the counters {@code sluice partition moves} and metrics read, and
     * what runs when it ends.
     */
    private static final class Running {
        final Partition partition;
        final MoveTransferClient client;
        final TransferProgress progress;
        final List<InetSocketAddress> sources;
        final Runnable then;
        /** Set by {@link #cancel}: {@link #then} does not run. Written under the lock. */
        volatile boolean cancelled;
        /** The transfer asked for while this one, cancelled, was ending; it starts once this one ended. */
        volatile Running next;

        Running(Partition partition, MoveTransferClient client, List<InetSocketAddress> sources, Runnable then) {
            this.partition = partition;
            this.client = client;
            this.progress = new TransferProgress();
            this.sources = List.copyOf(sources);
            this.then = then;
        }
    }

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

    /**
     * Whether a transfer of {@code partition} is queued or running, or asked for while a cancelled one still ends:
     * its follower fetch waits for it. A cancelled transfer still ending does not count.
     */
    public synchronized boolean isRunning(Partition partition) {
        Running move = running.get(key(partition));
        return move != null && (!move.cancelled || move.next != null);
    }

    /**
     * Queues the transfer of {@code partition} from {@code sources} (in-sync replicas first); {@code then} runs on the
     * move thread when it ends, unless it was cancelled or the broker is closing. When a cancelled transfer of the
     * partition is still ending, this one starts after it (replacing any other asked for meanwhile); when one that
     * was not cancelled runs, nothing changes (its {@code then} follows).
     */
    public synchronized void start(Partition partition, List<InetSocketAddress> sources, Runnable then) {
        if (closing) {
            return;
        }
        TopicPartitionKey key = key(partition);
        Running move = new Running(
                partition, new MoveTransferClient(config, limiter.apply(partition), security), sources, then);
        Running current = running.get(key);
        if (current == null) {
            launch(key, move);
        } else if (current.cancelled || current.partition != partition) {
            LOG.info(
                    "{}: a cancelled transfer is still ending; copying the segment files again once it ended",
                    partition);
            current.next = move;
        }
    }

    private void launch(TopicPartitionKey key, Running move) {
        running.put(key, move);
        submit(key, move);
    }

    private void submit(TopicPartitionKey key, Running move) {
        LOG.info(
                "{}: added by a reassignment with an empty log; copying its segment files from {}",
                move.partition,
                move.sources);
        try {
            pool.execute(() -> run(key, move));
        } catch (RejectedExecutionException e) {
            running.remove(key, move);
        }
    }

    private void run(TopicPartitionKey key, Running move) {
        Partition partition = move.partition;
        boolean proceed = true;
        try {
            long from = move.client.bootstrap(
                    partition.log(), partition.topic().name(), partition.index(), move.sources, -1, move.progress);
            LOG.info(
                    "{}: segment files in; follower fetch continues from offset {} ({})",
                    partition,
                    from,
                    move.progress);
        } catch (InterruptedException e) {
            proceed = false;
            Thread.currentThread().interrupt();
        } catch (MoveException e) {
            proceed = !move.progress.phase().equals(TransferPhase.CANCELLED);
            if (proceed) {
                LOG.warn(
                        "{}: copying segment files failed ({}); fetching every record instead",
                        partition,
                        e.getMessage());
            }
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("{}: copying segment files failed; fetching every record instead", partition, e);
        } finally {
            ended(key, move, proceed);
        }
    }

    /** Starts the transfer asked for while {@code move} was ending in its place, or unregisters it and continues. */
    private synchronized void ended(TopicPartitionKey key, Running move, boolean proceed) {
        Running next = closing ? null : move.next;
        if (next != null) {
            running.replace(key, move, next); // no moment without a registered transfer: the fetch keeps waiting
            submit(key, next);
            return;
        }
        running.remove(key, move);
        if (!closing && proceed && !move.cancelled && !move.partition.log().isClosed()) {
            try {
                move.then.run();
            } catch (RuntimeException e) {
                LOG.error("{}: following the leader after the segment files failed", move.partition, e);
            }
        }
    }

    /**
     * Cancels the transfer of a partition this broker no longer hosts or follows (staging removed, source pins
     * released), and drops one asked for while it was ending; it returns at once, the transfer ends on its thread.
     */
    public synchronized void cancel(Partition partition) {
        Running move = running.get(key(partition));
        if (move != null) {
            move.next = null;
            move.cancelled = true;
            move.client.cancel();
        }
    }

    /**
     * Deletes what a transfer of {@code partition} left in its staging directory (a broker stopped or crashed during
     * it, file transfer switched off since, the replica no longer adding), for a partition that does not bootstrap
     * now; a transfer of it queued, running or ending owns the directory and is left alone.
     */
    public void discardStaging(Partition partition) {
        synchronized (this) {
            if (running.containsKey(key(partition))) {
                return;
            }
        }
        // only the cluster-state thread starts a transfer of a partition that has none: none can start meanwhile
        try {
            if (MoveTransferClient.discardStaging(partition.log().dir())) {
                LOG.info("{}: deleted the staging of a partition move that will not resume", partition);
            }
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("{}: could not delete the staging of an abandoned partition move", partition, e);
        }
    }

    /** Counters of the transfer of {@code topic}-{@code partition}, null when none is queued or running. */
    public TransferProgress progress(String topic, int partition) {
        Running move = running.get(new TopicPartitionKey(topic, partition));
        if (move == null) {
            return null;
        }
        Running next = move.next;
        return next != null ? next.progress : move.progress;
    }

    private static TopicPartitionKey key(Partition partition) {
        return new TopicPartitionKey(partition.topic().name(), partition.index());
    }

    /** Interrupts running transfers (their staging is kept for the next start) and stops the move threads. */
    @Override
    public void close() {
        synchronized (this) {
            closing = true;
        }
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
