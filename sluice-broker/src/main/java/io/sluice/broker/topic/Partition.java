package io.sluice.broker.topic;

import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.broker.replica.LeaderState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.AppendResult;
import io.sluice.log.PartitionLog;
import io.sluice.log.ProducerStateException;
import io.sluice.record.validate.TopicValidationPolicy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.StampedLock;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;

/**
 * One partition hosted by this broker: its log, its topic's effective configuration, the controller's assignment
 * (replicas, leader, epochs, ISR), its high watermark, and the long-poll fetches and acks=all produces waiting for it
 * to grow. As leader it tracks its followers ({@link LeaderState}) and the high watermark is the smallest log end
 * offset of the ISR; as follower the high watermark is the leader's, capped at the local log end.
 *
 * <p>Thread-safe: role changes hold the role fence exclusively (then this object's lock); leader appends and follower
 * writes hold it shared and re-check the role under it; the assignment, leader state and high watermark are volatile
 * and read lock-free by request threads.
 */
public final class Partition {
    /** {@link #leadingSinceEpoch()} of a broker that does not lead the partition. */
    public static final int NOT_LEADING = -1;

    /**
     * Something waiting for new data, a higher high watermark or a role change in this partition; called on the
     * changing thread. A waiter says which of the first two can complete it, so that e.g. a follower's fetch is not
     * re-read when only the high watermark moved.
     */
    public interface AppendWaiter {
        void onAppend();

        /** Whether an append (new data up to the log end) may complete it: fetches from followers. */
        default boolean wakesOnAppend() {
            return true;
        }

        /** Whether a higher high watermark may complete it: consumer fetches, acks=all produces. */
        default boolean wakesOnHighWatermark() {
            return true;
        }
    }

    /** What a new assignment changed for this broker's role in the partition. */
    public enum Transition {
        /** Nothing a fetcher or waiter cares about. */
        NONE,
        /** This broker leads it now, in a new leader epoch. */
        BECAME_LEADER,
        /** This broker follows a leader or leader epoch it did not follow before. */
        BECAME_FOLLOWER,
        /** No replica leads it. */
        OFFLINE,
        /** Still the leader in the same epoch; the committed ISR changed. */
        ISR_CHANGED,
        /**
         * This broker no longer holds a replica: reassigned elsewhere or the topic deleted, possibly straight from
         * leading it when the states in between were merged. Told to role listeners only.
         */
        REMOVED
    }

    private final TopicInfo topic;
    private final int index;
    private final PartitionLog log;
    private volatile EffectiveTopicConfig config;
    private volatile TopicValidationPolicy validationPolicy;
    private final Set<AppendWaiter> waiters = ConcurrentHashMap.newKeySet();
    /** See {@link #leadingSinceEpoch()}; written under this object's monitor. */
    private volatile int leadingSinceEpoch = NOT_LEADING;

    private final int selfId;
    private volatile PartitionState assignment;
    private volatile LeaderState leader;
    private volatile long highWatermark;
    /** As follower: the leader's high watermark from its last fetch answer; -1 before one. */
    private volatile long leaderHighWatermark = -1;
    /**
     * Kafka's leaderIsrUpdateLock: {@link #assign} holds it exclusively; {@link #appendAsLeader} and follower writes
     * ({@link #beginFollowerWrite}) hold it shared, so none lands in a role other than the one it was checked for.
     * A StampedLock: the shared side allocates nothing. Not reentrant: nothing waits on or calls back into this
     * partition's role while holding it.
     */
    private final StampedLock roleFence = new StampedLock();

    /**
     * @param checkpointedHighWatermark the high watermark restored from the log directory's checkpoint (0 if none);
     *                                  capped at the log end
     */
    public Partition(
            TopicInfo topic,
            int index,
            PartitionLog log,
            EffectiveTopicConfig config,
            PartitionState assignment,
            int selfId,
            long checkpointedHighWatermark) {
        this.topic = topic;
        this.index = index;
        this.log = log;
        this.config = config;
        this.validationPolicy = ValidationPolicies.of(config);
        this.selfId = selfId;
        this.assignment = new PartitionState(assignment.replicas(), PartitionState.NO_LEADER, -1, assignment.isr());
        this.highWatermark = Math.max(log.logStartOffset(), Math.min(checkpointedHighWatermark, log.logEndOffset()));
    }

