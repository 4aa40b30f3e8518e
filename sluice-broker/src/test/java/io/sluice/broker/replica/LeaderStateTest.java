package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.codec.endpoint.Endpoint;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaderStateTest {
    private static final int SELF = 1;
    private static final long LAG_MS = 1_000;

    private static LeaderState leaderOf(int[] isr, long epochStart) {
        return new LeaderState(SELF, new int[] {1, 2, 3}, isr, 5, 7, epochStart, 0);
    }

    @Test
    void shouldHoldTheHighWatermarkUntilEveryIsrMemberFetched() {
        LeaderState state = leaderOf(new int[] {1, 2, 3}, 0);

        assertEquals(FollowerProgress.UNKNOWN_OFFSET, state.highWatermarkCandidate(100));
        state.onFollowerFetch(2, 80, 100, 0, 10);
        assertEquals(FollowerProgress.UNKNOWN_OFFSET, state.highWatermarkCandidate(100));
        state.onFollowerFetch(3, 60, 100, 0, 10);
        assertEquals(60, state.highWatermarkCandidate(100));
    }

    @Test
    void shouldIgnoreFollowersOutsideTheIsrForTheHighWatermark() {
        LeaderState state = leaderOf(new int[] {1, 2}, 0);
        state.onFollowerFetch(2, 90, 100, 0, 10);

        assertEquals(90, state.highWatermarkCandidate(100));
    }

    @Test
    void shouldProposeExpansionOnlyOnceCaughtUpToTheHighWatermarkAndTheEpochStart() {
        LeaderState state = leaderOf(new int[] {1, 2}, 50);

        assertNull(state.onFollowerFetch(3, 40, 100, 40, 10), "below the epoch start");
        assertNull(state.onFollowerFetch(3, 55, 100, 60, 10), "below the high watermark");
        int[] proposed = state.onFollowerFetch(3, 60, 100, 60, 10);

        assertArrayEquals(new int[] {1, 2, 3}, proposed);
        assertTrue(state.hasPendingChange());
        assertNull(state.onFollowerFetch(3, 70, 100, 60, 20), "one change in flight at a time");
        assertArrayEquals(new int[] {1, 2, 3}, state.maximalIsr(), "a proposed member counts at once");
    }

    @Test
    void shouldNotProposeAFollowerWhoseBrokerIsNotLive() {
        LeaderState state = leaderOf(new int[] {1, 2}, 50);

        assertNull(state.onFollowerFetch(3, 60, 100, 60, 10, false), "the controller would refuse it");
        assertFalse(state.hasPendingChange(), "no change in flight, so a shrink can still be proposed");
        assertArrayEquals(new int[] {1, 2, 3}, state.onFollowerFetch(3, 60, 100, 60, 20, true));
    }

    @Test
    void shouldNotProposeAFollowerWhoseBrokerIsInControlledShutdown() {
        ClusterState live = ClusterState.of(1, 0, List.of(broker(1), broker(2), broker(3)), List.of());
        DeltaRecord shutdown = new DeltaRecord();
        shutdown.controllerEpoch = 1;
        shutdown.shuttingDown = new int[] {3};
        ClusterState shuttingDown = live.apply(shutdown, 1);
        LeaderState state = leaderOf(new int[] {1, 2}, 50);

        assertFalse(ReplicaManager.isEligibleForIsr(shuttingDown, 3), "live, but in controlled shutdown");
        assertNull(
                state.onFollowerFetch(3, 60, 100, 60, 10, ReplicaManager.isEligibleForIsr(shuttingDown, 3)),
                "the controller would refuse it as INELIGIBLE_REPLICA");
        assertFalse(state.hasPendingChange());

        DeltaRecord registersAgain = new DeltaRecord();
        registersAgain.controllerEpoch = 1;
        registersAgain.prevSeq = 1;
        registersAgain.joined.add(BrokerRecord.of(broker(3)));
        ClusterState restarted = shuttingDown.apply(registersAgain, 2);
        assertArrayEquals(
                new int[] {1, 2, 3},
                state.onFollowerFetch(3, 60, 100, 60, 20, ReplicaManager.isEligibleForIsr(restarted, 3)),
                "a new registration makes it eligible again");
        assertFalse(ReplicaManager.isEligibleForIsr(restarted, 4), "not live");
        assertTrue(ReplicaManager.isEligibleForIsr(null, 4), "no state yet: the controller decides");
    }

    private static BrokerInfo broker(int id) {
        return BrokerInfo.of(id, "", Endpoint.of("127.0.0.1", 9000 + id));
    }

    @Test
    void shouldShrinkFollowersNotCaughtUpForTheLagTimeButNeverTheLeader() {
        LeaderState state = leaderOf(new int[] {1, 2, 3}, 0);
        state.onFollowerFetch(2, 100, 100, 0, 500);
        state.onFollowerFetch(3, 10, 100, 0, 500);

        assertNull(state.proposeShrink(900, LAG_MS), "nobody lags a whole lag time yet");
        int[] proposed = state.proposeShrink(1_200, LAG_MS);

        assertArrayEquals(new int[] {1, 2}, proposed);
        assertArrayEquals(new int[] {1, 2, 3}, state.maximalIsr(), "a removed member counts until confirmed");
        assertEquals(3, state.maximalIsrSize());
    }

    @Test
    void shouldCountAFollowerCaughtUpAtItsPreviousFetchAsCaughtUpThen() {
        LeaderState state = leaderOf(new int[] {1, 2}, 0);
        state.onFollowerFetch(2, 100, 100, 0, 500);
        // Asks for what the leader's end was at its previous fetch: caught up as of that fetch.
        state.onFollowerFetch(2, 100, 150, 0, 1_400);

        assertNull(state.proposeShrink(1_450, LAG_MS));
        assertArrayEquals(new int[] {1}, state.proposeShrink(1_600, LAG_MS));
    }

    @Test
    void shouldTakeOnlyNewerPartitionEpochsAndEndTheChangeInFlight() {
        LeaderState state = leaderOf(new int[] {1, 2}, 0);
        state.onFollowerFetch(3, 0, 0, 0, 10);

        assertFalse(state.commit(new int[] {1}, 7), "same partition epoch");
        assertTrue(state.hasPendingChange());
        assertTrue(state.commit(new int[] {1, 2, 3}, 8));
        assertFalse(state.hasPendingChange());
        assertArrayEquals(new int[] {1, 2, 3}, state.isr());
        assertEquals(8, state.partitionEpoch());
    }

    @Test
    void shouldNotTreatTheLeaderOrStrangersAsFollowers() {
        LeaderState state = leaderOf(new int[] {1, 2, 3}, 0);

        assertFalse(state.isFollower(SELF));
        assertFalse(state.isFollower(9));
        assertNull(state.onFollowerFetch(9, 100, 100, 0, 10));
        assertTrue(state.isFollower(2));
    }
}
