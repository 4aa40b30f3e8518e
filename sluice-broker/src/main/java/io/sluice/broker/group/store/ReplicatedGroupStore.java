package io.sluice.broker.group.store;

import io.sluice.broker.produce.DelayedProduce;
import io.sluice.broker.topic.Partition;
import io.sluice.log.AppendResult;
import io.sluice.log.PartitionLog;
import io.sluice.log.ProducerStateException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link GroupStore} on the partitions of {@code __consumer_offsets} this broker leads, Kafka's way. An append writes
 * the group's records as one Kafka v2 batch ({@link GroupRecordCodec}) through the partition leader's append path
 * (the log assigns the offsets and stamps the leader epoch; followers replicate the batch like any other) and
 * completes once the high watermark passes it, i.e. every in-sync replica holds it (acks=all,
 * {@link DelayedProduce}), or fails after {@code offsets.commit.timeout.ms}. A load replays the partition's log from
 * its start to its end, after importing the pre-replication group files into it once ({@link GroupStoreMigration}).
 * Appends are admitted only in the leader epoch the partition was last loaded in, so a write prepared under an
 * earlier leadership never lands in a later one, and none lands while a load reads.
 *
 * <p>{@code __consumer_offsets} is {@code cleanup.policy=compact}: the log cleaner keeps the latest record of each key
 * in its closed segments (and removes tombstones after delete.retention.ms), so a load replays roughly one record per
 * live key plus the active segment.
 *
 * <p>Thread-safe: appends to one partition are serialized by its log; loads run on the coordinator's loader thread.
 */
