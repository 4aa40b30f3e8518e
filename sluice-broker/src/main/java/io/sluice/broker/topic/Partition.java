package io.sluice.broker.topic;

import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.PartitionLog;
import io.sluice.record.validate.TopicValidationPolicy;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One partition hosted by this broker: its log, its topic's effective configuration, the
 * controller's assignment (leader, leader epoch) and the long-poll fetches waiting for it to grow.
 * Only the leader serves it. Until replication exists only the leader holds the data, so every
 * appended record is committed at once: the high watermark is the log end offset and the leader is
 * the whole ISR.
 *
 * <p>Thread-safe (the assignment is volatile, replaced on each cluster state).
 */
public final class Partition {
    /** Something waiting for new data in this partition; called on the appending thread. */
    public interface AppendWaiter {
        void onAppend();
    }

    private final TopicInfo topic;
    private final int index;
    private final PartitionLog log;
    private final EffectiveTopicConfig config;
    private final TopicValidationPolicy validationPolicy;
    private final Set<AppendWaiter> waiters = ConcurrentHashMap.newKeySet();
    private final int selfId;
    private volatile PartitionState assignment;

    public Partition(TopicInfo topic, int index, PartitionLog log, EffectiveTopicConfig config,
                     PartitionState assignment, int selfId) {
        this.topic = topic;
        this.index = index;
        this.log = log;
        this.config = config;
        this.validationPolicy = ValidationPolicies.of(config);
        this.assignment = assignment;
        this.selfId = selfId;
    }

    /** Takes the controller's newest assignment; true when the leader or its epoch changed. */
    boolean assign(PartitionState next) {
        PartitionState previous = assignment;
        assignment = next;
        return previous.leader() != next.leader() || previous.leaderEpoch() != next.leaderEpoch();
    }

    /** Whether this broker leads the partition under its current assignment. */
    public boolean isLeader() {
        return assignment.leader() == selfId;
    }

    public TopicInfo topic() { return topic; }
    public int index() { return index; }
    public PartitionLog log() { return log; }
    public EffectiveTopicConfig config() { return config; }
    public TopicValidationPolicy validationPolicy() { return validationPolicy; }

    /** The leader epoch stamped on appended batches and checked against clients' current leader epoch. */
    public int leaderEpoch() {
        return assignment.leaderEpoch();
    }

    /** Replicas holding every committed record: the leader alone until replication exists. */
    public int inSyncReplicaCount() {
        return 1;
    }

    public long highWatermark() {
        return log.logEndOffset();
    }

    public void addWaiter(AppendWaiter waiter) {
        waiters.add(waiter);
    }

    public void removeWaiter(AppendWaiter waiter) {
        waiters.remove(waiter);
    }

    /** Wakes every waiter; each decides whether it now has enough data. */
    public void notifyAppended() {
        for (AppendWaiter waiter : waiters) {
            waiter.onAppend();
        }
    }

    @Override
    public String toString() {
        return topic.name() + "-" + index;
    }
}
