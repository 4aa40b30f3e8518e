package io.sluice.broker.group.store;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Durable home of consumer-group metadata and committed offsets, partitioned like {@code __consumer_offsets}
 * ({@link GroupPartitioner}). A partition is served by the broker that leads it: {@link #load} reads its state when
 * this broker takes it over and admits appends from then on; {@link #append} writes to it at once and completes
 * when the write is durable. Implementations are thread-safe.
 */
public interface GroupStore extends AutoCloseable {

    /** Partitions of the group space; a group's partition is {@link GroupPartitioner#partitionFor}. */
    int partitionCount();

    /**
     * Reads one partition as this broker takes it over, and admits appends to it in the leadership it was read in.
     *
     * @return the live records of the partition (latest per key, tombstoned keys omitted), in no particular order
     * @throws GroupStoreException        NOT_LEADER_OR_FOLLOWER when this broker does not lead the partition (any
     *                                    more), or when an import into it failed
     * @throws GroupStoreCorruptException when a stored record cannot be decoded
     */
    List<GroupRecord> load(int partition) throws IOException;

    /**
     * Appends the records of one group atomically (after a crash either all of them are reloaded or none) to the
     * group's partition now, in order after every earlier append of the group.
     *
     * @return completes when the records are durable, or exceptionally with a {@link GroupStoreException}
     *         (REQUEST_TIMED_OUT, NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS_AFTER_APPEND); it may complete on any
     *         thread, possibly one holding a partition's monitor, so dependents must not block or take locks
     * @throws GroupStoreException      when nothing was appended: NOT_LEADER_OR_FOLLOWER (the partition is not led
     *                                  here in the leadership it was loaded in), NOT_ENOUGH_REPLICAS,
     *                                  KAFKA_STORAGE_ERROR
     * @throws IllegalArgumentException if a record belongs to another group than {@code groupId}
     */
    CompletableFuture<Void> append(String groupId, List<? extends GroupRecord> records) throws GroupStoreException;

    @Override
    void close();
}
