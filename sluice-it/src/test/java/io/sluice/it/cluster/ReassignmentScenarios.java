package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.Poll;
import io.sluice.testkit.cluster.ProcessCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The scenarios of partition reassignment (KIP-455) on three brokers in their own JVMs, driven by Apache Kafka 3.9's
 * {@code kafka-reassign-partitions.sh}: a partition with replication factor 2 moves off its leader onto the third
 * broker while an idempotent acks=all producer (zstd) writes to it and a consumer reads it; the move also survives
 * its target being killed and its source (the leader) being killed, and a cancelled move leaves the original replicas
 * serving. Afterwards every acknowledged record is read exactly once at contiguous offsets, the new replicas are
 * byte-identical on disk, and a broker taken out of the replicas holds no copy. Subclasses choose how a new replica
 * starts: from segment files, or by fetching every record.
 *
 * <p>Not thread-safe; one instance per test.
 */
abstract class ReassignmentScenarios extends ClusterTestBase {
    static final String TOPIC = "moving";
    private static final int BACKLOG = 3_000;
    /** Small segments, so the moved partition spans many of them. */
    static final Map<String, String> TOPIC_CONFIGS = Map.of("min.insync.replicas", "1", "segment.bytes", "65536");

    static final Map<String, String> ZSTD =
            Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd", ProducerConfig.BATCH_SIZE_CONFIG, "4096");

    /** Whether a new replica starts from segment files ({@code sluice.move.file.transfer.enable}). */
    abstract boolean fileTransfer();

    /**
     * A target paused (SIGSTOP) just before Kafka's reassignment tool runs must still be registered when the tool asks
     * (the tool refuses unregistered brokers, as Kafka's does). With the tool in-process ({@link ReassignTool}) it asks
     * within a second, well inside the default 6 s; when its JVM had to start first, 6 s was not enough on a loaded
     * machine and these scenarios needed 15 s, which every kill then waited out.
     */
    @Override
    Duration sessionTimeout() {
        return ProcessCluster.TEST_SESSION_TIMEOUT;
    }

    @Override
    List<String> brokerOverrides() {
        List<String> settings = new ArrayList<>(replicationSettings(6000));
        settings.add("sluice.move.file.transfer.enable=" + fileTransfer());
        return settings;
    }

    /** Whether broker {@code id}'s log says the moved partition's segment files were copied in. */
    boolean copiedFilesOn(int id) throws java.io.IOException {
        return java.nio.file.Files.readString(cluster.broker(id).logFile())
                .contains(TOPIC + "-0: segment files in; follower fetch continues from offset");
    }

    /** The partition on two brokers, and the move that takes it off its leader onto the third one. */
    record Move(PartitionState before, int source, int kept, int target) {
        List<Integer> targetReplicas() {
            return List.of(target, kept);
        }
    }

    /**
     * The move, once every broker serves the partition: a producer that starts while some broker has not yet applied
     * the new topic can see its first batches refused there and a later batch accepted (Kafka's rule lets a new
     * producer start at any sequence), which leaves the client retrying the earlier ones forever.
     */
    Move plan(ReplicatedPartition partition) throws Exception {
        PartitionState before = partition.awaitFullIsr();
        awaitEveryBrokerServesTheProbedState(TOPIC);
        int source = before.leader();
        int kept = partition.followers(before).get(0);
        int target = cluster.brokerIds().stream()
                .filter(id -> !before.hasReplica(id))
                .findFirst()
                .orElseThrow();
        return new Move(before, source, kept, target);
    }

    /**
     * Pauses the move's target so the move stays in progress. The target must not be the controller (Kafka's admin
     * client would wait on a paused controller past its timeouts): a controller target stops cleanly first (the
     * controller role moves at once) and starts again.
     */
    void pauseTarget(Move move) throws Exception {
        if (cluster.probe().controller().brokerId() == move.target()) {
            cluster.broker(move.target()).stop();
            cluster.probe()
                    .awaitController(
                            "a controller other than broker " + move.target(),
                            SETTLE,
                            c -> c.brokerId() != move.target() && c.brokerId() > 0);
            cluster.broker(move.target()).restart();
            cluster.probe()
                    .awaitState("broker " + move.target() + " live again", SETTLE, s -> s.hasBroker(move.target()));
        }
        cluster.broker(move.target()).pause();
    }

    /** Waits until ZooKeeper dropped the session of a killed broker, so it can register again. */
    void awaitGone(int brokerId) throws Exception {
        Poll.until(
                "broker " + brokerId + "'s registration gone",
                cluster.sessionTimeout().plus(SETTLE),
                () -> cluster.probe().isRegistered(brokerId),
                registered -> !registered);
    }

