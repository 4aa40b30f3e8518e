package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.rebalance.ReassignmentWaves;
import io.sluice.cluster.assign.RebalancePlanner.Move;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.testkit.ChildProcessRunner;
import io.sluice.testkit.PartitionDirectory;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.SluiceCliDistribution;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice cluster rebalance} (and {@code sluice partition moves}) against three brokers in their own JVMs:
 * {@code --remove-broker 3 --dry-run} prints a plan that takes every replica off broker 3 and changes nothing; the
 * same without {@code --dry-run} runs it through partition reassignment, after which broker 3 holds no replica and
 * no copy, every partition keeps its replication factor with every replica in sync, and no record is lost. The same
 * holds when broker 3 was SIGKILLed first. A partition another reassignment is moving is left to it, and a plan's
 * partition the controller refuses does not stop the others.
 */
class RebalanceCommandTest extends ClusterTestBase {
    private static final String TOPIC = "spread";
    private static final int PARTITIONS = 6;
    private static final int RECORDS = 1_200;
    private static final Pattern MOVE_LINE =
            Pattern.compile("  " + TOPIC + "-(\\d+): \\[([\\d, ]+)] -> \\[([\\d, ]+)]");
    /** A planned move of any topic: topic-partition, replicas now, target. */
    private static final Pattern ANY_MOVE_LINE = Pattern.compile("  ([\\w.-]+-\\d+): \\[([\\d, ]+)] -> \\[([\\d, ]+)]");

    private static final String SLOW_TOPIC = "slow";
    /** Bytes/s of the throttle that keeps another reassignment in progress: the 2 MB partition takes minutes. */
    private static final long CRAWL = 10_000;

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    private ProcessResult sluice(String... args) throws Exception {
        ProcessResult result = sluiceMayFail(args);
        assertTrue(result.succeeded(), result::describe);
        return result;
    }

    private static ProcessResult sluiceMayFail(String... args) throws Exception {
        return ChildProcessRunner.run(
                SluiceCliDistribution.fromEnvironment().command(args), new byte[0], Duration.ofSeconds(180));
    }

