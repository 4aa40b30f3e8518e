package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.Poll;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.Test;

/**
 * Every in-sync replica dead, only an out-of-sync one alive. Two topics, replication factor 3, alike but for
 * unclean.leader.election.enable. Broker A is killed after the first records, so it misses the second (acks=all, on B
 * and C) and the third (acks=1, on C alone after B died too); then C, the last ISR member, dies and A comes back.
 * With unclean election disabled the partition stays offline although A is live (the controller's decision on A's
 * return leaves it without a leader, and A answers Metadata with LEADER_NOT_AVAILABLE) until an ElectLeaders UNCLEAN
 * (Admin.electLeaders) puts it on A; with the topic enabling it, the controller elects A by itself. Either way A leads
 * with an ISR of itself, serves exactly the records it held, takes new acks=all writes once B and C are back, and B and
 * C truncate what A never had: the three logs end byte-identical.
 */
class UncleanLeaderElectionTest extends ClusterTestBase {
    private static final String CLEAN = "clean-only";
    private static final String UNCLEAN = "unclean-allowed";
    private static final int RECORDS = 100;

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    @Test
    void shouldKeepThePartitionOfflineUntilAnUncleanElectionPutsItOnTheOutOfSyncReplica() throws Exception {
        ReplicatedPartition clean = ReplicatedPartition.create(cluster, CLEAN, Map.of("min.insync.replicas", "2"));
        ReplicatedPartition unclean = ReplicatedPartition.create(
                cluster, UNCLEAN, Map.of("min.insync.replicas", "2", "unclean.leader.election.enable", "true"));
        List<ReplicatedPartition> both = List.of(clean, unclean);
        int lastInSync = cluster.probe().controller().brokerId();
        List<Integer> others =
                cluster.brokerIds().stream().filter(id -> id != lastInSync).toList();
        int outOfSync = others.get(0);
        int secondToDie = others.get(1);
        Map<ReplicatedPartition, Map<String, KeyedRecords.Expected>> heldByOutOfSync = new LinkedHashMap<>();
        for (ReplicatedPartition p : both) {
            heldByOutOfSync.put(p, new LinkedHashMap<>(produce(p.topic(), List.of(0), RECORDS, "first")));
        }

        cluster.broker(outOfSync).kill9();
        for (ReplicatedPartition p : both) {
            p.awaitState("broker " + outOfSync + " out of the ISR", s -> !s.inIsr(outOfSync) && !s.isOffline());
            produce(p.topic(), List.of(0), RECORDS, "second");
        }
        cluster.broker(secondToDie).kill9();
        for (ReplicatedPartition p : both) {
            p.awaitState(
                    "broker " + lastInSync + " alone in the ISR and leading",
                    s -> s.leader() == lastInSync && s.isr().length == 1);
            // The controller's state can name the new leader a moment before that broker has taken the leadership:
            // until then it refuses the write with NOT_LEADER_OR_FOLLOWER (nothing appended), which a client retries.
            Errors third = Poll.until(
                    "broker " + lastInSync + " taking " + p.topic() + " as its leader",
                    SETTLE,
                    () -> Errors.forCode(ReplicationRequests.partition(RawConnection.<ProduceResponse>once(
                                    cluster.broker(lastInSync).bootstrap(),
                                    SETTLE,
                                    ReplicationRequests.produce(
                                            p.topic(),
                                            (short) 1,
                                            ClusterClients.REQUEST_TIMEOUT_MS,
                                            List.of("third-0", "third-1")),
                                    ApiKeys.PRODUCE,
                                    ReplicationRequests.PRODUCE_VERSION))
                            .errorCode()),
                    error -> error != Errors.NOT_LEADER_OR_FOLLOWER);
            assertEquals(Errors.NONE, third, "acks=1 on the last in-sync replica");
        }
        cluster.broker(lastInSync).kill9();
        cluster.broker(outOfSync).restart();

        ClusterState decided = cluster.probe()
                .awaitState(
                        "broker " + outOfSync + " live again: " + UNCLEAN + " elected on it, " + CLEAN
                                + " still offline",
                        ReplicatedPartition.SETTLE.multipliedBy(2),
                        s -> s.hasBroker(outOfSync)
                                && !s.hasBroker(lastInSync)
                                && s.topic(CLEAN).partition(0).isOffline()
                                && s.topic(UNCLEAN).partition(0).leader() == outOfSync);
        assertEquals(
                List.of(lastInSync),
                isr(decided.topic(CLEAN).partition(0)),
                "the offline partition keeps the " + "ISR of its last leader, so that it can come back clean");
        assertEquals(List.of(outOfSync), isr(decided.topic(UNCLEAN).partition(0)), "unclean leader's ISR");
        MetadataResponseData.MetadataResponsePartition offline = Poll.until(
                "broker " + outOfSync + " answers Metadata for " + CLEAN + " without a leader",
                SETTLE,
                () -> OneRequest.metadata(cluster.broker(outOfSync).bootstrap(), CLEAN)
                        .partitions()
                        .get(0),
                p -> p.leaderId() == ClusterClients.NO_LEADER);
        assertEquals(Errors.LEADER_NOT_AVAILABLE, Errors.forCode(offline.errorCode()), "Metadata of " + CLEAN);

        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            Map<?, Optional<Throwable>> result = admin.electLeaders(
                            ElectionType.UNCLEAN, Set.of(clean.topicPartition()))
                    .partitions()
                    .get(ClusterClients.REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS);
            assertEquals(Optional.empty(), result.values().iterator().next(), "unclean election of " + CLEAN);
        }
        PartitionState elected =
                clean.awaitState("the unclean election on broker " + outOfSync, s -> s.leader() == outOfSync);
        assertEquals(List.of(outOfSync), isr(elected), "unclean leader's ISR");
        for (ReplicatedPartition p : both) {
            KeyedRecords.assertExactlyOnce(heldByOutOfSync.get(p), p.readAll());
        }

        cluster.broker(secondToDie).restart();
        cluster.broker(lastInSync).restart();
        for (ReplicatedPartition p : both) {
            p.awaitFullIsr();
            heldByOutOfSync.get(p).putAll(produce(p.topic(), List.of(0), RECORDS, "after"));
            KeyedRecords.assertExactlyOnce(heldByOutOfSync.get(p), p.readAll());
            p.awaitIdenticalReplicas();
        }
    }

    private static List<Integer> isr(PartitionState state) {
        List<Integer> ids = new ArrayList<>();
        for (int id : state.isr()) {
            ids.add(id);
        }
        return ids;
    }
}