    /** An idempotent acks=all producer (zstd) writing to the moving partition. */
    AckedProducer startProducer() {
        return new AckedProducer(cluster.bootstrap(), TOPIC, "k", "all", ZSTD).start();
    }

    /** Waits until the producer has a backlog for the move to carry. */
    void awaitBacklog(AckedProducer producer) throws Exception {
        Poll.until("a backlog to move", SETTLE, producer::ackedCount, n -> n >= BACKLOG);
    }

    /** Waits until the producer has a third of a backlog more acknowledged than now: writes go on {@code when}. */
    void awaitMoreAcknowledgements(AckedProducer producer, String when) throws Exception {
        int acked = producer.ackedCount();
        Poll.until("acknowledgements " + when, SETTLE, producer::ackedCount, n -> n >= acked + BACKLOG / 3);
    }

    ReassignTool tool(Move move) throws Exception {
        return new ReassignTool(cluster::bootstrap, work, TOPIC, Map.of(0, move.targetReplicas()));
    }

    /** Waits until the published partition has exactly the target replicas, all in sync, and no move in progress. */
    PartitionState awaitMoved(ReplicatedPartition partition, Move move) throws Exception {
        int[] target =
                move.targetReplicas().stream().mapToInt(Integer::intValue).toArray();
        return partition.awaitState(
                "replicas " + move.targetReplicas() + " all in sync, move complete",
                SETTLE.multipliedBy(2),
                (s, p) -> Arrays.equals(p.replicas(), target)
                        && !p.isReassigning()
                        && p.isr().length == target.length
                        && s.hasBroker(p.leader()));
    }

    void assertEverythingThere(ReplicatedPartition partition, Move move, AckedProducer producer) throws Exception {
        assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");
        List<ConsumerRecord<String, String>> read = partition.readAll();
        producer.assertEveryAckedKeyReadOnce(read);
        for (int i = 0; i < read.size(); i++) {
            assertEquals(i, read.get(i).offset(), "offsets are contiguous from 0");
        }
        partition.awaitIdenticalReplicas(move.targetReplicas());
        Poll.until(
                "broker " + move.source() + ", no longer a replica, deleted its copy",
                SETTLE,
                () -> partition.hasCopyOn(move.source()),
                has -> !has);
    }

