package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.state.PartitionState;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

class AdvertisedLeaderTest {
    private static final Set<Integer> LIVE = Set.of(1, 2);
    /** Broker 2 is live but has no endpoint for the request's listener. */
    private static final IntPredicate REACHABLE = Set.of(1)::contains;

    private static final short LATEST = 12;

    @Test
    void shouldNameALiveLeader() {
        PartitionState state = new PartitionState(new int[] {1, 2}, 2, 4, new int[] {1, 2});
        int leader = AdvertisedLeader.of(state, LIVE::contains);
        assertEquals(2, leader);
        assertEquals(Errors.NONE.code(), AdvertisedLeader.metadataError(state, LIVE::contains, LIVE::contains, LATEST));
    }

    @Test
    void shouldAnswerLeaderNotAvailableWhileTheStateStillNamesABrokerThatLeft() {
        // Broker 3's session expired: it is no longer live, but the delta electing a new leader is not applied yet.
        PartitionState state = new PartitionState(new int[] {1, 2, 3}, 3, 4, new int[] {1, 2, 3});
        assertEquals(AdvertisedLeader.NO_LEADER, AdvertisedLeader.of(state, LIVE::contains));
        assertEquals(
                Errors.LEADER_NOT_AVAILABLE.code(),
                AdvertisedLeader.metadataError(state, LIVE::contains, LIVE::contains, LATEST));
    }

    @Test
    void shouldAnswerLeaderNotAvailableForAnOfflinePartition() {
        PartitionState state = new PartitionState(new int[] {3}, -1, 5, new int[] {3});
        assertEquals(AdvertisedLeader.NO_LEADER, AdvertisedLeader.of(state, LIVE::contains));
        assertEquals(
                Errors.LEADER_NOT_AVAILABLE.code(),
                AdvertisedLeader.metadataError(state, LIVE::contains, LIVE::contains, LATEST));
    }

    @Test
    void shouldAnswerListenerNotFoundFromV6WhenTheLiveLeaderLacksTheListener() {
        PartitionState state = new PartitionState(new int[] {1, 2}, 2, 4, new int[] {1, 2});
        assertEquals(AdvertisedLeader.NO_LEADER, AdvertisedLeader.of(state, REACHABLE));
        assertEquals(
                Errors.LISTENER_NOT_FOUND.code(),
                AdvertisedLeader.metadataError(state, LIVE::contains, REACHABLE, (short) 6));
        assertEquals(
                Errors.LISTENER_NOT_FOUND.code(),
                AdvertisedLeader.metadataError(state, LIVE::contains, REACHABLE, LATEST));
    }

    @Test
    void shouldAnswerLeaderNotAvailableBeforeV6WhenTheLiveLeaderLacksTheListener() {
        PartitionState state = new PartitionState(new int[] {1, 2}, 2, 4, new int[] {1, 2});
        for (short version = 0; version < 6; version++) {
            assertEquals(
                    Errors.LEADER_NOT_AVAILABLE.code(),
                    AdvertisedLeader.metadataError(state, LIVE::contains, REACHABLE, version),
                    "v" + version);
        }
    }

    @Test
    void shouldAnswerLeaderNotAvailableNotListenerNotFoundForALeaderThatLeft() {
        // Broker 3 is neither live nor reachable: whatever its listeners were, it is the leader that is missing.
        PartitionState state = new PartitionState(new int[] {1, 3}, 3, 4, new int[] {1, 3});
        assertEquals(
                Errors.LEADER_NOT_AVAILABLE.code(),
                AdvertisedLeader.metadataError(state, LIVE::contains, REACHABLE, LATEST));
    }

    @Test
    void shouldListEveryReplicaAndIsrMemberFromV1EvenWithoutTheListener() {
        PartitionState state = new PartitionState(new int[] {1, 2, 3}, 1, 4, new int[] {1, 2});
        assertEquals(List.of(1, 2, 3), AdvertisedLeader.metadataReplicas(state.replicas(), REACHABLE, (short) 1));
        assertEquals(List.of(1, 2), AdvertisedLeader.metadataReplicas(state.isr(), REACHABLE, LATEST));
        assertEquals(Errors.NONE.code(), AdvertisedLeader.metadataError(state, LIVE::contains, REACHABLE, LATEST));
        assertEquals(List.of(1, 2, 3), AdvertisedLeader.all(state.replicas()));
    }

    @Test
    void shouldListOnlyReachableReplicasInV0AndAnswerReplicaNotAvailable() {
        PartitionState state = new PartitionState(new int[] {1, 2, 3}, 1, 4, new int[] {1, 2});
        assertEquals(List.of(1), AdvertisedLeader.metadataReplicas(state.replicas(), REACHABLE, (short) 0));
        assertEquals(List.of(1), AdvertisedLeader.metadataReplicas(state.isr(), REACHABLE, (short) 0));
        assertEquals(
                Errors.REPLICA_NOT_AVAILABLE.code(),
                AdvertisedLeader.metadataError(state, LIVE::contains, REACHABLE, (short) 0));
    }

    @Test
    void shouldAnswerReplicaNotAvailableInV0WhenOnlyAnIsrMemberIsUnreachable() {
        // Kafka checks the ISR too; here every replica is reachable except through the ISR's member 2.
        PartitionState state = new PartitionState(new int[] {1}, 1, 4, new int[] {1, 2});
        assertEquals(
                Errors.REPLICA_NOT_AVAILABLE.code(),
                AdvertisedLeader.metadataError(state, LIVE::contains, REACHABLE, (short) 0));
        assertEquals(
                Errors.NONE.code(), AdvertisedLeader.metadataError(state, LIVE::contains, LIVE::contains, (short) 0));
    }

    @Test
    void shouldReportReplicasWithoutTheListenerOrNotLiveAsOffline() {
        PartitionState state = new PartitionState(new int[] {1, 2, 3}, 1, 4, new int[] {1, 2, 3});
        assertEquals(List.of(2, 3), AdvertisedLeader.offlineReplicas(state, REACHABLE));
        assertEquals(List.of(3), AdvertisedLeader.offlineReplicas(state, LIVE::contains));
    }
}
