package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.testkit.ChildProcessRunner;
import io.sluice.testkit.PartitionDirectory;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.SluiceCliDistribution;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice cluster rebalance} (and {@code sluice partition moves}) against three brokers in their own JVMs:
 * {@code --remove-broker 3 --dry-run} prints a plan that takes every replica off broker 3 and changes nothing; the
 * same without {@code --dry-run} runs it through partition reassignment, after which broker 3 holds no replica and
 * no copy, every partition keeps its replication factor with every replica in sync, and no record is lost.
 */
class RebalanceCommandTest extends ClusterTestBase {
    private static final String TOPIC = "spread";
    private static final int PARTITIONS = 6;
    private static final int RECORDS = 1_200;
    private static final Pattern MOVE_LINE =
            Pattern.compile("  " + TOPIC + "-(\\d+): \\[([\\d, ]+)] -> \\[([\\d, ]+)]");

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    private ProcessResult sluice(String... args) throws Exception {
        ProcessResult result = ChildProcessRunner.run(
                SluiceCliDistribution.fromEnvironment().command(args), new byte[0], Duration.ofSeconds(180));
        assertTrue(result.succeeded(), result::describe);
        return result;
    }

    @Test
    void shouldPlanThenEmptyARemovedBrokerKeepingEveryReplicationFactor() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(TOPIC, PARTITIONS, (short) 2)))
                    .all()
                    .get();
        }
        cluster.probe().awaitState("every partition of " + TOPIC + " fully in sync", SETTLE, s -> {
            TopicState t = s.topic(TOPIC);
            return t != null && Arrays.stream(partitions(t)).allMatch(p -> p.isr().length == 2);
        });
        awaitEveryBrokerServesTheProbedState(TOPIC);
        var expected = produce(TOPIC, partitionNumbers(PARTITIONS), RECORDS, "r");
        ClusterState before = cluster.probe().state();
        assertTrue(
                Arrays.stream(partitions(before.topic(TOPIC))).anyMatch(p -> p.hasReplica(3)),
                "broker 3 holds replicas to begin with");

        String plan = sluice("cluster", "rebalance", "-b", cluster.bootstrap(), "--remove-broker", "3", "--dry-run")
                .stdoutText();
        Matcher m = MOVE_LINE.matcher(plan);
        int moves = 0;
        while (m.find()) {
            moves++;
            assertFalse(Arrays.asList(m.group(3).split(", ")).contains("3"), "a move onto broker 3: " + m.group());
            assertEquals(m.group(2).split(", ").length, m.group(3).split(", ").length, "replication factor kept");
        }
        assertTrue(moves > 0 && plan.startsWith("Rebalance plan: "), plan);
        assertEquals(before.topic(TOPIC), cluster.probe().state().topic(TOPIC), "a dry run changes nothing");

        String ran = sluice(
                        "cluster",
                        "rebalance",
                        "-b",
                        cluster.bootstrap(),
                        "--remove-broker",
                        "3",
                        "--max-concurrent-moves",
                        "2")
                .stdoutText();
        assertTrue(ran.contains("Finished"), ran);
        ClusterState after = cluster.probe()
                .awaitState(
                        "no replica left on broker 3, every partition in sync",
                        SETTLE,
                        s -> Arrays.stream(partitions(s.topic(TOPIC)))
                                .allMatch(p -> !p.hasReplica(3)
                                        && !p.isReassigning()
                                        && p.replicas().length == 2
                                        && p.isr().length == 2));
        for (PartitionState p : partitions(after.topic(TOPIC))) {
            assertTrue(p.leader() != 3, p.toString());
        }
        for (int p = 0; p < PARTITIONS; p++) {
            PartitionDirectory dir = new PartitionDirectory(cluster.brokerDir(3), TOPIC, p);
            int partition = p;
            io.sluice.testkit.Poll.until(
                    "broker 3 deleted its copy of " + TOPIC + "-" + partition,
                    SETTLE,
                    () -> Files.isDirectory(dir.dir()),
                    exists -> !exists);
        }
        assertTrue(sluice("partition", "moves", "-b", cluster.bootstrap())
                .stdoutText()
                .contains("No partition moves in progress."));
        try (var consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            KeyedRecords.assertExactlyOnce(
                    expected,
                    KeyedRecords.readAll(
                            consumer, KeyedRecords.partitions(TOPIC, partitionNumbers(PARTITIONS)), SETTLE));
        }
    }

    private static PartitionState[] partitions(TopicState topic) {
        PartitionState[] out = new PartitionState[topic.partitionCount()];
        for (int p = 0; p < out.length; p++) {
            out[p] = topic.partition(p);
        }
        return out;
    }
}
