package io.sluice.cluster.controller;

import static io.sluice.cluster.state.PartitionState.NO_LEADER;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.BrokerIds;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's partition reassignment (KIP-455) as the KRaft controller runs it. A target replica set puts the partition
 * under reassignment: its replicas become the target followed by the original replicas the target leaves out (the
 * removing replicas); the target's new brokers are the adding replicas, outside the ISR until they catch up. A new
 * target for a partition already moving is measured against the original replicas, not the interim set (as Kafka's
 * ZooKeeper controller does): an adding replica the new target leaves out stops being a replica, so it leaves the ISR
 * in the same change, and if it led, the first eligible in-sync replica of the new replica set leads (none: the
 * partition is offline with its ISR kept, until a member is live again). A new target that would leave nothing in
 * the ISR (every in-sync replica an adding one it drops) is refused with INVALID_REPLICA_ASSIGNMENT, whatever
 * unclean.leader.election.enable says: it would need an unclean election and lose acknowledged records. Once every
 * target replica is in the ISR the reassignment completes in the same delta: replicas become the target, the ISR
 * keeps only target replicas, and a leader outside the target hands over to the first eligible in-sync target
 * replica. A null target cancels: the replicas return to the original set; a cancel that finds no original replica
 * in sync is refused with INVALID_REPLICA_ASSIGNMENT unless the topic allows unclean leader election (Kafka's
 * cancelPartitionReassignment). Every replica-set change bumps the leader epoch, so each replica re-reads its role and
 * the leader re-counts its followers. What holds after every change: the ISR holds only replicas, and the leader,
 * when there is one, is in the ISR.
 *
 * <p>Pure logic over a {@link ClusterState} and the changes of one delta; stateless, safe to share.
 */
final class ReassignmentControl {
    private static final Logger LOG = LoggerFactory.getLogger(ReassignmentControl.class);
    private static final int[] NONE = new int[0];

    private ReassignmentControl() {}

    /**
     * Applies each request ({@code target} null cancels) and returns one result per request, in request order.
     *
     * @param eligible       whether a broker may lead (live and not shutting down)
     * @param uncleanAllowed whether a partition's topic allows unclean leader election
     */
    static List<ReassignmentResult> alter(
            ClusterState state,
            Map<PartitionRef, int[]> targets,
            IntPredicate eligible,
            Predicate<PartitionKey> uncleanAllowed,
            PendingChanges pending) {
        List<ReassignmentResult> results = new ArrayList<>(targets.size());
        for (Map.Entry<PartitionRef, int[]> e : targets.entrySet()) {
            results.add(alterOne(state, e.getKey(), e.getValue(), eligible, uncleanAllowed, pending));
        }
        return results;
    }

