package io.sluice.broker.api;

import io.sluice.cluster.state.PartitionState;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AdvertisedLeaderTest {
    private static final Set<Integer> LIVE = Set.of(1, 2);

    @Test
    void shouldNameALiveLeader() {
        int leader = AdvertisedLeader.of(new PartitionState(new int[]{1, 2, 3}, 2, 4, new int[]{1, 2, 3}), LIVE::contains);
        assertEquals(2, leader);
        assertEquals(Errors.NONE.code(), AdvertisedLeader.error(leader));
    }

    @Test
    void shouldAnswerLeaderNotAvailableWhileTheStateStillNamesABrokerThatLeft() {
        // Broker 3's session expired: it is no longer live, but the delta electing a new leader is not applied yet.
        int leader = AdvertisedLeader.of(new PartitionState(new int[]{1, 2, 3}, 3, 4, new int[]{1, 2, 3}), LIVE::contains);
        assertEquals(AdvertisedLeader.NO_LEADER, leader);
        assertEquals(Errors.LEADER_NOT_AVAILABLE.code(), AdvertisedLeader.error(leader));
    }

    @Test
    void shouldAnswerLeaderNotAvailableForAnOfflinePartition() {
        int leader = AdvertisedLeader.of(new PartitionState(new int[]{3}, -1, 5, new int[]{3}), LIVE::contains);
        assertEquals(AdvertisedLeader.NO_LEADER, leader);
        assertEquals(Errors.LEADER_NOT_AVAILABLE.code(), AdvertisedLeader.error(leader));
    }
}