    void scenarioMoveAPartitionOffItsLeaderWhileItIsWrittenWithKafkasTool() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, 2, TOPIC_CONFIGS);
        Move move = plan(partition);
        ReassignTool tool = tool(move);
        AckedProducer producer = startProducer();
        TailingReader reader = new TailingReader(cluster.bootstrap(), partition.topicPartition()).start();
        try {
            awaitBacklog(producer);
            String executed = tool.execute();
            assertTrue(executed.contains("Successfully started partition reassignment for " + TOPIC + "-0"), executed);
            assertTrue(
                    executed.contains("\"replicas\":"
                            + Arrays.toString(move.before().replicas()).replace(" ", "")),
                    "the current assignment is printed for rollback: " + executed);
            PartitionState moved = awaitMoved(partition, move);
            assertTrue(moved.leader() != move.source(), "the source no longer leads: " + moved);
            String verified = Poll.until(
                    "kafka-reassign-partitions --verify reports the move completed",
                    SETTLE,
                    tool::verify,
                    out -> out.contains("Reassignment of partition " + TOPIC + "-0 is completed"));
            assertTrue(verified.contains("Clearing broker-level throttles"), "--verify clears throttles: " + verified);
            assertFalse(verified.contains("still in progress"), verified);
            assertTrue(tool.list().contains("No partition reassignments found"));
            awaitMoreAcknowledgements(producer, "after the move");
            long readBeforeStop = reader.position();
            Poll.until(
                    "the tailing consumer reading on after the move",
                    SETTLE,
                    reader::position,
                    at -> at > readBeforeStop);
        } finally {
            producer.stop(SETTLE);
            reader.close();
        }
        assertEquals(List.of(), reader.anomalies(), "a consumer reading through the move saw contiguous offsets");
        assertEverythingThere(partition, move, producer);
        assertEquals(
                fileTransfer(),
                copiedFilesOn(move.target()),
                "the new replica started from segment files: " + fileTransfer());
    }

    void scenarioCancelAMoveAndLeaveTheOriginalReplicasServing() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, 2, TOPIC_CONFIGS);
        Move move = plan(partition);
        ReassignTool tool = tool(move);
        AckedProducer producer = startProducer();
        try {
            awaitBacklog(producer);
            pauseTarget(move);
            tool.execute();
            PartitionState moving = partition.awaitState("the move in progress", PartitionState::isReassigning);
            assertArrayEquals(new int[] {move.target()}, moving.addingReplicas());
            String listed = tool.list();
            assertTrue(
                    listed.contains(TOPIC + "-0: replicas: " + move.target() + "," + move.kept() + "," + move.source()
                            + ". adding: " + move.target() + ". removing: " + move.source() + "."),
                    listed);
            // The paused target cannot take a broker config change: its throttle stays until it is back.
            String verified = tool.verify("--preserve-throttles");
            assertTrue(verified.contains("Reassignment of partition " + TOPIC + "-0 is still in progress."), verified);

            String cancelled = tool.cancel("--preserve-throttles");
            assertTrue(
                    cancelled.contains("Successfully cancelled partition reassignment for: " + TOPIC + "-0"),
                    cancelled);
            PartitionState back = partition.awaitState(
                    "the original replicas again", p -> !p.isReassigning() && p.replicas().length == 2);
            assertEquals(
                    List.of(move.source(), move.kept()).stream().sorted().toList(),
                    Arrays.stream(back.replicas()).boxed().sorted().toList());
            assertEquals(move.source(), back.leader(), "the leader kept leading");
            awaitMoreAcknowledgements(producer, "after the cancel");
            cluster.broker(move.target()).resume();
            Poll.until(
                    "broker " + move.target() + " holds no copy once it sees the cancel",
                    SETTLE,
                    () -> partition.hasCopyOn(move.target()),
                    has -> !has);
        } finally {
            producer.stop(SETTLE);
        }
        assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");
        producer.assertEveryAckedKeyReadOnce(partition.readAll());
        partition.awaitIdenticalReplicas(List.of(move.source(), move.kept()));
    }

    void scenarioFinishTheMoveWhenItsTargetIsKilledAndRestarted() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, 2, TOPIC_CONFIGS);
        Move move = plan(partition);
        AckedProducer producer = startProducer();
        try {
            awaitBacklog(producer);
            pauseTarget(move);
            tool(move).execute();
            partition.awaitState("the move in progress", PartitionState::isReassigning);
            cluster.broker(move.target()).kill9();
            awaitGone(move.target());
            awaitMoreAcknowledgements(producer, "while the target is down");
            cluster.broker(move.target()).restart();
            awaitMoved(partition, move);
        } finally {
            producer.stop(SETTLE);
        }
        assertEverythingThere(partition, move, producer);
    }

    /**
     * The new replica killed as soon as the move is done: its copied files went in without waiting for the disk (the
     * default flush policy), so a kill before its flush task forced them leaves them above its recovery point; it
     * comes back, recovers them, rejoins the ISR and ends identical, and nothing acknowledged is lost.
     */
    void scenarioRestartTheNewReplicaKilledRightAfterTheMove() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, 2, TOPIC_CONFIGS);
        Move move = plan(partition);
        AckedProducer producer = startProducer();
        try {
            awaitBacklog(producer);
            tool(move).execute();
            awaitMoved(partition, move);
            cluster.broker(move.target()).kill9();
            awaitGone(move.target());
            cluster.broker(move.target()).restart();
            partition.awaitState(
                    "broker " + move.target() + " back in the ISR",
                    p -> p.isr().length == 2 && Arrays.stream(p.isr()).anyMatch(id -> id == move.target()));
            awaitMoreAcknowledgements(producer, "after the restart");
        } finally {
            producer.stop(SETTLE);
        }
        assertEverythingThere(partition, move, producer);
    }

    void scenarioFinishTheMoveFromTheOtherInSyncReplicaWhenTheSourceIsKilled() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, 2, TOPIC_CONFIGS);
        Move move = plan(partition);
        AckedProducer producer = startProducer();
        List<Integer> survivors = new ArrayList<>(move.targetReplicas());
        try {
            awaitBacklog(producer);
            pauseTarget(move);
            tool(move).execute();
            PartitionState moving = partition.awaitState("the move in progress", PartitionState::isReassigning);
            cluster.broker(move.source()).kill9();
            PartitionState failedOver = partition.awaitNewLeader(moving);
            assertEquals(move.kept(), failedOver.leader(), "the other in-sync replica leads");
            cluster.broker(move.target()).resume();
            awaitMoved(partition, move);
            awaitMoreAcknowledgements(producer, "after the move");
        } finally {
            producer.stop(SETTLE);
        }
        assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");
        List<ConsumerRecord<String, String>> read = partition.readAll();
        producer.assertEveryAckedKeyReadOnce(read);
        partition.awaitIdenticalReplicas(survivors);
        cluster.broker(move.source()).restart();
        Poll.until(
                "broker " + move.source() + " sets its old copy aside when it comes back",
                SETTLE,
                () -> partition.hasCopyOn(move.source()),
                has -> !has);
    }
}
