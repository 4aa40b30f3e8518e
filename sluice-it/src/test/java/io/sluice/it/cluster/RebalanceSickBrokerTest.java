package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.rebalance.ReassignmentWaves;
import io.sluice.cluster.assign.RebalancePlanner.Move;
import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.ChildProcessRunner;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.SluiceCliDistribution;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice cluster rebalance} with one broker paused (SIGSTOP) while it stays registered (the session timeout is
 * longer than the test): the controller still counts it live, it answers nothing, and it falls out of every ISR it
 * follows in. A plan needs the sizes of its copies, so the rebalance fails within {@code --broker-timeout-seconds}
 * (its default, 15 s), naming it; removing it still plans, from the sizes of the copies elsewhere. A moved partition whose preferred
 * replica is that broker cannot get its preferred leader, and the run says so and is incomplete. {@code sluice partition
 * moves} names the broker instead of waiting for it.
 */
class RebalanceSickBrokerTest extends ClusterTestBase {
    private static final String TOPIC = "sick";
    private static final String[] FAST_CLIENT = {
        "-X", "socket.connection.setup.timeout.ms=1000", "-X", "socket.connection.setup.timeout.max.ms=1000"
    };
    private static final Pattern MOVE_LINE =
            Pattern.compile("  (" + TOPIC + "-\\d+): \\[([\\d, ]+)] -> \\[([\\d, ]+)]");

    /** The controller, a broker that follows only, and the broker to pause (neither controller nor leader). */
    private int controller;

    private int other;
    private int paused;