    private static ReassignmentResult alterOne(
            ClusterState state,
            PartitionRef ref,
            int[] target,
            IntPredicate eligible,
            Predicate<PartitionKey> uncleanAllowed,
            PendingChanges pending) {
        TopicState topic = state.topic(ref.topic());
        if (topic == null || ref.partition() < 0 || ref.partition() >= topic.partitionCount()) {
            return new ReassignmentResult(
                    ref, ReplicationError.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find partition " + ref);
        }
        PartitionKey key = new PartitionKey(topic.id(), ref.partition());
        PartitionState ps = pending.current(key);
        if (target == null) {
            if (!ps.isReassigning()) {
                return new ReassignmentResult(
                        ref,
                        ReplicationError.NO_REASSIGNMENT_IN_PROGRESS,
                        "No ongoing reassignment for partition " + ref);
            }
            int[] original = ps.originalReplicas();
            boolean unclean = BrokerIds.intersect(ps.isr(), original).length == 0;
            if (unclean && !uncleanAllowed.test(key)) {
                return refused(
                        ref,
                        "Unable to cancel the reassignment of " + ref + " because it would require an unclean leader "
                                + "election: no original replica of " + Arrays.toString(original)
                                + " is in the ISR " + Arrays.toString(ps.isr()) + " and "
                                + ClusterConfig.UNCLEAN_LEADER_ELECTION_ENABLE + " is false for topic " + ref.topic()
                                + ". The reassignment goes on.");
            }
            pending.change(key, cancelled(ref, ps, eligible));
            LOG.info("reassignment of {} cancelled: replicas back to {}", ref, Arrays.toString(original));
            return new ReassignmentResult(ref, ReplicationError.NONE, null);
        }
        String invalid = invalidTarget(state, target);
        if (invalid == null) {
            invalid = emptiesTheIsr(ref, ps, target);
        }
        if (invalid != null) {
            return refused(ref, invalid);
        }
        PartitionState next = started(ps, target, eligible);
        PartitionState completed = completedIfInSync(next != null ? next : ps, eligible);
        next = completed != null ? completed : next;
        if (next != null) {
            LOG.info("reassignment of {} to {}: {}", ref, Arrays.toString(target), next);
            pending.change(key, next);
        }
        return new ReassignmentResult(ref, ReplicationError.NONE, null);
    }

    private static ReassignmentResult refused(PartitionRef ref, String why) {
        LOG.info("reassignment request for {} refused with INVALID_REPLICA_ASSIGNMENT: {}", ref, why);
        return new ReassignmentResult(ref, ReplicationError.INVALID_REPLICA_ASSIGNMENT, why);
    }

    /** Kafka's checks of a manual assignment: not empty, no broker twice, every broker registered. */
    private static String invalidTarget(ClusterState state, int[] target) {
        if (target.length == 0) {
            return "The manual partition assignment includes an empty replica list.";
        }
        for (int i = 0; i < target.length; i++) {
            for (int j = 0; j < i; j++) {
                if (target[j] == target[i]) {
                    return "The manual partition assignment includes the broker " + target[i] + " more than once.";
                }
            }
            if (!state.hasBroker(target[i])) {
                return "The manual partition assignment includes broker " + target[i]
                        + ", but no such broker is registered.";
            }
        }
        return null;
    }

    /**
     * Why {@code target} is refused because none of the in-sync replicas would stay a replica (each is an adding
     * replica the target leaves out), else null. Dropping them would need an unclean election, so the change is
     * refused even where the topic allows one; the operator may keep one of them in the target, wait for an original
     * replica to catch up, or cancel (which follows unclean.leader.election.enable) and reassign afresh.
     */
    private static String emptiesTheIsr(PartitionRef ref, PartitionState ps, int[] target) {
        if (BrokerIds.intersect(ps.isr(), replicasFor(ps, target)).length > 0) {
            return null;
        }
        return "Unable to change the reassignment of " + ref + " to " + Arrays.toString(target)
                + " because it would require an unclean leader election: its ISR " + Arrays.toString(ps.isr())
                + " holds only adding replicas the new target leaves out. Keep one of them in the target, or wait "
                + "until an original replica of " + Arrays.toString(ps.originalReplicas()) + " is in sync.";
    }

    /** The replica set while moving to {@code target}: the target, then the original replicas it leaves out. */
    private static int[] replicasFor(PartitionState ps, int[] target) {
        return BrokerIds.union(target, BrokerIds.minus(ps.originalReplicas(), target));
    }

    /**
     * The partition under reassignment to {@code target}; null when nothing would change: it already has exactly that
     * replica set, or it is already moving to that very target (the same request again, as {@code
     * kafka-reassign-partitions.sh --execute --additional} sends to change the throttle of a running reassignment:
     * Kafka's controller publishes nothing for it, so the leader epoch stays). A reorder of the same brokers takes effect at once. The ISR keeps only the new replicas (an
     * adding replica the target leaves out leaves it); the leader stays when it is still an in-sync replica, else the
     * first eligible in-sync replica in the new replica order leads (NO_LEADER when none is eligible). The caller has
     * refused a target that would leave the ISR empty.
     */
    static PartitionState started(PartitionState ps, int[] target, IntPredicate eligible) {
        int[] original = ps.originalReplicas();
        int[] adding = BrokerIds.minus(target, original);
        int[] removing = BrokerIds.minus(original, target);
        int[] replicas = replicasFor(ps, target);
        if (Arrays.equals(ps.replicas(), replicas)
                && Arrays.equals(ps.addingReplicas(), adding)
                && Arrays.equals(ps.removingReplicas(), removing)) {
            return null;
        }
        int[] isr = BrokerIds.intersect(ps.isr(), replicas);
        int leader = ps.leader();
        if (!BrokerIds.contains(isr, leader)) {
            leader = ReplicaIds.firstIn(replicas, isr, eligible);
        }
        return ps.withReplicas(replicas, adding, removing, leader, ps.leaderEpoch() + 1, isr);
    }

    /**
     * The completed reassignment when every target replica is in the ISR, else null: replicas become the target, the
     * ISR keeps only target replicas, and the leader stays when it is one of them, else the first eligible in-sync
     * target replica leads.
     */
    static PartitionState completedIfInSync(PartitionState ps, IntPredicate eligible) {
        if (!ps.isReassigning()) {
            return null;
        }
        int[] target = ps.targetReplicas();
        for (int id : target) {
            if (!ps.inIsr(id)) {
                return null;
            }
        }
        int[] isr = BrokerIds.intersect(ps.isr(), target);
        int leader = ps.leader();
        if (!BrokerIds.contains(target, leader)) {
            leader = ReplicaIds.firstIn(target, isr, eligible);
            if (leader == NO_LEADER) {
                return null;
            }
        }
        return ps.withReplicas(target.clone(), NONE, NONE, leader, ps.leaderEpoch() + 1, isr);
    }

    /**
     * The partition back on its original replicas: the ISR keeps only original replicas, the leader stays when it is
     * one of them, else the first eligible in-sync original replica leads. If none of them is in sync (the caller
     * has checked that the topic allows unclean leader election), the first live one, else the first, becomes the
     * ISR alone, as an unclean choice that is logged.
     */
    private static PartitionState cancelled(PartitionRef ref, PartitionState ps, IntPredicate eligible) {
        int[] original = ps.originalReplicas();
        int[] isr = BrokerIds.intersect(ps.isr(), original);
        if (isr.length == 0) {
            int first = ReplicaIds.firstIn(original, original, eligible);
            LOG.error(
                    "cancelling the reassignment of {} with unclean leader election enabled: no original replica of "
                            + "{} is in sync (isr {}); {} becomes leader, records only the adding replicas hold may be "
                            + "lost",
                    ref,
                    Arrays.toString(original),
                    Arrays.toString(ps.isr()),
                    first);
            isr = first == NO_LEADER ? new int[] {original[0]} : new int[] {first};
        }
        int leader = ps.leader();
        if (!BrokerIds.contains(original, leader) || !BrokerIds.contains(isr, leader)) {
            leader = ReplicaIds.firstIn(original, isr, eligible);
        }
        return ps.withReplicas(original, NONE, NONE, leader, ps.leaderEpoch() + 1, isr);
    }
}
