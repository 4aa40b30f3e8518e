package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.rebalance.ReassignmentWaves;
import io.sluice.cluster.assign.RebalancePlanner.Move;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.TopicState;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterPartitionReassignmentsOptions;
import org.apache.kafka.clients.admin.AlterPartitionReassignmentsResult;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The rebalance waves against three brokers in their own JVMs when an AlterPartitionReassignments request fails as a
 * whole (its answer lost after the controller applied it, or before): a move applied anyway is waited on like any
 * other, so the next wave starts only once it is done; one not applied is reported with the request's error.
 */
class RebalanceLostAnswerTest extends ClusterTestBase {
    private static final String TOPIC = "lost";
    private static final int PARTITIONS = 3;

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    /**
     * Three moves, two at a time. The first wave's request reaches the controller for lost-0 only, the second's for
     * lost-2; both answers fail with the TimeoutException of a request nobody answered. lost-0 and lost-2 finish and get their
     * preferred leaders, lost-1 is refused with the TimeoutException, and no wave is submitted while a reassignment
     * is in progress. Every move of a failed request used to be counted as refused and left unwatched, and the next
     * wave started at once.
     */
    @Test
    void shouldWaitOnTheMovesAFailedRequestStartedAndRefuseTheOthers() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 2)))
                    .all()
                    .get();
        }
        cluster.probe().awaitState("every partition of " + TOPIC + " fully in sync", SETTLE, s -> {
            TopicState t = s.topic(TOPIC);
            return t != null
                    && IntStream.range(0, PARTITIONS)
                            .allMatch(p -> t.partition(p).isr().length == 2);
        });
        awaitEveryBrokerServesTheProbedState(TOPIC);
        ClusterState before = cluster.probe().state();
        List<Move> plan = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            int[] from = before.topic(TOPIC).partition(p).replicas();
            int[] to = from.clone();
            to[1] = 6 - from[0] - from[1];
            plan.add(new Move(TOPIC, p, from, to, 0));
        }
        TopicPartition lost0 = new TopicPartition(TOPIC, 0);
        TopicPartition lost1 = new TopicPartition(TOPIC, 1);
        TopicPartition lost2 = new TopicPartition(TOPIC, 2);
        StringWriter text = new StringWriter();
        ReassignmentWaves.Outcome outcome;
        try (AnswerLosingAdmin admin = new AnswerLosingAdmin(cluster.bootstrap(), Set.of(lost0, lost2))) {
            outcome = new ReassignmentWaves(admin, new PrintWriter(text), 2, Duration.ofMillis(100))
                    .run(plan, List.of(), SETTLE);
            assertEquals(List.of(0, 0), admin.inProgressAtSubmission, text::toString);
        }
        assertEquals(List.of(lost0, lost2), outcome.finished(), text::toString);
        assertEquals(Set.of(lost1), outcome.refused().keySet(), text::toString);
        assertTrue(outcome.refused().get(lost1).startsWith("TimeoutException"), outcome.refused()::toString);
        assertEquals(Map.of(), outcome.notElected(), text::toString);
        ClusterState after = cluster.probe().state();
        for (Move m : plan) {
            int[] expected = m.partition() == 1 ? m.from() : m.to();
            assertArrayEquals(
                    expected, after.topic(TOPIC).partition(m.partition()).replicas(), m.toString());
        }
    }

    /**
     * A real admin client whose AlterPartitionReassignments sends only the partitions in {@code delivered} to the
     * cluster, waits for the controller's answer, then answers every partition as a request that failed as a whole
     * does: the same request sent to a socket that accepts connections and never answers, which times out. Counts
     * the reassignments in progress at each submission. Not thread-safe.
     */
    private static final class AnswerLosingAdmin extends ForwardingAdmin {
        private static final int UNANSWERED_TIMEOUT_MS = 300;
        private final Set<TopicPartition> delivered;
        private final ServerSocket silent;
        private final Admin unanswered;
        final List<Integer> inProgressAtSubmission = new ArrayList<>();

        AnswerLosingAdmin(String bootstrap, Set<TopicPartition> delivered) throws IOException {
            super(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
            this.delivered = delivered;
            this.silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.unanswered = Admin.create(
                    Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + silent.getLocalPort()));
        }

        @Override
        public void close(Duration timeout) {
            unanswered.close(timeout);
            try {
                silent.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            super.close(timeout);
        }

        @Override
        public AlterPartitionReassignmentsResult alterPartitionReassignments(
                Map<TopicPartition, Optional<NewPartitionReassignment>> reassignments,
                AlterPartitionReassignmentsOptions options) {
            Map<TopicPartition, Optional<NewPartitionReassignment>> sent = new LinkedHashMap<>(reassignments);
            sent.keySet().retainAll(delivered);
            try {
                inProgressAtSubmission.add(
                        listPartitionReassignments().reassignments().get().size());
                if (!sent.isEmpty()) {
                    super.alterPartitionReassignments(sent, options).all().get();
                }
            } catch (Exception e) {
                throw new IllegalStateException("could not submit " + sent, e);
            }
            return unanswered.alterPartitionReassignments(
                    reassignments, new AlterPartitionReassignmentsOptions().timeoutMs(UNANSWERED_TIMEOUT_MS));
        }
    }
}