    @Override
    Duration sessionTimeout() {
        return Duration.ofMinutes(3);
    }

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(2000);
    }

    /**
     * {@link #TOPIC}: partition 0 on [controller, paused], 1 on [other, paused], 2 on [controller, other], each led
     * by its first replica, then {@link #paused} paused and out of the ISRs it was in.
     */
    private void createTopicThenPauseABroker() throws Exception {
        controller = cluster.probe().controller().brokerId();
        other = cluster.brokerIds().stream()
                .filter(id -> id != controller)
                .findFirst()
                .orElseThrow();
        paused = cluster.brokerIds().stream()
                .filter(id -> id != controller && id != other)
                .findFirst()
                .orElseThrow();
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(
                            TOPIC,
                            Map.of(
                                    0, List.of(controller, paused),
                                    1, List.of(other, paused),
                                    2, List.of(controller, other)))))
                    .all()
                    .get();
        }
        cluster.probe().awaitState("every partition of " + TOPIC + " in sync", SETTLE, s -> {
            var t = s.topic(TOPIC);
            return t != null
                    && t.partition(0).isr().length == 2
                    && t.partition(1).isr().length == 2;
        });
        awaitEveryBrokerServesTheProbedState(TOPIC);
        produce(TOPIC, partitionNumbers(3), 300, "r");
        cluster.broker(paused).pause();
        cluster.probe()
                .awaitState(
                        "broker " + paused + " out of every ISR",
                        SETTLE,
                        s -> Arrays.stream(new int[] {0, 1})
                                .mapToObj(p -> s.topic(TOPIC).partition(p))
                                .noneMatch(p -> p.inIsr(paused)));
    }

    private ProcessResult rebalance(String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of("cluster", "rebalance", "-b", cluster.broker(controller).bootstrap()));
        command.addAll(List.of(FAST_CLIENT));
        command.addAll(List.of(args));
        return ChildProcessRunner.run(
                SluiceCliDistribution.fromEnvironment().command(command.toArray(new String[0])),
                new byte[0],
                Duration.ofSeconds(120));
    }

    /**
     * The paused broker holds copies the plan must weigh: the rebalance fails with a line naming it. Waiting for its
     * answer took the Admin client's 60 s default and then failed with a bare timeout.
     */
    @Test
    void shouldFailNamingALiveBrokerThatDoesNotReportItsSizes() throws Exception {
        createTopicThenPauseABroker();
        ProcessResult result = rebalance("--dry-run");
        assertEquals(1, result.exitCode(), result::describe);
        assertTrue(
                result.stderr().contains("broker(s) [" + paused + "] did not answer DescribeLogDirs within 15 s"),
                result::describe);
    }

    /**
     * Removing the paused broker needs none of its sizes: each of its partitions has a copy elsewhere. The plan takes
     * every replica off it, keeps each replication factor, and notes how it was sized.
     */
    @Test
    void shouldPlanTheRemovalOfABrokerThatDoesNotReportItsSizes() throws Exception {
        createTopicThenPauseABroker();
        ProcessResult result = rebalance("--dry-run", "--remove-broker", Integer.toString(paused));
        assertTrue(result.succeeded(), result::describe);
        String plan = result.stdoutText();
        assertTrue(plan.contains("Note: broker(s) [" + paused + "] did not answer DescribeLogDirs"), plan);
        Matcher m = MOVE_LINE.matcher(plan);
        int moves = 0;
        while (m.find()) {
            moves++;
            List<String> from = List.of(m.group(2).split(", "));
            List<String> to = List.of(m.group(3).split(", "));
            assertFalse(to.contains(Integer.toString(paused)), m.group());
            assertEquals(from.size(), to.size(), m.group());
        }
        assertEquals(2, moves, plan);
    }

    /**
     * {@code sluice partition moves} while sick-2 is moving onto the paused broker (a move that cannot finish): the move
     * is shown and the broker that did not report its copies is named, within {@code --broker-timeout-ms} (its
     * default, 5 s). Every
     * reading waited the Admin client's 60 s default for the paused broker, and the broker was not named.
     */
    @Test
    void shouldShowMovesNamingABrokerThatDoesNotReportItsCopies() throws Exception {
        createTopicThenPauseABroker();
        try (Admin admin = ClusterClients.admin(cluster.broker(controller).bootstrap())) {
            admin.alterPartitionReassignments(Map.of(
                            new TopicPartition(TOPIC, 2),
                            Optional.of(new NewPartitionReassignment(List.of(controller, other, paused)))))
                    .all()
                    .get();
        }
        List<String> command = new ArrayList<>(
                List.of("partition", "moves", "-b", cluster.broker(controller).bootstrap()));
        command.addAll(List.of(FAST_CLIENT));
        ProcessResult result = ChildProcessRunner.run(
                SluiceCliDistribution.fromEnvironment().command(command.toArray(new String[0])),
                new byte[0],
                Duration.ofSeconds(45));
        assertTrue(result.succeeded(), result::describe);
        assertTrue(result.stdoutText().contains(TOPIC + "-2 ["), result::describe);
        assertTrue(
                result.stdoutText().contains("Broker(s) [" + paused + "] did not report their copies within 5000 ms"),
                result::describe);
    }

    /**
     * A reorder that lists the paused broker first takes effect at once, but that broker is out of the ISR, so its
     * preferred leader cannot be elected: the outcome is incomplete (the command exits 1) and a line names the
     * partition and the controller's error. It counted as complete, and the command exited 0.
     */
    @Test
    void shouldCountAFailedPreferredLeaderElectionAsIncomplete() throws Exception {
        createTopicThenPauseABroker();
        TopicPartition led = new TopicPartition(TOPIC, 0);
        StringWriter text = new StringWriter();
        ReassignmentWaves.Outcome outcome;
        Properties props = new Properties();
        props.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.broker(controller).bootstrap());
        props.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, "1000");
        props.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, "1000");
        try (Admin admin = Admin.create(props)) {
            outcome = new ReassignmentWaves(admin, new PrintWriter(text), 1, Duration.ofMillis(100))
                    .run(
                            List.of(new Move(
                                    TOPIC, 0, new int[] {controller, paused}, new int[] {paused, controller}, 0)),
                            List.of(),
                            SETTLE);
        }
        assertEquals(List.of(led), outcome.finished(), text::toString);
        assertFalse(outcome.complete(), text::toString);
        assertTrue(
                text.toString()
                        .contains("Preferred leader election failed for " + led + ": PreferredLeaderNotAvailable"),
                text::toString);
        PartitionState after = cluster.probe().state().topic(TOPIC).partition(0);
        assertEquals(controller, after.leader(), after.toString());
    }
}
