package io.sluice.broker.group;

import io.sluice.broker.group.store.GroupRecord;
import io.sluice.broker.group.store.GroupStore;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

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

    CoordinatorRuntime(GroupCoordinatorConfig config, GroupStore store, ScheduledExecutorService scheduler,
                       LongSupplier clockMs, TopicPartitionLookup topics) {
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
            return scheduler.schedule(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.error("Group coordinator timer '{}' failed", what, e);
                }
            }, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("Group coordinator timer '{}' not scheduled: scheduler is shut down", what);
            return null;
        }
    }

    /** Writes the group's membership durably; {@code assignments} overrides members' current assignments. */
    void persistGroup(ClassicGroup group, Map<String, byte[]> assignments) throws IOException {
        List<GroupRecord.Member> members = new ArrayList<>(group.members.size());
        for (GroupMember m : group.members.values()) {
            byte[] assignment = assignments == null ? m.assignment : assignments.getOrDefault(m.memberId, m.assignment);
            members.add(new GroupRecord.Member(m.memberId, m.groupInstanceId, m.clientId, m.clientHost,
                    m.rebalanceTimeoutMs, m.sessionTimeoutMs, m.metadataFor(group.protocolName), assignment));
        }
        store.append(group.groupId, List.of(new GroupRecord.GroupMetadata(group.groupId, group.protocolType,
                group.generationId, group.protocolName, group.leaderId, group.stateTimestampMs, members)));
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
                        ByteBuffer.wrap(member.metadataFor(group.protocolName))).topics());
            } catch (RuntimeException e) {
                LOG.debug("Group {}: cannot read the subscription of member {}: {}", group.groupId,
                        member.memberId, e.toString());
                return null;
            }
        }
        return topics;
    }
}
