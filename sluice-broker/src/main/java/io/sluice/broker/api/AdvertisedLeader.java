package io.sluice.broker.api;

import io.sluice.cluster.state.PartitionState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.kafka.common.protocol.Errors;

/**
 * The leader, error and replica lists a Metadata or DescribeTopicPartitions answer gives for a partition, as Kafka 3.9
 * decides them for the listener the request arrived on. A broker is <em>reachable</em> when it is live and has an
 * endpoint for that listener; only a reachable leader is named (otherwise -1).
 *
 * <p>Metadata says why no leader is named: LEADER_NOT_AVAILABLE while the leader is not live (its session expired,
 * the new leader not yet published, or the partition offline), LISTENER_NOT_FOUND (v6+) when the leader is live but
 * has no endpoint for the request's listener (LEADER_NOT_AVAILABLE before v6). Replicas and ISR are listed in full,
 * except in v0, which lists only reachable ones and answers REPLICA_NOT_AVAILABLE when it left one out. Like Kafka,
 * DescribeTopicPartitions carries no partition error: a leader of -1 says it all. In both, a replica that is not
 * reachable on the listener is reported offline (Kafka's KRaft rule).
 *
 * <p>Thread-safe; stateless.
 */
final class AdvertisedLeader {
    /** Kafka's "no leader" id in metadata answers. */
    static final int NO_LEADER = -1;
    /** Metadata versions before this one answer LEADER_NOT_AVAILABLE for a leader lacking the listener. */
    static final short FIRST_METADATA_VERSION_WITH_LISTENER_NOT_FOUND = 6;

    private AdvertisedLeader() {}

    /** The partition's leader when it is reachable on the request's listener, {@link #NO_LEADER} otherwise. */
    static int of(PartitionState state, IntPredicate reachable) {
        return !state.isOffline() && reachable.test(state.leader()) ? state.leader() : NO_LEADER;
    }

    /**
     * The Metadata partition error at {@code version}: {@code live} tells whether a broker is live on any listener,
     * {@code reachable} whether it is live with an endpoint for the request's listener.
     */
    static short metadataError(PartitionState state, IntPredicate live, IntPredicate reachable, short version) {
        if (of(state, reachable) == NO_LEADER) {
            boolean leaderLacksListener = !state.isOffline() && live.test(state.leader());
            return leaderLacksListener && version >= FIRST_METADATA_VERSION_WITH_LISTENER_NOT_FOUND
                    ? Errors.LISTENER_NOT_FOUND.code()
                    : Errors.LEADER_NOT_AVAILABLE.code();
        }
        if (version == 0 && (!allMatch(state.replicas(), reachable) || !allMatch(state.isr(), reachable))) {
            return Errors.REPLICA_NOT_AVAILABLE.code();
        }
        return Errors.NONE.code();
    }

    /** Replicas or ISR as Metadata at {@code version} lists them: all, or in v0 only the reachable ones. */
    static List<Integer> metadataReplicas(int[] brokerIds, IntPredicate reachable, short version) {
        return version == 0 ? ids(brokerIds, reachable) : ids(brokerIds, id -> true);
    }

    /** The replicas reported offline: those not reachable on the request's listener. */
    static List<Integer> offlineReplicas(PartitionState state, IntPredicate reachable) {
        return ids(state.replicas(), reachable.negate());
    }

    /** Replicas or ISR as DescribeTopicPartitions lists them: all. */
    static List<Integer> all(int[] brokerIds) {
        return ids(brokerIds, id -> true);
    }

    private static List<Integer> ids(int[] brokerIds, IntPredicate keep) {
        List<Integer> out = new ArrayList<>(brokerIds.length);
        for (int id : brokerIds) {
            if (keep.test(id)) {
                out.add(id);
            }
        }
        return out;
    }

    private static boolean allMatch(int[] brokerIds, IntPredicate test) {
        for (int id : brokerIds) {
            if (!test.test(id)) {
                return false;
            }
        }
        return true;
    }
}
