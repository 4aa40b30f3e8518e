package io.sluice.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.controller.ControllerEpochDescriptor;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.status.ClusterStatus;
import io.sluice.codec.endpoint.Endpoint;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ClusterStatusFormatTest {
    private static final int NO_LEADER = PartitionState.NO_LEADER;

    @Test
    void shouldCountLeadsAndHostsPerBrokerAndListOfflinePartitionsInOrder() {
        BrokerInfo one = BrokerInfo.of(1, "rack-a", Endpoint.of("127.0.0.1", 9092));
        BrokerInfo two = BrokerInfo.of(2, "", Endpoint.of("::1", 9093));
        TopicState orders =
                topic("orders", partition(1, 1, 2), partition(2, 2, 1), partition(NO_LEADER, 3), partition(1, 1));
        TopicState audit = topic("audit", partition(NO_LEADER, 3, 1), partition(2, 2));
        ClusterState state = ClusterState.of(4, 17, List.of(two, one), List.of(orders, audit));

        List<String> lines = ClusterStatusFormat.lines(new ClusterStatus("cid", 2, 4, registered(2, 5), state, 17));

        assertEquals(
                List.of(
                        "ClusterId: cid",
                        "Controller: 2\tEpoch: 4\tRegistered: yes",
                        "StateSeq: 17\tPublishedSeq: 17",
                        "Topics: 2\tPartitions: 6\tOfflinePartitions: 2\tUnderReplicatedPartitions: 2\tLiveBrokers: 2\tReassigningPartitions: 0",
                        "Broker: 1\tEndpoint: 127.0.0.1:9092\tRack: rack-a\tLive: yes\tRegistered: no\tLeads: 2\tHosts: 4",
                        "Broker: 2\tEndpoint: [::1]:9093\tRack: -\tLive: yes\tRegistered: yes\tLeads: 2\tHosts: 3",
                        "Broker: 3\tEndpoint: -\tRack: -\tLive: no\tRegistered: no\tLeads: 0\tHosts: 2",
                        "Broker: 5\tEndpoint: -\tRack: -\tLive: no\tRegistered: yes\tLeads: 0\tHosts: 0",
                        "OfflinePartition: audit-0\tReplicas: 3,1",
                        "OfflinePartition: orders-2\tReplicas: 3",
                        "UnderReplicatedPartition: orders-0\tLeader: 1\tReplicas: 1,2\tIsr: 1",
                        "UnderReplicatedPartition: orders-1\tLeader: 2\tReplicas: 2,1\tIsr: 2"),
                lines);
    }

    @Test
    void shouldListAPartitionUnderReassignmentWithoutCountingItsAddingReplicaAsUnderReplicated() {
        BrokerInfo one = BrokerInfo.of(1, "", Endpoint.of("127.0.0.1", 9092));
        BrokerInfo two = BrokerInfo.of(2, "", Endpoint.of("127.0.0.1", 9093));
        PartitionState moving =
                new PartitionState(new int[] {2, 1}, 1, 3, new int[] {1}, 7, new int[] {2}, new int[] {1});
        ClusterState state = ClusterState.of(
                1,
                5,
                List.of(one, two),
                List.of(new TopicState(UUID.randomUUID(), "moving", Map.of(), new PartitionState[] {moving})));

        List<String> lines = ClusterStatusFormat.lines(new ClusterStatus("cid", 1, 1, registered(1, 2), state, 5));

        assertEquals(
                "Topics: 1\tPartitions: 1\tOfflinePartitions: 0\tUnderReplicatedPartitions: 0\tLiveBrokers: 2"
                        + "\tReassigningPartitions: 1",
                lines.get(3));
        assertEquals(
                "ReassigningPartition: moving-0\tLeader: 1\tReplicas: 2,1\tAdding: 2\tRemoving: 1\tIsr: 1",
                lines.get(lines.size() - 1));
        List<String> withProgress = ClusterStatusFormat.lines(
                new ClusterStatus("cid", 1, 1, registered(1, 2), state, 5),
                Map.of("moving-0", "Phase: copying\tShipped: 1.0/2.0 MB"));
        assertEquals(
                "ReassigningPartition: moving-0\tLeader: 1\tReplicas: 2,1\tAdding: 2\tRemoving: 1\tIsr: 1"
                        + "\tPhase: copying\tShipped: 1.0/2.0 MB",
                withProgress.get(withProgress.size() - 1));
    }

    @Test
    void shouldSayWhenNoControllerWasElectedAndNoClusterIdIsRecorded() {
        ClusterState state = ClusterState.of(0, 0, List.of(), List.of());

        List<String> lines = ClusterStatusFormat.lines(
                new ClusterStatus(null, ControllerEpochDescriptor.NO_CONTROLLER, -1, registered(), state, 3));

        assertEquals(
                List.of(
                        "ClusterId: -",
                        "Controller: none\tEpoch: -1\tRegistered: no",
                        "StateSeq: 0\tPublishedSeq: 3",
                        "Topics: 0\tPartitions: 0\tOfflinePartitions: 0\tUnderReplicatedPartitions: 0\tLiveBrokers: 0\tReassigningPartitions: 0"),
                lines);
    }

    @Test
    void shouldReportCaughtUpOnlyWhenTheStateReachedThePublishedSeq() {
        ClusterState state = ClusterState.of(1, 5, List.of(), List.of());

        assertEquals(true, new ClusterStatus("c", 1, 1, registered(), state, 5).caughtUp());
        assertEquals(false, new ClusterStatus("c", 1, 1, registered(), state, 6).caughtUp());
    }

    private static TreeSet<Integer> registered(Integer... ids) {
        return new TreeSet<>(Set.of(ids));
    }

    private static TopicState topic(String name, PartitionState... partitions) {
        return new TopicState(
                UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)), name, Map.of(), partitions);
    }

    /** A partition led by {@code leader} (or offline) with these replicas, all in sync. */
    private static PartitionState partition(int leader, int... replicas) {
        return new PartitionState(replicas, leader, 0, leader == NO_LEADER ? new int[0] : new int[] {leader});
    }
}
