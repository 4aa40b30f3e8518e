package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.PartitionState;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.junit.jupiter.api.Test;

/**
 * A cancel that would need an unclean leader election is refused, brokers in their own JVMs. Partition 0 lives on
 * broker {@code original} alone and moves to the controller ({@code caughtUp}) and {@code lagging}; {@code lagging} is
 * paused (SIGSTOP) so the move cannot complete, {@code caughtUp} joins the ISR, then {@code original} is killed and
 * leaves it. With only an adding replica in sync, cancelling would make the out-of-sync original replica the leader
 * and lose what it never received: the controller refuses the cancel with INVALID_REPLICA_ASSIGNMENT, as Kafka 3.9
 * does while unclean.leader.election.enable is false, and the move goes on and completes once {@code lagging} runs
 * again, with every acknowledged record there.
 *
 * <p>Not thread-safe; JUnit runs it on one thread.
 */
class UncleanCancelRefusalTest extends ClusterTestBase {
    private static final String TOPIC = "uncancellable";
    private static final int RECORDS = 200;

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    @Test
    void shouldRefuseACancelThatWouldRequireAnUncleanElectionAndLetTheMoveGoOn() throws Exception {
        int caughtUp = cluster.probe().controller().brokerId();
        List<Integer> others =
                cluster.brokerIds().stream().filter(id -> id != caughtUp).toList();
        int original = others.get(0);
        int lagging = others.get(1);
        ReplicatedPartition partition =
                ReplicatedPartition.createOn(cluster, TOPIC, List.of(original), Map.of("min.insync.replicas", "1"));
        awaitEveryBrokerServesTheProbedState(TOPIC);
        Map<String, KeyedRecords.Expected> acked = new LinkedHashMap<>(produce(TOPIC, List.of(0), RECORDS, "before"));

        cluster.broker(lagging).pause();
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.alterPartitionReassignments(Map.of(
                            partition.topicPartition(),
                            Optional.of(new NewPartitionReassignment(List.of(caughtUp, lagging)))))
                    .all()
                    .get(ClusterClients.REQUEST_TIMEOUT_MS * 2L, TimeUnit.MILLISECONDS);
            partition.awaitState(
                    "broker " + caughtUp + " caught up, the move still in progress",
                    p -> p.isReassigning() && p.inIsr(caughtUp));
            cluster.broker(original).kill9();
            PartitionState onlyAdding = partition.awaitState(
                    "broker " + original + " out of the ISR, " + caughtUp + " leading",
                    p -> p.leader() == caughtUp && Arrays.equals(p.isr(), new int[] {caughtUp}));

            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> admin.alterPartitionReassignments(Map.of(partition.topicPartition(), Optional.empty()))
                            .all()
                            .get(ClusterClients.REQUEST_TIMEOUT_MS * 2L, TimeUnit.MILLISECONDS));
            assertInstanceOf(InvalidReplicaAssignmentException.class, refused.getCause(), refused::toString);
            String message = refused.getCause().getMessage();
            assertTrue(message.contains("unclean leader election"), message);
            assertTrue(message.contains(TOPIC + "-0") && message.contains("[" + caughtUp + "]"), message);
            PartitionState after = partition.state();
            assertArrayEquals(onlyAdding.replicas(), after.replicas(), "still moving: " + after);
            assertEquals(caughtUp, after.leader(), "no unclean election: " + after);
            assertTrue(after.isReassigning(), "still moving: " + after);
        }

        acked.putAll(produce(TOPIC, List.of(0), RECORDS, "while-moving"));
        cluster.broker(lagging).resume();
        PartitionState moved = partition.awaitState(
                "the move to [" + caughtUp + ", " + lagging + "] complete",
                SETTLE.multipliedBy(2),
                (s, p) -> !p.isReassigning() && p.isr().length == 2 && s.hasBroker(p.leader()));
        assertArrayEquals(new int[] {caughtUp, lagging}, moved.replicas());
        KeyedRecords.assertExactlyOnce(acked, partition.readAll());
        partition.awaitIdenticalReplicas(List.of(caughtUp, lagging));
    }
}
