package io.sluice.broker.group;

import io.sluice.broker.group.store.GroupPartitioner;
import io.sluice.broker.group.store.GroupRecord;
import io.sluice.broker.group.store.GroupStore;
import io.sluice.broker.group.store.GroupStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the coordinator's parts share: configuration, the store, the timer scheduler, the clock, the topic lookup
 * and the registry of groups. Thread-safe; the registry is concurrent, each group is guarded by its own lock.
 */
final class CoordinatorRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorRuntime.class);
    static final String CONSUMER_PROTOCOL_TYPE = ConsumerProtocol.PROTOCOL_TYPE;

    final GroupCoordinatorConfig config;
    final GroupStore store;
    final ScheduledExecutorService scheduler;
    final LongSupplier clockMs;
    final TopicPartitionLookup topics;
    final ConcurrentHashMap<String, ClassicGroup> groups = new ConcurrentHashMap<>();

    CoordinatorRuntime(
            GroupCoordinatorConfig config,
            GroupStore store,
            ScheduledExecutorService scheduler,
            LongSupplier clockMs,
            TopicPartitionLookup topics) {
        this.config = config;
        this.store = store;
        this.scheduler = scheduler;
        this.clockMs = clockMs;
        this.topics = topics;
    }

    long now() {
        return clockMs.getAsLong();
    }

    /** Runs {@code task} after {@code delayMs}; returns null if the scheduler is shut down. */
    ScheduledFuture<?> schedule(String what, Runnable task, long delayMs) {
        try {
            return scheduler.schedule(
                    () -> {
                        try {
                            task.run();
                        } catch (RuntimeException e) {
                            LOG.error("Group coordinator timer '{}' failed", what, e);
                        }
                    },
                    Math.max(0, delayMs),
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("Group coordinator timer '{}' not scheduled: scheduler is shut down", what);
            return null;
        }
    }

    /** The partition of the group store, and of {@code __consumer_offsets}, holding {@code groupId}. */
    int partitionOf(String groupId) {
        return GroupPartitioner.partitionFor(groupId, config.offsetsTopicNumPartitions());
    }

    /**
     * Appends the group's membership; {@code assignments} overrides members' current assignments.
     *
     * @return completes when the record is durable (see {@link GroupStore#append})
     * @throws IOException when nothing was appended
     */
    CompletableFuture<Void> persistGroup(ClassicGroup group, Map<String, byte[]> assignments) throws IOException {
        List<GroupRecord.Member> members = new ArrayList<>(group.members.size());
        for (GroupMember m : group.members.values()) {
            byte[] assignment = assignments == null ? m.assignment : assignments.getOrDefault(m.memberId, m.assignment);
            members.add(new GroupRecord.Member(
                    m.memberId,
                    m.groupInstanceId,
                    m.clientId,
                    m.clientHost,
                    m.rebalanceTimeoutMs,
                    m.sessionTimeoutMs,
                    m.metadataFor(group.protocolName),
                    assignment));
        }
        return store.append(
                group.groupId,
                List.of(new GroupRecord.GroupMetadata(
                        group.groupId,
                        group.protocolType,
                        group.generationId,
                        group.protocolName,
                        group.leaderId,
                        group.stateTimestampMs,
                        members)));
    }

    /**
     * Runs {@code then} with the group's lock held once {@code write} completes (with null or the failure): at once
     * when it already has (the caller holds the lock), else on the scheduler, never on the thread that completed the
     * write, which may hold a partition's monitor that a thread holding a group lock waits for.
     */
    void whenDurable(ClassicGroup group, CompletableFuture<Void> write, Consumer<Throwable> then) {
        BiConsumer<Void, Throwable> locked = (ok, failure) -> {
            group.lock.lock();
            try {
                then.accept(failure);
            } catch (RuntimeException e) {
                LOG.error("Group {}: handling the outcome of a store write failed", group.groupId, e);
            } finally {
                group.lock.unlock();
            }
        };
        // locked handles the write's failure and logs its own: the futures whenComplete returns only repeat them.
        if (write.isDone()) {
            var unused = write.whenComplete(locked);
        } else {
            var unused = write.whenCompleteAsync(locked, scheduler);
        }
    }

    /**
     * What an OffsetCommit answers when its write failed, as Kafka's GroupMetadataManager.storeOffsets maps produce
     * errors; anything that is not a store error is COORDINATOR_NOT_AVAILABLE (retriable).
     */
    static Errors commitError(Throwable failure) {
        Errors error = GroupStoreException.errorOf(failure);
        if (error == null) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        return switch (error) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND ->
                Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE -> Errors.INVALID_COMMIT_OFFSET_SIZE;
            default -> error;
        };
    }

    /** What a group change (assignment, deletion, offset deletion) answers when its write failed, as Kafka maps it. */
    static Errors groupWriteError(Throwable failure) {
        Errors error = GroupStoreException.errorOf(failure);
        if (error == null) {
            return Errors.COORDINATOR_NOT_AVAILABLE;
        }
        return switch (error) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE -> Errors.UNKNOWN_SERVER_ERROR;
            default -> error;
        };
    }

    /**
     * Kafka's computeSubscribedTopics: the union of all consumer subscriptions for the selected protocol, or
     * null when the group is not a consumer group or a subscription cannot be read.
     */
    static Set<String> subscribedTopics(ClassicGroup group) {
        if (!CONSUMER_PROTOCOL_TYPE.equals(group.protocolType)) {
            return null;
        }
        Set<String> topics = new HashSet<>();
        if (group.members.isEmpty()) {
            return topics;
        }
        if (group.protocolName == null) {
            return null;
        }
        for (GroupMember member : group.members.values()) {
            try {
                topics.addAll(ConsumerProtocol.deserializeSubscription(
                                ByteBuffer.wrap(member.metadataFor(group.protocolName)))
                        .topics());
            } catch (RuntimeException e) {
                LOG.debug(
                        "Group {}: cannot read the subscription of member {}: {}",
                        group.groupId,
                        member.memberId,
                        e.toString());
                return null;
            }
        }
        return topics;
    }
}
