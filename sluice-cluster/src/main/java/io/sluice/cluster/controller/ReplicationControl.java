package io.sluice.cluster.controller;

import static io.sluice.cluster.state.PartitionState.NO_LEADER;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.BrokerIds;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.DeltaRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every partition rule of the controller, Kafka's (ReplicationControlManager, ZooKeeper-mode KafkaController):
 * leaders and ISRs on membership changes, AlterPartition, controlled shutdown, preferred and unclean elections and
 * the leader-imbalance check. Pure logic over a {@link ClusterState}: each rule adds partition changes to the delta
 * it is given and touches ZooKeeper not at all, so it is tested without a server. Every change bumps the partition
 * epoch; a leader change (and a leader's new incarnation) bumps the leader epoch; an ISR-only change keeps it. It
 * keeps the partitions index ({@link PartitionIndex}) in step with what is published. The brokers in controlled
 * shutdown, which no election picks and no ISR takes until they register again, are part of the published state
 * ({@link ClusterState#isShuttingDown}), so a controller that takes over keeps refusing them and leaders, which read
 * the same state, do not propose them. As Kafka's controller, every rule completes a reassignment in the change
 * that meets its target (an unclean election, a leader elected when its broker registers again, an administrative
 * ISR), not only AlterPartition, so a reassignment whose removing replica never comes back still completes.
 *
 * <p>Not thread-safe; owned by the controller thread.
 */
final class ReplicationControl {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationControl.class);

    private final ClusterConfig config;
    private final PartitionIndex partitions = new PartitionIndex();

    ReplicationControl(ClusterConfig config) {
        this.config = config;
    }

    /** Forgets everything and indexes {@code state} (take-over). */
    void rebuild(ClusterState state) {
        partitions.rebuild(state);
    }

    /** Follows a published delta ({@code before} the state it was applied to, {@code after} the result). */
    void applied(ClusterState before, DeltaRecord delta, ClusterState after) {
        partitions.applied(before, delta, after);
    }

    // ---- topic creation --------------------------------------------------------------------------------------

    /**
     * New partitions on {@code replicas}: every replica in sync (a new partition is empty everywhere), the preferred
     * replica leading, leader epoch and partition epoch 0.
     */
    static PartitionState[] newPartitions(int[][] replicas) {
        PartitionState[] ps = new PartitionState[replicas.length];
        for (int p = 0; p < replicas.length; p++) {
            ps[p] = new PartitionState(replicas[p], replicas[p][0], 0, replicas[p].clone(), 0);
        }
        return ps;
    }

    // ---- membership ------------------------------------------------------------------------------------------

    /**
     * The partition changes {@code change} causes. A broker that left leaves the ISRs that have other members; a
     * partition it led gets the first live in-sync replica in replica order, else no leader with its ISR kept (so the
     * last leader can come back clean), else, where unclean election is enabled, the first live replica with an ISR
     * of itself. A bounced broker lost its in-memory state: it leaves ISRs with other members and its leadership moves
     * to another live in-sync replica, or stays with it under a new leader epoch. Offline partitions get a leader
     * when an in-sync replica is live again (or any replica, where unclean election is enabled).
     */
    void onMembershipChange(ClusterState state, MembershipChange change, DeltaRecord delta) {
        Set<PartitionKey> touched = new LinkedHashSet<>();
        for (int id : change.left) {
            touched.addAll(partitions.replicaOf(id));
        }
        for (int id : change.bounced) {
            touched.addAll(partitions.replicaOf(id));
        }
        touched.addAll(partitions.offline());
        PendingChanges pending = new PendingChanges(state, delta);
        // A broker that registers again (joined, bounced) is no longer shutting down once this delta applies.
        IntPredicate eligible = id -> change.liveAfter(id)
                && (!state.isShuttingDown(id) || change.joined.contains(id) || change.bounced.contains(id));
        for (PartitionKey key : touched) {
            PartitionState ps = pending.current(key);
            PartitionState next = afterMembership(key, ps, change, eligible, state);
            if (next != null) {
                pending.change(key, completingReassignment(state, key, next, eligible));
            }
        }
    }

    /** The partition after {@code change}, null when unchanged. */
    private PartitionState afterMembership(
            PartitionKey key, PartitionState ps, MembershipChange change, IntPredicate eligible, ClusterState state) {
        int[] isr = ps.isr();
        for (int id : change.left) {
            isr = ReplicaIds.withoutIfOthersRemain(isr, id);
        }
        boolean leaderGone = change.left.contains(ps.leader()) || change.bounced.contains(ps.leader());
        int leader = ps.leader();
        int leaderEpoch = ps.leaderEpoch();
        if (ps.isOffline() || leaderGone) {
            // A bounced broker holds no state in memory: any other live in-sync replica is the better leader.
            int elected =
                    ReplicaIds.firstIn(ps.replicas(), isr, id -> eligible.test(id) && !change.bounced.contains(id));
            if (elected == NO_LEADER) {
                elected = ReplicaIds.firstIn(ps.replicas(), isr, eligible);
            }
            if (elected == NO_LEADER && uncleanAllowed(state, key)) {
                elected = ReplicaIds.firstIn(ps.replicas(), ps.replicas(), eligible);
                if (elected != NO_LEADER) {
                    LeaderElection.logUnclean(state, key, ps, elected);
                    isr = new int[] {elected};
                }
            }
            if (elected != leader || leaderGone) {
                leader = elected;
                leaderEpoch++;
            }
        }
        for (int id : change.bounced) {
            if (id != leader) {
                isr = ReplicaIds.withoutIfOthersRemain(isr, id);
            }
        }
        return changed(ps, leader, leaderEpoch, isr);
    }

    // ---- AlterPartition --------------------------------------------------------------------------------------

    /**
     * Kafka's AlterPartition from broker {@code leaderId}: each change validated as Kafka's
     * ReplicationControlManager does (in its order: unknown partition, epochs newer than the controller's, older
     * leader epoch, sender not the leader, older partition epoch, malformed ISR, ISR without the leader, ISR members
     * not live or shutting down); accepted changes keep leader and leader epoch and bump the partition epoch. A
     * change to the ISR the partition already has is accepted and publishes nothing.
     */
    List<AlterPartitionResult> alterPartition(
            ClusterState state, int leaderId, List<IsrChangeRequest> changes, DeltaRecord delta) {
        PendingChanges pending = new PendingChanges(state, delta);
        List<AlterPartitionResult> results = new ArrayList<>(changes.size());
        for (IsrChangeRequest req : changes) {
            TopicState topic = state.topic(req.topicId());
            if (topic == null) {
                results.add(new AlterPartitionResult(
                        req.topicId(), req.partition(), ReplicationError.UNKNOWN_TOPIC_ID, null));
                continue;
            }
            if (req.partition() < 0 || req.partition() >= topic.partitionCount()) {
                results.add(new AlterPartitionResult(
                        req.topicId(), req.partition(), ReplicationError.UNKNOWN_TOPIC_OR_PARTITION, null));
                continue;
            }
            PartitionKey key = new PartitionKey(req.topicId(), req.partition());
            PartitionState ps = pending.current(key);
            ReplicationError error = validate(state, leaderId, ps, req);
            if (error != ReplicationError.NONE) {
                LOG.info(
                        "AlterPartition from broker {} for {}-{} refused with {}: {} against {}",
                        leaderId,
                        topic.name(),
                        req.partition(),
                        error,
                        req,
                        ps);
            } else if (!Arrays.equals(req.newIsr(), ps.isr())) {
                ps = ps.withLeader(ps.leader(), ps.leaderEpoch(), req.newIsr().clone());
                ps = completingReassignment(state, key, ps, eligible(state));
                pending.change(key, ps);
            }
            results.add(new AlterPartitionResult(req.topicId(), req.partition(), error, ps));
        }
        return results;
    }

    private ReplicationError validate(ClusterState state, int leaderId, PartitionState ps, IsrChangeRequest req) {
        if (req.leaderEpoch() > ps.leaderEpoch() || req.partitionEpoch() > ps.partitionEpoch()) {
            return ReplicationError.NOT_CONTROLLER;
        }
        if (req.leaderEpoch() < ps.leaderEpoch()) {
            return ReplicationError.FENCED_LEADER_EPOCH;
        }
        if (leaderId != ps.leader()) {
            return ReplicationError.INVALID_REQUEST;
        }
        if (req.partitionEpoch() < ps.partitionEpoch()) {
            return ReplicationError.INVALID_UPDATE_VERSION;
        }
        int[] isr = req.newIsr();
        if (!ReplicaIds.isSubsetWithoutDuplicates(isr, ps.replicas()) || !BrokerIds.contains(isr, ps.leader())) {
            return ReplicationError.INVALID_REQUEST;
        }
        for (int id : isr) {
            if (!state.isEligibleReplica(id)) {
                return ReplicationError.INELIGIBLE_REPLICA;
            }
        }
        return ReplicationError.NONE;
    }

    // ---- reassignment ----------------------------------------------------------------------------------------

    /**
     * Kafka's AlterPartitionReassignments ({@link ReassignmentControl}); a null target cancels, uncleanly only where
     * the topic (or the cluster default) allows unclean leader election.
     */
    List<ReassignmentResult> alterReassignments(
            ClusterState state, Map<PartitionRef, int[]> targets, DeltaRecord delta) {
        return ReassignmentControl.alter(
                state, targets, eligible(state), key -> uncleanAllowed(state, key), new PendingChanges(state, delta));
    }

    /** Whether broker {@code id} may be elected: live in {@code state} and not shutting down. */
    private static IntPredicate eligible(ClusterState state) {
        return state::isEligibleReplica;
    }

    // ---- controlled shutdown ---------------------------------------------------------------------------------

    /**
     * Kafka's ControlledShutdown of broker {@code brokerId}: marks it shutting down in the state (once: a retry
     * publishes only what moves); each partition it leads gets the first other live in-sync replica (not shutting
     * down) in replica order, without it in the ISR; it leaves the ISRs where it follows and others remain. The
     * result lists the partitions it still leads, except those with a single replica (as Kafka: no retry can move
     * them).
     */
    ControlledShutdownResult controlledShutdown(ClusterState state, int brokerId, DeltaRecord delta) {
        if (!state.hasBroker(brokerId)) {
            return new ControlledShutdownResult(ReplicationError.BROKER_NOT_AVAILABLE, List.of());
        }
        if (!state.isShuttingDown(brokerId)) {
            delta.shuttingDown = new int[] {brokerId};
        }
        IntPredicate eligible = id -> id != brokerId && state.isEligibleReplica(id);
        PendingChanges pending = new PendingChanges(state, delta);
        List<PartitionRef> remaining = new ArrayList<>();
        for (PartitionKey key : partitions.replicaOf(brokerId)) {
            PartitionState ps = pending.current(key);
            if (ps.leader() == brokerId) {
                int elected = ReplicaIds.firstIn(ps.replicas(), ps.isr(), eligible);
                if (elected != NO_LEADER) {
                    PartitionState next =
                            ps.withLeader(elected, ps.leaderEpoch() + 1, BrokerIds.without(ps.isr(), brokerId));
                    pending.change(key, completingReassignment(state, key, next, eligible));
                } else if (ps.replicas().length > 1) {
                    remaining.add(new PartitionRef(state.topic(key.topicId()).name(), key.partition()));
                }
            } else if (ps.inIsr(brokerId) && ps.isr().length > 1) {
                PartitionState next =
                        ps.withLeader(ps.leader(), ps.leaderEpoch(), BrokerIds.without(ps.isr(), brokerId));
                pending.change(key, completingReassignment(state, key, next, eligible));
            }
        }
        LOG.info(
                "broker {} shutting down: {} partition changes, still leads {}",
                brokerId,
                delta.partitionChanges.size(),
                remaining);
        return new ControlledShutdownResult(ReplicationError.NONE, remaining);
    }

    // ---- elections -------------------------------------------------------------------------------------------

    /**
     * Kafka's ElectLeaders. PREFERRED: ELECTION_NOT_NEEDED when the preferred replica leads; else it leads when live,
     * in sync and not shutting down; else the current leader stays when it can (PREFERRED_LEADER_NOT_AVAILABLE), or
     * the first eligible in-sync replica takes over. UNCLEAN: ELECTION_NOT_NEEDED when the partition has a leader;
     * else the first live in-sync replica, else the first live replica with an ISR of itself (logged as possible
     * data loss), else ELIGIBLE_LEADERS_NOT_AVAILABLE.
     */
    List<ElectionResult> electLeaders(
            ClusterState state, Collection<PartitionRef> refs, ElectionType type, DeltaRecord delta) {
        PendingChanges pending = new PendingChanges(state, delta);
        IntPredicate eligible = eligible(state);
        List<ElectionResult> results = new ArrayList<>(refs.size());
        for (PartitionRef ref : refs) {
            TopicState topic = state.topic(ref.topic());
            if (topic == null || ref.partition() < 0 || ref.partition() >= topic.partitionCount()) {
                results.add(new ElectionResult(
                        ref, ReplicationError.UNKNOWN_TOPIC_OR_PARTITION, "no partition " + ref, null));
                continue;
            }
            PartitionKey key = new PartitionKey(topic.id(), ref.partition());
            PartitionState ps = pending.current(key);
            ElectionResult r = type == ElectionType.PREFERRED
                    ? LeaderElection.preferred(ref, ps, eligible)
                    : LeaderElection.unclean(state, key, ref, ps, eligible);
            if (r.error() == ReplicationError.NONE) {
                r = new ElectionResult(
                        r.partition(), r.error(), r.message(), completingReassignment(state, key, r.state(), eligible));
                pending.change(key, r.state());
            }
            results.add(r);
        }
        return results;
    }

    // ---- leader imbalance ------------------------------------------------------------------------------------

    /**
     * Kafka's periodic leader-imbalance check ({@link LeaderImbalance}), electing only eligible brokers. A check that
     * finds reassignments whose target is already met ({@link #completeMetReassignments}) completes them instead and
     * leaves the rebalance to the next check (the take-over completes those of the state it loads at once).
     */
    void rebalanceLeaders(ClusterState state, DeltaRecord delta) {
        completeMetReassignments(state, delta);
        if (delta.isEmpty()) {
            LeaderImbalance.rebalance(state, config.leaderImbalancePerBrokerPercentage(), eligible(state), delta);
        }
    }

    // ---- reassignment completion -----------------------------------------------------------------------------

    /**
     * Completes every reassignment in {@code state} whose target replicas are all in the ISR (and that an eligible
     * target replica can lead), as the ZooKeeper-mode controller does for the reassignments it finds at fail-over. A
     * controller taking over runs it once on the loaded state. O(partitions).
     */
    void completeMetReassignments(ClusterState state, DeltaRecord delta) {
        PendingChanges pending = new PendingChanges(state, delta);
        IntPredicate eligible = eligible(state);
        for (TopicState topic : state.topicsById().values()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionState ps = topic.partition(p);
                if (ps.isReassigning()) {
                    PartitionKey key = new PartitionKey(topic.id(), p);
                    PartitionState done = completingReassignment(state, key, ps, eligible);
                    if (done != ps) {
                        pending.change(key, done);
                    }
                }
            }
        }
    }

    /**
     * {@code next} (a change of the partition under the next partition epoch, or its current state), or, when it is
     * under reassignment and every target replica is in its ISR, the completed reassignment instead (one more epoch).
     */
    private static PartitionState completingReassignment(
            ClusterState state, PartitionKey key, PartitionState next, IntPredicate eligible) {
        PartitionState completed = ReassignmentControl.completedIfInSync(next, eligible);
        if (completed == null) {
            return next;
        }
        LOG.info(
                "reassignment of {}-{} complete: {}", state.topic(key.topicId()).name(), key.partition(), completed);
        return completed;
    }

    // ---- administrative ISR ----------------------------------------------------------------------------------

    /**
     * Sets ISRs as given (an administrative change, no epoch fencing): members must be replicas and include a live
     * leader. Leader and leader epoch stay; the partition epoch is bumped.
     */
    void setIsrs(ClusterState state, Map<PartitionRef, int[]> isrs, DeltaRecord delta)
            throws UnknownTopicException, InvalidIsrException {
        PendingChanges pending = new PendingChanges(state, delta);
        for (Map.Entry<PartitionRef, int[]> e : isrs.entrySet()) {
            PartitionRef ref = e.getKey();
            TopicState topic = state.topic(ref.topic());
            if (topic == null || ref.partition() < 0 || ref.partition() >= topic.partitionCount()) {
                throw new UnknownTopicException("partition " + ref + " does not exist");
            }
            PartitionKey key = new PartitionKey(topic.id(), ref.partition());
            PartitionState ps = pending.current(key);
            int[] isr = e.getValue().clone();
            if (isr.length == 0) {
                throw new InvalidIsrException("partition " + ref + ": empty ISR");
            }
            for (int id : isr) {
                if (!ps.hasReplica(id)) {
                    throw new InvalidIsrException("partition " + ref + ": ISR member " + id
                            + " is not one of the replicas " + Arrays.toString(ps.replicas()));
                }
            }
            if (!ps.isOffline() && !BrokerIds.contains(isr, ps.leader())) {
                throw new InvalidIsrException(
                        "partition " + ref + ": ISR " + Arrays.toString(isr) + " leaves out the leader " + ps.leader());
            }
            PartitionState next = ps.withLeader(ps.leader(), ps.leaderEpoch(), isr);
            pending.change(key, completingReassignment(state, key, next, eligible(state)));
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private boolean uncleanAllowed(ClusterState state, PartitionKey key) {
        return config.uncleanLeaderElectionEnabled(
                state.topic(key.topicId()).configs(), state.brokerConfigs(ClusterState.CLUSTER_DEFAULT_BROKER));
    }

    /** {@code ps} with the given leadership under the next partition epoch, null when nothing differs. */
    private static PartitionState changed(PartitionState ps, int leader, int leaderEpoch, int[] isr) {
        if (leader == ps.leader() && leaderEpoch == ps.leaderEpoch() && Arrays.equals(isr, ps.isr())) {
            return null;
        }
        return ps.withLeader(leader, leaderEpoch, isr);
    }
}