    /**
     * Takes the controller's newest assignment and says how this broker's role changed. Waits for the leader appends
     * and follower writes under way; those that come after it see the new role.
     */
    public Transition assign(PartitionState next, long nowMs) throws IOException {
        Transition transition;
        long stamp = roleFence.writeLock();
        try {
            synchronized (this) {
                transition = applyAssignment(next, nowMs);
            }
        } finally {
            roleFence.unlockWrite(stamp);
        }
        // Outside the fence: waking the waiters may run their completions, which may append.
        maybeAdvanceHighWatermark();
        return transition;
    }

    private Transition applyAssignment(PartitionState next, long nowMs) throws IOException {
        PartitionState previous = assignment;
        assignment = next;
        if (next.leader() == selfId) {
            LeaderState current = leader;
            if (current == null || current.leaderEpoch() != next.leaderEpoch()) {
                if (current == null) {
                    leadingSinceEpoch = next.leaderEpoch();
                }
                log.assignLeaderEpoch(next.leaderEpoch());
                leader = new LeaderState(
                        selfId,
                        next.replicas(),
                        next.isr(),
                        next.leaderEpoch(),
                        next.partitionEpoch(),
                        log.logEndOffset(),
                        nowMs);
                return Transition.BECAME_LEADER;
            }
            boolean changed = current.commit(next.isr(), next.partitionEpoch());
            return changed ? Transition.ISR_CHANGED : Transition.NONE;
        }
        boolean wasLeader = leader != null;
        leader = null;
        leadingSinceEpoch = NOT_LEADING;
        if (next.isOffline()) {
            return Transition.OFFLINE;
        }
        if (wasLeader || previous.leader() != next.leader() || previous.leaderEpoch() != next.leaderEpoch()) {
            return Transition.BECAME_FOLLOWER;
        }
        return Transition.NONE;
    }

    /**
     * Takes the topic's changed configuration (a topic or broker config change): later produce validation,
     * min.insync.replicas checks, and the log's rolls, retention and flushes use it.
     */
    public void updateConfig(EffectiveTopicConfig newConfig, io.sluice.log.LogConfig newLogConfig) {
        TopicValidationPolicy policy = ValidationPolicies.of(newConfig);
        log.updateConfig(newLogConfig);
        this.validationPolicy = policy;
        this.config = newConfig;
    }

    /**
     * Appends validated batches as the leader in {@code leaderEpoch}, stamped with it, provided this broker still
     * leads the partition in that epoch; a role change waits for it.
     *
     * @throws NotLeaderOrFollowerException when this broker no longer leads in {@code leaderEpoch}; nothing appended
     */
    public AppendResult appendAsLeader(ByteBuffer batches, int leaderEpoch, long nowMs)
            throws ProducerStateException, IOException {
        long stamp = roleFence.readLock();
        try {
            LeaderState state = leader;
            if (state == null || state.leaderEpoch() != leaderEpoch) {
                throw new NotLeaderOrFollowerException("this broker no longer leads " + this + " in leader epoch "
                        + leaderEpoch + " (now " + assignment.leaderEpoch() + ")");
            }
            return log.appendAsLeader(batches, leaderEpoch, nowMs);
        } finally {
            roleFence.unlockRead(stamp);
        }
    }

    /**
     * Starts a follower write (append, truncation, log start move) from a fetch made in {@code leaderEpoch}: role
     * changes wait until {@link #endFollowerWrite}. Returns 0, holding nothing, when this broker leads the partition
     * or follows it in another leader epoch by now: the fetch is stale and its data must not be applied.
     */
    public long beginFollowerWrite(int leaderEpoch) {
        long stamp = roleFence.readLock();
        if (leader != null || assignment.leaderEpoch() != leaderEpoch) {
            roleFence.unlockRead(stamp);
            return 0;
        }
        return stamp;
    }

    /** Ends a follower write {@link #beginFollowerWrite} started (a stamp other than 0). */
    public void endFollowerWrite(long stamp) {
        roleFence.unlockRead(stamp);
    }

    /** Whether this broker leads the partition. */
    public boolean isLeader() {
        return leader != null;
    }

    /** The leader's replication state; null when this broker does not lead the partition. */
    public LeaderState leaderState() {
        return leader;
    }

    public PartitionState assignment() {
        return assignment;
    }

    public TopicInfo topic() {
        return topic;
    }

