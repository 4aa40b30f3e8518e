package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.PartitionState;
import io.sluice.it.InProcessTool;
import io.sluice.testkit.ProcessResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

/**
 * Reassignments the cluster refuses, each with Kafka's error and a reason, and nothing changed: a move onto a broker
 * without the room for it (every broker here demands a petabyte of free space after a move, so the real free space
 * of this machine is always short), targets that repeat a broker or name an unregistered one (Kafka's admin client
 * itself refuses an empty one), an unknown
 * partition, and cancelling a partition that is not moving.
 */
class ReassignmentRefusalTest extends ClusterTestBase {
    private static final String TOPIC = "refused";
    private static final long PETABYTE = 1L << 50;

    @Override
    List<String> brokerOverrides() {
        return List.of("sluice.move.free.space.margin.bytes=" + PETABYTE);
    }

    private static Throwable alter(Admin admin, TopicPartition tp, Optional<NewPartitionReassignment> target) {
        ExecutionException e = assertThrows(
                ExecutionException.class,
                () -> admin.alterPartitionReassignments(Map.of(tp, target))
                        .all()
                        .get(ClusterClients.REQUEST_TIMEOUT_MS * 2L, TimeUnit.MILLISECONDS));
        return e.getCause();
    }

    @Test
    void shouldRefuseMovesWithKafkasErrorsAndChangeNothing() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, 2, Map.of());
        awaitEveryBrokerServesTheProbedState(TOPIC);
        produce(TOPIC, List.of(0), 200, "r");
        PartitionState before = partition.awaitFullIsr();
        int outsider = cluster.brokerIds().stream()
                .filter(id -> !before.hasReplica(id))
                .findFirst()
                .orElseThrow();
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            Throwable noRoom = alter(
                    admin, tp, Optional.of(new NewPartitionReassignment(List.of(outsider, before.replicas()[0]))));
            assertInstanceOf(InvalidReplicaAssignmentException.class, noRoom);
            assertTrue(noRoom.getMessage().contains("Not enough disk on broker " + outsider), noRoom.getMessage());
            assertTrue(noRoom.getMessage().contains("sluice.move.free.space.margin.bytes"), noRoom.getMessage());

            Throwable twice = alter(admin, tp, Optional.of(new NewPartitionReassignment(List.of(1, 1))));
            assertInstanceOf(InvalidReplicaAssignmentException.class, twice);
            assertTrue(twice.getMessage().contains("more than once"), twice.getMessage());
            Throwable unknownBroker = alter(admin, tp, Optional.of(new NewPartitionReassignment(List.of(1, 42))));
            assertInstanceOf(InvalidReplicaAssignmentException.class, unknownBroker);
            assertTrue(unknownBroker.getMessage().contains("broker 42"), unknownBroker.getMessage());
            assertInstanceOf(
                    UnknownTopicOrPartitionException.class,
                    alter(admin, new TopicPartition(TOPIC, 7), Optional.of(new NewPartitionReassignment(List.of(1)))));
            assertInstanceOf(NoReassignmentInProgressException.class, alter(admin, tp, Optional.empty()));

            assertEquals(
                    Map.of(), admin.listPartitionReassignments().reassignments().get());
        }
        ProcessResult tool = InProcessTool.run(
                "org.apache.kafka.tools.reassign.ReassignPartitionsCommand",
                new byte[0],
                Duration.ofSeconds(120),
                "--bootstrap-server",
                cluster.bootstrap(),
                "--execute",
                "--reassignment-json-file",
                new ReassignTool(cluster::bootstrap, work, TOPIC, Map.of(0, List.of(outsider, before.replicas()[0])))
                        .jsonFile()
                        .toString());
        assertTrue(
                !tool.succeeded()
                        && tool.stdoutText().concat(tool.stderr()).contains("Not enough disk on broker " + outsider),
                tool::describe);
        assertEquals(before, partition.state(), "the partition is as it was");
        assertTrue(!partition.hasCopyOn(outsider), "no copy was started on broker " + outsider);
    }
}
