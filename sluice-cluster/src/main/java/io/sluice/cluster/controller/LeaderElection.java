package io.sluice.cluster.controller;

import static io.sluice.cluster.state.PartitionState.NO_LEADER;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import java.util.Arrays;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's ElectLeaders rules for one partition, preferred and unclean, each answering an {@link ElectionResult} with
 * the partition as it would be. Pure logic; stateless; thread-safe.
 */
final class LeaderElection {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationControl.class);

    private LeaderElection() {}

    /** Kafka's preferred election of one partition (see {@link ReplicationControl#electLeaders}). */
    static ElectionResult preferred(PartitionRef ref, PartitionState ps, IntPredicate eligible) {
        int preferred = ps.preferredReplica();
        if (ps.leader() == preferred) {
            return new ElectionResult(
                    ref, ReplicationError.ELECTION_NOT_NEEDED, "preferred replica " + preferred + " already leads", ps);
        }
        int elected = NO_LEADER;
        if (eligible.test(preferred) && ps.inIsr(preferred)) {
            elected = preferred;
        } else if (ps.isOffline() || !eligible.test(ps.leader())) {
            elected = ReplicaIds.firstIn(ps.replicas(), ps.isr(), eligible);
        }
        if (elected == NO_LEADER || elected == ps.leader()) {
            return new ElectionResult(
                    ref,
                    ReplicationError.PREFERRED_LEADER_NOT_AVAILABLE,
                    "preferred replica " + preferred + " is not live and in sync (isr " + Arrays.toString(ps.isr())
                            + ")",
                    ps);
        }
        return new ElectionResult(
                ref, ReplicationError.NONE, "", ps.withLeader(elected, ps.leaderEpoch() + 1, ps.isr()));
    }

    /** Kafka's unclean election of one partition (see {@link ReplicationControl#electLeaders}). */
    static ElectionResult unclean(
            ClusterState state, PartitionKey key, PartitionRef ref, PartitionState ps, IntPredicate eligible) {
        if (!ps.isOffline()) {
            return new ElectionResult(ref, ReplicationError.ELECTION_NOT_NEEDED, "led by " + ps.leader(), ps);
        }
        int elected = ReplicaIds.firstIn(ps.replicas(), ps.isr(), eligible);
        int[] isr = ps.isr();
        if (elected == NO_LEADER) {
            elected = ReplicaIds.firstIn(ps.replicas(), ps.replicas(), eligible);
            if (elected == NO_LEADER) {
                return new ElectionResult(
                        ref,
                        ReplicationError.ELIGIBLE_LEADERS_NOT_AVAILABLE,
                        "no replica of " + Arrays.toString(ps.replicas()) + " is live",
                        ps);
            }
            logUnclean(state, key, ps, elected);
            isr = new int[] {elected};
        }
        return new ElectionResult(ref, ReplicationError.NONE, "", ps.withLeader(elected, ps.leaderEpoch() + 1, isr));
    }

    /** Logs an unclean election at error level: acknowledged records may be lost. */
    static void logUnclean(ClusterState state, PartitionKey key, PartitionState ps, int elected) {
        LOG.error(
                "unclean leader election for {}-{}: no in-sync replica of {} is live, out-of-sync replica {} "
                        + "becomes leader; records acknowledged since it fell behind may be lost",
                state.topic(key.topicId()).name(),
                key.partition(),
                Arrays.toString(ps.isr()),
                elected);
    }
}
