package io.sluice.broker.api;

import io.sluice.cluster.state.PartitionState;
import org.apache.kafka.common.protocol.Errors;

import java.util.function.IntPredicate;

/**
 * The leader a Metadata or DescribeTopicPartitions answer names for a partition. As in Kafka, only a live broker is
 * named: while the cluster state still shows a broker that has left as the leader (its session expired, the new
 * leader not yet published), the answer is LEADER_NOT_AVAILABLE with leader -1, so that a client asks again instead of
 * waiting for a broker that is not among the live ones it was given.
 *
 * <p>Thread-safe; stateless.
 */
final class AdvertisedLeader {
    /** Kafka's "no leader" id in metadata answers. */
    static final int NO_LEADER = -1;

    private AdvertisedLeader() {
    }

    /** The partition's leader when it is live, {@link #NO_LEADER} otherwise. */
    static int of(PartitionState state, IntPredicate isLive) {
        return !state.isOffline() && isLive.test(state.leader()) ? state.leader() : NO_LEADER;
    }

    /** The partition error that goes with {@code advertisedLeader}. */
    static short error(int advertisedLeader) {
        return advertisedLeader == NO_LEADER ? Errors.LEADER_NOT_AVAILABLE.code() : Errors.NONE.code();
    }
}
