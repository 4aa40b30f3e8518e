package io.sluice.broker.topic;

import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.log.PartitionLog;
import io.sluice.record.validate.TopicValidationPolicy;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One partition led by this broker: its log, its topic's effective configuration, and the
 * long-poll fetches waiting for it to grow. On a single broker every appended record is committed,
 * so the high watermark is the log end offset.
 *
 * <p>Thread-safe.
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

    public Partition(TopicInfo topic, int index, PartitionLog log, EffectiveTopicConfig config) {
        this.topic = topic;
        this.index = index;
        this.log = log;
        this.config = config;
        this.validationPolicy = ValidationPolicies.of(config);
    }

    public TopicInfo topic() { return topic; }
    public int index() { return index; }
    public PartitionLog log() { return log; }
    public EffectiveTopicConfig config() { return config; }
    public TopicValidationPolicy validationPolicy() { return validationPolicy; }

    /** The leader epoch stamped on appended batches and reported in metadata; constant on one broker. */
    public int leaderEpoch() {
        return 0;
    }

    /** Replicas in sync with the leader, the leader included; a single broker is its own whole ISR. */
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
