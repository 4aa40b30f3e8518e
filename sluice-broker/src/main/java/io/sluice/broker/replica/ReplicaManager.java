package io.sluice.broker.replica;

import io.sluice.broker.config.ReplicaConfig;
import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.move.MoveTargets;
import io.sluice.broker.topic.Partition;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.log.LogManager;
import io.sluice.log.TopicPartitionKey;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replication on this broker: reacts to each hosted partition's role change (a follower fetches from its leader, a
 * leader stops fetching), records followers' fetches on led partitions and proposes ISR expansions, checks every
 * half {@code replica.lag.time.max.ms} for followers that fell behind and proposes ISR shrinks, and checkpoints high
 * watermarks per log directory.
 *
 * <p>Thread-safe: role changes arrive on the cluster-state thread, fetches on request threads, checks on the
 * scheduler; each partition's state guards itself.
 */
public final class ReplicaManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaManager.class);

    private final ReplicaConfig config;
    private final LogManager logs;
    private final Supplier<ClusterState> cluster;
    private final Supplier<Iterable<Partition>> hosted;
    private final ReplicaFetcherManager fetchers;
    private final MoveTargets moves;
    private final ReplicationThrottling throttling;
    private final IsrChangeSender isrChanges;
    private final HighWatermarkCheckpoint checkpoint;
    private final Map<TopicPartitionKey, Long> restoredHighWatermarks;
    private final LongSupplier clock;
    private final int selfId;
    private final ScheduledFuture<?> isrCheck;
    private final ScheduledFuture<?> checkpointTask;

    /**
     * @param cluster   the newest applied cluster state (where each leader is)
     * @param hosted    every partition this broker hosts now
     * @param scheduler runs the ISR check and the checkpoint; not owned
     */
    public ReplicaManager(
            int selfId,
            ReplicaConfig config,
            LogManager logs,
            Supplier<ClusterState> cluster,
            Supplier<Iterable<Partition>> hosted,
            ControllerChannel controller,
            ScheduledExecutorService scheduler,
            LongSupplier clock,
            MoveTargets moves,
            ReplicationThrottling throttling) {
        this.config = config;
        this.logs = logs;
        this.cluster = cluster;
        this.hosted = hosted;
        this.clock = clock;
        this.selfId = selfId;
        this.moves = moves;
        this.throttling = throttling;
        this.fetchers = new ReplicaFetcherManager(selfId, config, clock, throttling, controller.security());
        this.isrChanges = new IsrChangeSender(selfId, controller, scheduler, config.fetchBackoffMs());
        this.checkpoint = new HighWatermarkCheckpoint(logs.logDirs());
        this.restoredHighWatermarks = checkpoint.readAll();
        long checkEvery = Math.max(1, config.lagTimeMaxMs() / 2);
        this.isrCheck = scheduler.scheduleWithFixedDelay(
                this::shrinkLaggingIsrs, checkEvery, checkEvery, TimeUnit.MILLISECONDS);
        this.checkpointTask = scheduler.scheduleWithFixedDelay(
                this::checkpointQuietly,
                config.highWatermarkCheckpointIntervalMs(),
                config.highWatermarkCheckpointIntervalMs(),
                TimeUnit.MILLISECONDS);
    }

    /** Partitions this broker leads whose reassignment is in progress (Kafka's {@code ReassigningPartitions}). */
    public int reassigningPartitionsLed() {
        int led = 0;
        for (Partition partition : hosted.get()) {
            if (partition.leaderState() != null && partition.assignment().isReassigning()) {
                led++;
            }
        }
        return led;
    }

    /** Who is told about ISR changes the controller accepted from this leader (the broker's ISR meters). */
    public void listenForIsrChanges(IsrChangeListener listener) {
        isrChanges.listenWith(listener);
    }

    /** Kafka's replication throttles as this broker enforces them (the leader's answers to followers read it). */
    public ReplicationThrottling throttling() {
        return throttling;
    }

    /** The high watermark restored from the checkpoint for a partition, 0 when none was written. */
    public long restoredHighWatermark(String topic, int partition) {
        return restoredHighWatermarks.getOrDefault(new TopicPartitionKey(topic, partition), 0L);
    }

    /** Acts on a hosted partition's role change. */
    public void onTransition(Partition partition, Partition.Transition transition) {
        switch (transition) {
            case BECAME_LEADER -> {
                moves.cancel(partition);
                moves.discardStaging(partition);
                fetchers.unfollow(partition);
                LOG.info(
                        "{}: leader in epoch {} with ISR {} at log end {}",
                        partition,
                        partition.leaderEpoch(),
                        java.util.Arrays.toString(partition.assignment().isr()),
                        partition.log().logEndOffset());
            }
            case BECAME_FOLLOWER -> follow(partition);
            case OFFLINE -> fetchers.unfollow(partition);
            case ISR_CHANGED, NONE, REMOVED -> {
                // REMOVED reaches onRemoved instead
                return;
            }
        }
        partition.notifyRoleChanged();
    }

    /**
     * Follows the partition's leader; a replica a reassignment just added with an empty log first copies the segment
     * files of an in-sync replica ({@link MoveTargets}) and follows once they are in. A transfer cancelled and still
     * ending does not hold this up: the new one queues behind it. A partition that does not copy files now has no use
     * for staging an earlier transfer left behind.
     */
    private void follow(Partition partition) {
        if (moves.isRunning(partition)) {
            return;
        }
        if (moves.wants(partition)) {
            List<InetSocketAddress> sources = moveSources(partition);
            if (!sources.isEmpty()) {
                fetchers.unfollow(partition);
                moves.start(partition, sources, () -> followAfterMove(partition));
                return;
            }
        }
        moves.discardStaging(partition);
        followLeader(partition);
    }

    /** After the files of a move: follows the leader the newest assignment names, if this broker still follows. */
    private void followAfterMove(Partition partition) {
        PartitionState now = partition.assignment();
        if (now.hasReplica(selfId) && !now.isOffline() && now.leader() != selfId) {
            followLeader(partition, true);
            partition.notifyRoleChanged();
        }
    }

    /**
     * Where a move copies from: the in-sync replicas other than this broker, followers before the leader (to keep
     * the load off the leader), then the other replicas; only live brokers with a known address.
     */
    private List<InetSocketAddress> moveSources(Partition partition) {
        PartitionState assignment = partition.assignment();
        List<Integer> order = new ArrayList<>();
        for (int id : assignment.isr()) {
            if (id != selfId && id != assignment.leader()) {
                order.add(id);
            }
        }
        if (assignment.inIsr(assignment.leader()) && assignment.leader() != selfId) {
            order.add(assignment.leader());
        }
        for (int id : assignment.replicas()) {
            if (id != selfId && !order.contains(id)) {
                order.add(id);
            }
        }
        ClusterState state = cluster.get();
        List<InetSocketAddress> sources = new ArrayList<>();
        for (int id : order) {
            InetSocketAddress address = addressOf(state, id);
            if (address != null) {
                sources.add(address);
            }
        }
        return sources;
    }

    private void followLeader(Partition partition) {
        followLeader(partition, false);
    }

    /** @param justMoved its log was just filled by a move: catch it up on a connection of its own first */
    private void followLeader(Partition partition, boolean justMoved) {
        int leader = partition.assignment().leader();
        InetSocketAddress address = addressOf(leader);
        if (address == null) {
            LOG.warn(
                    "{}: leader {} has no known endpoint; not fetching until the next cluster state",
                    partition,
                    leader);
            fetchers.unfollow(partition);
            return;
        }
        if (justMoved) {
            fetchers.followCaughtUpFirst(partition, leader, address, partition.leaderEpoch());
        } else {
            fetchers.follow(partition, leader, address, partition.leaderEpoch());
        }
        LOG.info(
                "{}: following broker {} in epoch {} from log end {}",
                partition,
                leader,
                partition.leaderEpoch(),
                partition.log().logEndOffset());
    }

    /** Stops replicating a partition this broker no longer hosts. */
    public void onRemoved(Partition partition) {
        moves.cancel(partition);
        fetchers.unfollow(partition);
        partition.notifyRoleChanged();
    }

    /** The address of live broker {@code brokerId} in the newest cluster state, null when it is not live. */
    public InetSocketAddress addressOf(int brokerId) {
        return addressOf(cluster.get(), brokerId);
    }

    /** The address of live broker {@code brokerId} in {@code state}, null when it is not live. */
    public static InetSocketAddress addressOf(ClusterState state, int brokerId) {
        BrokerInfo info = state.broker(brokerId);
        Endpoint endpoint = info == null ? null : info.primaryEndpoint();
        return endpoint == null ? null : new InetSocketAddress(endpoint.host(), endpoint.port());
    }

    /**
     * A follower fetched a led partition from {@code fetchOffset} when the log ended at {@code leaderEndOffset}:
     * records its progress, proposes it for the ISR when it caught up, and advances the high watermark.
     */
    public void onFollowerFetch(
            Partition partition, int replicaId, long fetchOffset, long followerLogStart, long leaderEndOffset) {
        LeaderState state = partition.leaderState();
        if (state == null) {
            return;
        }
        FollowerProgress follower = state.follower(replicaId);
        if (follower != null) {
            follower.onLogStart(followerLogStart);
        }
        int[] proposal = state.onFollowerFetch(
                replicaId,
                fetchOffset,
                leaderEndOffset,
                partition.highWatermark(),
                clock.getAsLong(),
                isEligibleForIsr(cluster.get(), replicaId));
        if (proposal != null) {
            LOG.info(
                    "{}: follower {} caught up at {}; proposing ISR {}",
                    partition,
                    replicaId,
                    fetchOffset,
                    java.util.Arrays.toString(proposal));
            isrChanges.propose(partition, state, proposal);
        }
        partition.maybeAdvanceHighWatermark();
    }

    /**
     * Whether a follower on broker {@code brokerId} may be proposed for an ISR (KIP-841's leader-side check): the
     * cluster state lists it as live and not in controlled shutdown, else the controller refuses it as
     * INELIGIBLE_REPLICA and a caught-up follower would be proposed again on every fetch. Before any state is known
     * the controller decides.
     */
    static boolean isEligibleForIsr(ClusterState state, int brokerId) {
        return state == null || state.isEligibleReplica(brokerId);
    }

    private void shrinkLaggingIsrs() {
        try {
            long now = clock.getAsLong();
            for (Partition partition : hosted.get()) {
                LeaderState state = partition.leaderState();
                if (state == null) {
                    continue;
                }
                int[] proposal = state.proposeShrink(now, config.lagTimeMaxMs());
                if (proposal != null) {
                    LOG.info(
                            "{}: followers fell behind for over {} ms; proposing ISR {} (was {})",
                            partition,
                            config.lagTimeMaxMs(),
                            java.util.Arrays.toString(proposal),
                            java.util.Arrays.toString(state.isr()));
                    isrChanges.propose(partition, state, proposal);
                }
            }
        } catch (RuntimeException e) {
            LOG.error("ISR check failed", e);
        }
    }

    private void checkpointQuietly() {
        try {
            checkpointHighWatermarks();
        } catch (IOException | RuntimeException e) {
            LOG.error("writing {} failed", HighWatermarkCheckpoint.FILE_NAME, e);
        }
    }

    /** Writes the high watermark of every hosted partition to its log directory's checkpoint. */
    public void checkpointHighWatermarks() throws IOException {
        Map<Path, Map<TopicPartitionKey, Long>> byDir = new HashMap<>();
        for (Partition partition : hosted.get()) {
            Path dir = logs.logDirOf(partition.topic().name(), partition.index());
            if (dir != null) {
                byDir.computeIfAbsent(dir, d -> new HashMap<>())
                        .put(
                                new TopicPartitionKey(partition.topic().name(), partition.index()),
                                partition.highWatermark());
            }
        }
        checkpoint.write(byDir);
    }

    /** Stops fetching and the periodic tasks, then writes the high watermarks once more. */
    @Override
    public void close() {
        isrCheck.cancel(false);
        checkpointTask.cancel(false);
        moves.close();
        fetchers.close();
        checkpointQuietly();
    }
}