    /** Creates {@link #TOPIC} (replication factor 2) and waits until every broker serves it fully in sync. */
    private void createSpreadTopic() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 2)))
                    .all()
                    .get();
        }
        cluster.probe().awaitState("every partition of " + TOPIC + " fully in sync", SETTLE, s -> {
            TopicState t = s.topic(TOPIC);
            return t != null && Arrays.stream(partitions(t)).allMatch(p -> p.isr().length == 2);
        });
        awaitEveryBrokerServesTheProbedState(TOPIC);
    }

    /** Broker 3 holds no replica of the topic, and every partition has two replicas, both in sync, no move left. */
    private static boolean brokerThreeEmptiedInSync(ClusterState state) {
        return Arrays.stream(partitions(state.topic(TOPIC)))
                .allMatch(
                        p -> !p.hasReplica(3) && !p.isReassigning() && p.replicas().length == 2 && p.isr().length == 2);
    }

    /** Reads every partition of the topic to its end: each acknowledged record exactly once. */
    private void assertEveryAcknowledgedRecordOnce(Map<String, KeyedRecords.Expected> expected) throws Exception {
        try (var consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            KeyedRecords.assertExactlyOnce(
                    expected,
                    KeyedRecords.readAll(
                            consumer, KeyedRecords.partitions(TOPIC, partitionNumbers(PARTITIONS)), SETTLE));
        }
    }

    /** Every planned move of {@code plan}: topic-partition to {replicas now, target}. */
    private static Map<String, List<List<String>>> plannedMoves(String plan) {
        Map<String, List<List<String>>> moves = new LinkedHashMap<>();
        Matcher m = ANY_MOVE_LINE.matcher(plan);
        while (m.find()) {
            moves.put(
                    m.group(1),
                    List.of(List.of(m.group(2).split(", ")), List.of(m.group(3).split(", "))));
        }
        return moves;
    }

    /** Runs {@code sluice cluster rebalance --remove-broker 3 --max-concurrent-moves 2}; returns its output. */
    private String removeBroker3TwoMovesAtATime() throws Exception {
        return sluice(
                        "cluster",
                        "rebalance",
                        "-b",
                        cluster.bootstrap(),
                        "--remove-broker",
                        "3",
                        "--max-concurrent-moves",
                        "2")
                .stdoutText();
    }

    @Test
    void shouldPlanThenEmptyARemovedBrokerKeepingEveryReplicationFactor() throws Exception {
        createSpreadTopic();
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

        String ran = removeBroker3TwoMovesAtATime();
        assertTrue(ran.contains("Finished"), ran);
        ClusterState after = cluster.probe()
                .awaitState(
                        "no replica left on broker 3, replication factor 2, every partition in sync",
                        SETTLE,
                        RebalanceCommandTest::brokerThreeEmptiedInSync);
        for (PartitionState p : partitions(after.topic(TOPIC))) {
            assertTrue(p.leader() != 3, p.toString());
        }
        for (int p = 0; p < PARTITIONS; p++) {
            PartitionDirectory dir = new PartitionDirectory(cluster.brokerDir(3), TOPIC, p);
            int partition = p;
            Poll.until(
                    "broker 3 deleted its copy of " + TOPIC + "-" + partition,
                    SETTLE,
                    () -> Files.isDirectory(dir.dir()),
                    exists -> !exists);
        }
        assertTrue(sluice("partition", "moves", "-b", cluster.bootstrap())
                .stdoutText()
                .contains("No partition moves in progress."));
        assertEveryAcknowledgedRecordOnce(expected);
    }

    /**
     * Decommissioning a dead broker: broker 3 is SIGKILLed, so a target may not name it (the controller refuses
     * brokers that are not registered). A plan without --remove-broker leaves the partitions on broker 3 alone and
     * says so; {@code --remove-broker 3} re-places its replicas on the live brokers, which copy from the in-sync ones:
     * every partition keeps replication factor 2, fully in sync, and every acknowledged record is read once.
     */
    @Test
    void shouldRemoveABrokerThatWasKilledKeepingEveryAcknowledgedRecord() throws Exception {
        createSpreadTopic();
        Map<String, KeyedRecords.Expected> expected =
                new LinkedHashMap<>(produce(TOPIC, partitionNumbers(PARTITIONS), RECORDS, "before-kill"));
        cluster.broker(3).kill9();
        Poll.until(
                "broker 3's registration gone",
                cluster.sessionTimeout().plus(SETTLE),
                () -> cluster.probe().isRegistered(3),
                registered -> !registered);
        cluster.probe()
                .awaitState(
                        "no partition led by broker 3",
                        SETTLE,
                        s -> Arrays.stream(partitions(s.topic(TOPIC))).allMatch(p -> p.leader() != 3));
        expected.putAll(produce(TOPIC, partitionNumbers(PARTITIONS), RECORDS, "after-kill"));

        String balance = sluice("cluster", "rebalance", "-b", cluster.bootstrap(), "--dry-run")
                .stdoutText();
        plannedMoves(balance)
                .forEach((partition, move) -> assertFalse(
                        move.get(1).contains("3"), "a target naming the dead broker 3: " + partition + " " + move));
        assertTrue(balance.contains("a replica on broker 3, which is not live"), balance);

        String ran = removeBroker3TwoMovesAtATime();
        assertTrue(ran.contains("Rebalance complete"), ran);
        cluster.probe()
                .awaitState(
                        "no replica left on broker 3, replication factor 2, every partition in sync",
                        SETTLE,
                        RebalanceCommandTest::brokerThreeEmptiedInSync);
        assertEveryAcknowledgedRecordOnce(expected);
    }

    /**
     * Another reassignment, throttled so it stays in progress, moves slow-0 from its broker S to broker T: the
     * partition is described as [T, S] meanwhile. Planned from that list, {@code --remove-broker S} re-placed S and
     * submitted two replicas for a partition of one. It is left to its reassignment instead, and removing T, which
     * that reassignment keeps, is refused.
     */
    @Test
    void shouldLeaveAPartitionBeingReassignedToThatReassignment() throws Exception {
        int source;
        int target;
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(SLOW_TOPIC, 1, (short) 1)
                            .configs(Map.of(
                                    "segment.bytes", "65536",
                                    "leader.replication.throttled.replicas", "*",
                                    "follower.replication.throttled.replicas", "*"))))
                    .all()
                    .get();
            awaitEveryBrokerServesTheProbedState(SLOW_TOPIC); // see shouldWeighTheGapAgainstTheTopicsOwnSegmentBytes
            fillWithTwoMegabytes();
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.BROKER, ""),
                            List.of(
                                    new AlterConfigOp(
                                            new ConfigEntry("leader.replication.throttled.rate", "" + CRAWL),
                                            AlterConfigOp.OpType.SET),
                                    new AlterConfigOp(
                                            new ConfigEntry("follower.replication.throttled.rate", "" + CRAWL),
                                            AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
            TopicPartition slow = new TopicPartition(SLOW_TOPIC, 0);
            source = admin.describeTopics(List.of(SLOW_TOPIC))
                    .allTopicNames()
                    .get()
                    .get(SLOW_TOPIC)
                    .partitions()
                    .get(0)
                    .replicas()
                    .get(0)
                    .id();
            target = source % BROKERS + 1;
            admin.alterPartitionReassignments(Map.of(slow, Optional.of(new NewPartitionReassignment(List.of(target)))))
                    .all()
                    .get();
            Poll.until(
                    "slow-0 described as moving from " + source + " to " + target,
                    SETTLE,
                    () -> admin.describeTopics(List.of(SLOW_TOPIC))
                            .allTopicNames()
                            .get()
                            .get(SLOW_TOPIC)
                            .partitions()
                            .get(0)
                            .replicas()
                            .size(),
                    replicas -> replicas == 2);
        }

        String plan = sluice(
                        "cluster",
                        "rebalance",
                        "-b",
                        cluster.bootstrap(),
                        "--remove-broker",
                        Integer.toString(source),
                        "--dry-run")
                .stdoutText();
        plannedMoves(plan)
                .forEach((partition, move) -> assertEquals(
                        move.get(0).size(),
                        move.get(1).size(),
                        "replication factor changed: " + partition + " " + move));
        assertFalse(plannedMoves(plan).containsKey("slow-0"), plan);
        assertTrue(plan.contains("slow-0 [" + target + "]: being reassigned to [" + target + "] already"), plan);
        assertTrue(plan.contains("the run waits for it"), plan);

        ProcessResult refused = sluiceMayFail(
                "cluster", "rebalance", "-b", cluster.bootstrap(), "--remove-broker", Integer.toString(target));
        assertFalse(refused.succeeded(), refused::describe);
        assertTrue(refused.stderr().contains("slow-0 is being reassigned to [" + target + "]"), refused::describe);
        assertTrue(
                cluster.probe().state().topic(SLOW_TOPIC).partition(0).isReassigning(),
                "the other reassignment was still in progress, so the runs above saw it");
    }

    /** About 2 MB of records in slow-0, for the throttle to hold back. */
    private void fillWithTwoMegabytes() throws Exception {
        String padding = "p".repeat(1_000);
        try (KafkaProducer<String, String> producer = ClusterClients.idempotentProducer(cluster.bootstrap())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                acks.add(producer.send(new ProducerRecord<>(SLOW_TOPIC, 0, "k-" + i, i + padding)));
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        }
    }

    /**
     * Three partitions of about 1.5 MB each, all on broker 1, in a topic whose segment.bytes is 1 MiB while the
     * brokers keep the default log.segment.bytes of 1 GiB: the gap to even out is the topic's segment, so the dry
     * run plans moves. Taking the broker's segment counted a 4.5 MB gap as even and planned nothing.
     */
    @Test
    void shouldWeighTheGapAgainstTheTopicsOwnSegmentBytes() throws Exception {
        String topic = "segmented";
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(topic, Map.of(0, List.of(1), 1, List.of(1), 2, List.of(1)))
                            .configs(Map.of("segment.bytes", Integer.toString(1 << 20)))))
                    .all()
                    .get();
        }
        // An idempotent producer whose first batch the leader refuses (it has not applied the new topic yet) while it
        // takes a later one retries the first forever as out of order (Kafka lets a new producer start at any
        // sequence): produce only once every broker serves the topic.
        awaitEveryBrokerServesTheProbedState(topic);
        String padding = "p".repeat(1_000);
        try (KafkaProducer<String, String> producer = ClusterClients.idempotentProducer(cluster.bootstrap())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < 4_500; i++) {
                acks.add(producer.send(new ProducerRecord<>(topic, i % 3, "k-" + i, i + padding)));
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        }
        String plan = sluice("cluster", "rebalance", "-b", cluster.bootstrap(), "--dry-run")
                .stdoutText();
        Map<String, List<List<String>>> moves = plannedMoves(plan);
        assertFalse(moves.isEmpty(), plan);
        moves.forEach((partition, move) -> {
            assertTrue(partition.startsWith(topic + "-"), plan);
            assertEquals(List.of("1"), move.get(0), plan);
            assertFalse(move.get(1).contains("1"), plan);
        });
    }

    /**
     * A plan of three moves, two at a time, whose second move names broker 99, which the controller refuses: the
     * refusal is reported with the controller's reason, the first move is still waited on to the end, the third runs
     * in the next wave, and the moved partitions get their preferred leaders. Submitting the wave as a whole threw at
     * the refusal and left the first move unwatched and the third never started.
     */
    @Test
    void shouldRunTheOtherMovesWhenTheControllerRefusesOne() throws Exception {
        createSpreadTopic();
        StringWriter text = new StringWriter();
        ReassignmentWaves.Outcome outcome;
        List<Move> plan = new ArrayList<>();
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            ClusterState before = cluster.probe().state();
            for (int p = 0; p < 3; p++) {
                int[] from = before.topic(TOPIC).partition(p).replicas();
                int[] to = from.clone();
                to[1] = p == 1 ? 99 : 6 - from[0] - from[1];
                plan.add(new Move(TOPIC, p, from, to, 0));
            }
            outcome = new ReassignmentWaves(admin, new PrintWriter(text), 2, Duration.ofMillis(100))
                    .run(plan, List.of(), SETTLE);
        }
        assertEquals(
                List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 2)),
                outcome.finished(),
                text::toString);
        assertEquals(Set.of(new TopicPartition(TOPIC, 1)), outcome.refused().keySet(), text::toString);
        assertTrue(
                outcome.refused().get(new TopicPartition(TOPIC, 1)).contains("no such broker is registered"),
                outcome.refused()::toString);
        assertFalse(outcome.complete());
        assertTrue(text.toString().contains("Elected the preferred leader of"), text::toString);
        ClusterState after = cluster.probe().state();
        for (Move m : plan) {
            int[] expected = m.partition() == 1 ? m.from() : m.to();
            assertArrayEquals(
                    expected, after.topic(TOPIC).partition(m.partition()).replicas(), m.toString());
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
