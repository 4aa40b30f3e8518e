package io.sluice.broker.group.store;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.topic.OffsetsTopic;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicLogConfig;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import org.apache.kafka.common.Uuid;

/**
 * The {@code __consumer_offsets} partitions of one broker in a test: real partition logs in a directory, each led
 * by broker {@link #SELF} as the only replica unless a test gives it a follower, which the test then moves by hand
 * ({@link #followerFetched}). {@link #reopen()} closes and reopens the logs as a broker restart does.
 * Not thread-safe; one per test.
 */
public final class LocalOffsetsPartitions implements AutoCloseable {
    public static final int SELF = 1;
    public static final int FOLLOWER = 2;

    private final Path dir;
    private final Partition[] partitions;
    private final TopicInfo topic;
    private final EffectiveTopicConfig config;
    private final LongSupplier clock;
    private int leaderEpoch;

    public LocalOffsetsPartitions(Path dir, int count, LongSupplier clock) throws IOException {
        this.dir = dir;
        this.partitions = new Partition[count];
        this.topic = new TopicInfo(OffsetsTopic.NAME, Uuid.randomUuid(), count, Map.of("cleanup.policy", "compact"));
        this.config = TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), topic.configOverrides());
        this.clock = clock;
        open();
    }

    private void open() throws IOException {
        for (int p = 0; p < partitions.length; p++) {
            PartitionLog log = PartitionLog.open(
                    dir.resolve(OffsetsTopic.NAME + "-" + p),
                    TopicLogConfig.of(BrokerConfig.fromMap(Map.of()), config),
                    new RecoveryReport());
            partitions[p] = new Partition(
                    topic,
                    p,
                    log,
                    config,
                    new PartitionState(new int[] {SELF}, PartitionState.NO_LEADER, -1, new int[] {SELF}),
                    SELF,
                    0);
            lead(p);
        }
    }

    /** A store over these partitions, as the broker builds it. */
    public ReplicatedGroupStore store(
            ScheduledExecutorService timer, long commitTimeoutMs, GroupStoreMigration migration) {
        return new ReplicatedGroupStore(this::get, partitions.length, timer, commitTimeoutMs, clock, migration);
    }

    public Partition get(int partition) {
        return partitions[partition];
    }

    public int count() {
        return partitions.length;
    }

    /** This broker leads {@code partition} alone, in a new leader epoch; returns the epoch. */
    public int lead(int partition) throws IOException {
        return assign(partition, SELF, new int[] {SELF}, new int[] {SELF});
    }

    /** This broker leads {@code partition} with {@link #FOLLOWER} in the ISR, in a new leader epoch. */
    public int leadWithFollower(int partition) throws IOException {
        int[] both = {SELF, FOLLOWER};
        return assign(partition, SELF, both, both);
    }

    /** {@link #FOLLOWER} leads {@code partition} now, in a new leader epoch. */
    public int follow(int partition) throws IOException {
        int[] both = {SELF, FOLLOWER};
        return assign(partition, FOLLOWER, both, both);
    }

    private int assign(int partition, int leader, int[] replicas, int[] isr) throws IOException {
        leaderEpoch++;
        Partition.Transition transition = partitions[partition].assign(
                new PartitionState(replicas, leader, leaderEpoch, isr, leaderEpoch), clock.getAsLong());
        partitions[partition].notifyRoleChanged();
        if (transition == Partition.Transition.NONE) {
            throw new IllegalStateException("no role change for " + partitions[partition]);
        }
        return leaderEpoch;
    }

    /** {@link #FOLLOWER} fetched {@code partition} up to the leader's log end: the high watermark may move. */
    public void followerFetched(int partition) {
        Partition leading = partitions[partition];
        long end = leading.log().logEndOffset();
        leading.leaderState().onFollowerFetch(FOLLOWER, end, end, leading.highWatermark(), clock.getAsLong());
        leading.maybeAdvanceHighWatermark();
    }

    /** Closes the logs and opens them again, each led by this broker alone, as after a broker restart. */
    public void reopen() throws IOException {
        close();
        open();
    }

    /** Closes the logs cleanly, as a broker's shutdown does; {@link #reopen()} opens them again. */
    @Override
    public void close() throws IOException {
        for (int p = 0; p < partitions.length; p++) {
            if (partitions[p] != null) {
                partitions[p].log().close();
                partitions[p] = null;
            }
        }
    }
}