public final class ReplicatedGroupStore implements GroupStore {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedGroupStore.class);
    private static final int NOT_LOADED = -1;
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final IntFunction<Partition> hosted;
    private final int partitionCount;
    private final ScheduledExecutorService timer;
    private final long commitTimeoutMs;
    private final LongSupplier clock;
    private final GroupStoreMigration migration;
    private final AtomicIntegerArray loadedEpochs;
    private volatile boolean closed;

    /**
     * @param hosted          the partition of {@code __consumer_offsets} with this index when this broker hosts it,
     *                        else null
     * @param timer           expires appends the in-sync replicas did not all take in time; not owned
     * @param commitTimeoutMs offsets.commit.timeout.ms
     */
    public ReplicatedGroupStore(
            IntFunction<Partition> hosted,
            int partitionCount,
            ScheduledExecutorService timer,
            long commitTimeoutMs,
            LongSupplier clock,
            GroupStoreMigration migration) {
        if (partitionCount <= 0) {
            throw new IllegalArgumentException("offsets.topic.num.partitions must be positive, was " + partitionCount);
        }
        this.hosted = hosted;
        this.partitionCount = partitionCount;
        this.timer = timer;
        this.commitTimeoutMs = commitTimeoutMs;
        this.clock = clock;
        this.migration = migration;
        this.loadedEpochs = new AtomicIntegerArray(partitionCount);
        for (int p = 0; p < partitionCount; p++) {
            loadedEpochs.set(p, NOT_LOADED);
        }
    }

    @Override
    public int partitionCount() {
        return partitionCount;
    }

    @Override
    public List<GroupRecord> load(int partition) throws IOException {
        Partition leading = hosted.apply(partition);
        if (leading == null || !leading.isLeader()) {
            throw notLeader(partition, "load");
        }
        int epoch = leading.leaderEpoch();
        loadedEpochs.set(partition, NOT_LOADED);
        importLegacy(partition, leading, epoch);
        List<GroupRecord> live = GroupPartitionReader.readLive(leading.log(), leading.toString());
        if (!leading.isLeader() || leading.leaderEpoch() != epoch) {
            throw notLeader(partition, "load");
        }
        loadedEpochs.set(partition, epoch);
        return live;
    }

    private void importLegacy(int partition, Partition leading, int epoch) throws IOException {
        List<GroupRecord> legacy = migration.pending(partition);
        if (legacy == null) {
            return;
        }
        PartitionLog log = leading.log();
        if (log.logEndOffset() > 0) {
            LOG.warn(
                    "{} already holds records up to offset {}; the {} records of the old group files for it are "
                            + "not imported",
                    leading,
                    log.logEndOffset(),
                    legacy.size());
        } else {
            Errors error = GroupStoreException.errorOf(appendBatch(leading, epoch, legacy)
                    .handle((ok, failure) -> failure)
                    .join());
            if (error != null) {
                throw new GroupStoreException(
                        error,
                        "importing " + legacy.size() + " records of the old group files " + "into " + leading
                                + " failed with " + error + "; retried when it is loaded again");
            }
            LOG.info("Imported {} records of the old group files into {}", legacy.size(), leading);
        }
        migration.done(partition);
    }

    @Override
    public CompletableFuture<Void> append(String groupId, List<? extends GroupRecord> records)
            throws GroupStoreException {
        for (GroupRecord record : records) {
            if (!record.groupId().equals(groupId)) {
                throw new IllegalArgumentException(
                        "record of group " + record.groupId() + " appended in a batch for group " + groupId);
            }
        }
        if (records.isEmpty()) {
            return DONE;
        }
        int partition = GroupPartitioner.partitionFor(groupId, partitionCount);
        Partition leading = hosted.apply(partition);
        int epoch = loadedEpochs.get(partition);
        if (closed || leading == null || !leading.isLeader() || leading.leaderEpoch() != epoch) {
            throw notLeader(partition, "append to");
        }
        return appendBatch(leading, epoch, records);
    }

    /** Appends one batch as leader in {@code epoch}; the future completes once the ISR holds it. */
    private CompletableFuture<Void> appendBatch(Partition leading, int epoch, List<? extends GroupRecord> records)
            throws GroupStoreException {
        int minInsync = leading.config().minInsyncReplicas();
        int inSync = leading.committedInSyncReplicaCount();
        if (inSync < minInsync) {
            throw new GroupStoreException(
                    Errors.NOT_ENOUGH_REPLICAS,
                    leading + " has " + inSync + " in-sync replicas, below its min.insync.replicas=" + minInsync);
        }
        long now = clock.getAsLong();
        ByteBuffer batch = GroupRecordCodec.batch(records, now);
        AppendResult appended;
        try {
            appended = leading.appendAsLeader(batch, epoch, now);
        } catch (NotLeaderOrFollowerException e) {
            throw new GroupStoreException(Errors.NOT_LEADER_OR_FOLLOWER, e.getMessage(), e);
        } catch (IOException | ProducerStateException | RuntimeException e) {
            throw new GroupStoreException(
                    Errors.KAFKA_STORAGE_ERROR,
                    "appending " + records.size() + " group records to " + leading + " failed: " + e.getMessage(),
                    e);
        }
        leading.maybeAdvanceHighWatermark();
        leading.notifyAppended();
        CompletableFuture<Void> durable = new CompletableFuture<>();
        // Every outcome goes to durable; the future whenComplete returns only repeats a failure durable carries.
        var unused = new DelayedProduce(leading, appended.lastOffset() + 1, epoch, minInsync)
                .start(timer, commitTimeoutMs)
                .whenComplete((error, failure) -> {
                    if (failure != null) {
                        durable.completeExceptionally(failure);
                    } else if (error == Errors.NONE) {
                        durable.complete(null);
                    } else {
                        durable.completeExceptionally(new GroupStoreException(
                                error,
                                "records " + appended.firstOffset()
                                        + ".." + appended.lastOffset() + " of " + leading
                                        + " did not reach every in-sync "
                                        + "replica: " + error));
                    }
                });
        return durable;
    }

    private GroupStoreException notLeader(int partition, String what) {
        return new GroupStoreException(
                Errors.NOT_LEADER_OR_FOLLOWER,
                "cannot " + what + " partition " + partition
                        + " of the group store: "
                        + (closed
                                ? "the store is closed"
                                : "this broker does not lead it in the " + "leader epoch it was loaded in"));
    }

    /** Refuses appends from now on; the partitions' logs belong to the broker and stay open. */
    @Override
    public void close() {
        closed = true;
    }
}