    public int index() {
        return index;
    }

    public PartitionLog log() {
        return log;
    }

    public EffectiveTopicConfig config() {
        return config;
    }

    public TopicValidationPolicy validationPolicy() {
        return validationPolicy;
    }

    /** The leader epoch stamped on appended batches and checked against clients' current leader epoch. */
    public int leaderEpoch() {
        return assignment.leaderEpoch();
    }

    /**
     * Replicas counted as in sync when an acks=all append is acknowledged: the leader's maximal ISR (the committed one
     * with any change in flight, as the high watermark counts them); 0 on a follower.
     */
    public int inSyncReplicaCount() {
        LeaderState state = leader;
        return state == null ? 0 : state.maximalIsrSize();
    }

    /**
     * Replicas counted as in sync when an acks=all append is admitted against min.insync.replicas: the ISR the
     * controller committed, as Kafka admits it (an expansion in flight may still be refused); 0 on a follower.
     */
    public int committedInSyncReplicaCount() {
        LeaderState state = leader;
        return state == null ? 0 : state.committedIsrSize();
    }

    /**
     * The leader epoch in which this broker's current, unbroken leadership began ({@link #NOT_LEADING} when it does
     * not lead): an append made in any epoch since then is still in its log, since a leader never truncates.
     */
    public int leadingSinceEpoch() {
        return leadingSinceEpoch;
    }

    /** Offsets below it are on every ISR member: what consumers may read and acks=all waits for. */
    public long highWatermark() {
        return highWatermark;
    }

    /**
     * As leader: raises the high watermark to what the ISR now holds and wakes the waiters when it moved.
     *
     * @return whether it moved
     */
    public boolean maybeAdvanceHighWatermark() {
        LeaderState state = leader;
        if (state == null) {
            return false;
        }
        boolean moved;
        synchronized (this) {
            long candidate = Math.min(state.highWatermarkCandidate(log.logEndOffset()), log.logEndOffset());
            moved = candidate > highWatermark;
            if (moved) {
                highWatermark = candidate;
            }
        }
        if (moved) {
            notifyHighWatermarkMoved();
        }
        return moved;
    }

    /**
     * As follower: takes the leader's high watermark, capped at the local log end (which may be behind it); ignored
     * once this broker leads.
     */
    public void followLeaderHighWatermark(long leaderHighWatermark) {
        long capped;
        synchronized (this) {
            if (leader != null) {
                return;
            }
            this.leaderHighWatermark = leaderHighWatermark;
            capped = Math.max(log.logStartOffset(), Math.min(leaderHighWatermark, log.logEndOffset()));
            if (capped == highWatermark) {
                return;
            }
            highWatermark = capped;
        }
        notifyHighWatermarkMoved();
    }

    /**
     * As follower: how many offsets the local log is behind the leader's high watermark as last told (Kafka's replica
     * fetcher lag); 0 before the first answer and as leader.
     */
    public long followerLag() {
        long leaderMark = leaderHighWatermark;
        return leaderMark < 0 || isLeader() ? 0 : Math.max(0, leaderMark - log.logEndOffset());
    }

    /** After a truncation: the high watermark never stays above the log end. */
    public synchronized void capHighWatermarkAtLogEnd() {
        highWatermark = Math.max(log.logStartOffset(), Math.min(highWatermark, log.logEndOffset()));
    }

    public void addWaiter(AppendWaiter waiter) {
        waiters.add(waiter);
    }

    public void removeWaiter(AppendWaiter waiter) {
        waiters.remove(waiter);
    }

    /** After an append: wakes the waiters new data may complete; each decides whether it now has enough. */
    public void notifyAppended() {
        for (AppendWaiter waiter : waiters) {
            if (waiter.wakesOnAppend()) {
                waiter.onAppend();
            }
        }
    }

    /** After the high watermark moved: wakes the waiters it may complete. */
    public void notifyHighWatermarkMoved() {
        for (AppendWaiter waiter : waiters) {
            if (waiter.wakesOnHighWatermark()) {
                waiter.onAppend();
            }
        }
    }

    /** After a role change or removal: wakes every waiter (a fetch or produce may now fail or go elsewhere). */
    public void notifyRoleChanged() {
        for (AppendWaiter waiter : waiters) {
            waiter.onAppend();
        }
    }

    @Override
    public String toString() {
        return topic.name() + "-" + index;
    }
}
