package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.PartitionState;
import io.sluice.it.Acks;
import io.sluice.testkit.ChildProcessRunner;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.SluiceCliDistribution;
import io.sluice.testkit.cluster.ControllerRecord;
import io.sluice.testkit.cluster.ProcessCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Moves slowed by Kafka's replication throttles ({@code kafka-reassign-partitions.sh --execute --throttle}), so that
 * a transfer of segment files can be caught half done: the tool sets the throttle keys through
 * IncrementalAlterConfigs and the file transfer honours them; a target SIGKILLed mid-transfer resumes after its
 * restart sending again at most one chunk plus the active segment (read from its transfer counters); a move cancelled
 * mid-transfer leaves no staging and the original replicas serving; {@code --verify} removes the throttles once done.
 */
class ThrottledMoveTest extends ReassignmentScenarios {
    private static final int CHUNK_BYTES = 64 * 1024;
    private static final int SEGMENT_BYTES = 65_536;
    /** Bytes/s the tool's --throttle sets: a 2 MB partition takes about 10 s. */
    private static final long THROTTLE = 200_000;

    private static final int RECORDS = 2_000;
    /** The progress fields of a throttled move copying files, as {@code sluice cluster status} prints them. */
    private static final Pattern MOVE_PROGRESS = Pattern.compile(
            "\\tPhase: copying\\tShipped: [\\d.]+/[\\d.]+ MB\\tProgress: \\d+%\\tRate: [\\d.]+ MB/s\\tEta: \\d+s$");

    private static final Pattern DONE = Pattern.compile(
            TOPIC
                    + "-0: segment files in; follower fetch continues from offset \\d+ \\(TransferProgress\\{DONE, verified (\\d+)/(\\d+), shipped (\\d+), resent (\\d+)");

    @Override
    boolean fileTransfer() {
        return true;
    }

    @Override
    List<String> brokerOverrides() {
        List<String> settings = new ArrayList<>(super.brokerOverrides());
        settings.add("sluice.move.chunk.bytes=" + CHUNK_BYTES);
        return settings;
    }

    /** About 2 MB of incompressible records, so the throttle has bytes to slow down. */
    private void fill() throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        Random random = new Random(42);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                byte[] value = new byte[1_000];
                random.nextBytes(value);
                acks.add(producer.send(
                        new ProducerRecord<>(TOPIC, 0, ("f-" + i).getBytes(StandardCharsets.UTF_8), value)));
            }
            producer.flush();
            Acks.awaitAll(acks);
        }
    }

    /** The bytes broker {@code id} reports for the partition (a move's verified staged bytes included). */
    private long sizeOn(Admin admin, int id) throws Exception {
        long size = 0;
        for (LogDirDescription dir : admin.describeLogDirs(List.of(id))
                .allDescriptions()
                .get()
                .get(id)
                .values()) {
            ReplicaInfo info = dir.replicaInfos().get(new TopicPartition(TOPIC, 0));
            size += info == null ? 0 : info.size();
        }
        return size;
    }

    private Map<String, String> topicConfig(Admin admin) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
        Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        Map<String, String> out = new java.util.HashMap<>();
        config.entries().forEach(e -> out.put(e.name(), e.value()));
        return out;
    }

    /** A partition of small segments on two brokers, filled, with the move off its leader and the tool for it. */
    private record FilledMove(ReplicatedPartition partition, Move move, ReassignTool tool) {}

    private FilledMove filledMove() throws Exception {
        ReplicatedPartition partition =
                ReplicatedPartition.create(cluster, TOPIC, 2, Map.of("segment.bytes", Integer.toString(SEGMENT_BYTES)));
        Move move = plan(partition);
        fill();
        return new FilledMove(partition, move, tool(move));
    }

    /** Runs the tool with the throttle and waits until the target holds some, and less than half, of the partition. */
    private void startThrottledMove(Admin admin, ReassignTool tool, Move move) throws Exception {
        long total = sizeOn(admin, move.source());
        tool.execute("--throttle", Long.toString(THROTTLE));
        Poll.until(
                "the throttled transfer under way on broker " + move.target(),
                SETTLE,
                () -> sizeOn(admin, move.target()),
                size -> size > 0 && size < total / 2);
    }

    @Test
    void shouldResumeAThrottledTransferAfterItsTargetIsKilledMidwayAndClearTheThrottleOnVerify() throws Exception {
        FilledMove filled = filledMove();
        ReplicatedPartition partition = filled.partition();
        Move move = filled.move();
        ReassignTool tool = filled.tool();
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            long total = sizeOn(admin, move.source());
            String executed = tool.execute("--throttle", Long.toString(THROTTLE));
            assertTrue(executed.contains("The inter-broker throttle limit was set to " + THROTTLE), executed);
            Map<String, String> throttled = topicConfig(admin);
            assertEquals("0:" + move.target(), throttled.get("follower.replication.throttled.replicas"));
            assertTrue(
                    throttled.get("leader.replication.throttled.replicas").contains("0:" + move.source()),
                    throttled.toString());

            long before = Poll.until(
                    "the throttled transfer half done on broker " + move.target(),
                    SETTLE,
                    () -> sizeOn(admin, move.target()),
                    size -> size > total / 4 && size < total * 3 / 4);
            assertTrue(partition.state().isReassigning(), "still moving at the kill");
            cluster.broker(move.target()).kill9();
            awaitGone(move.target());
            cluster.broker(move.target()).restart();
            awaitMoved(partition, move);

            Matcher done =
                    DONE.matcher(Files.readString(cluster.broker(move.target()).logFile()));
            long shippedAfterRestart = -1;
            while (done.find()) {
                shippedAfterRestart = Long.parseLong(done.group(3));
            }
            assertTrue(shippedAfterRestart >= 0, "the restarted target reported its transfer");
            long sentAgain = shippedAfterRestart - (total - before);
            assertTrue(
                    sentAgain <= CHUNK_BYTES + SEGMENT_BYTES,
                    "sent again after the restart: " + sentAgain + " bytes (shipped " + shippedAfterRestart + " of "
                            + total + ", " + before + " verified before)");

            String verified = Poll.until(
                    "--verify reports the move completed",
                    SETTLE,
                    tool::verify,
                    out -> out.contains("Reassignment of partition " + TOPIC + "-0 is completed"));
            assertTrue(verified.contains("Clearing broker-level throttles"), verified);
            // The tool removed the throttle through one broker; the one this admin client asks may apply it a moment
            // later (a tool in its own JVM used to take that long to exit).
            Poll.until(
                    "the topic's follower throttle cleared on the broker asked",
                    SETTLE,
                    () -> topicConfig(admin),
                    cleared -> !(cleared.containsKey("follower.replication.throttled.replicas")
                            && !cleared.get("follower.replication.throttled.replicas")
                                    .isEmpty()));
        }
        partition.awaitIdenticalReplicas(move.targetReplicas());
        assertEquals(RECORDS, partition.readAll().size());
    }

    @Test
    void shouldCancelAThrottledTransferMidwayAndLeaveNoStaging() throws Exception {
        FilledMove filled = filledMove();
        ReplicatedPartition partition = filled.partition();
        Move move = filled.move();
        ReassignTool tool = filled.tool();
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            startThrottledMove(admin, tool, move);
            ProcessResult status = ChildProcessRunner.run(
                    SluiceCliDistribution.fromEnvironment()
                            .command("cluster", "status", "--zookeeper", cluster.zookeeperConnect()),
                    new byte[0],
                    Duration.ofSeconds(60));
            assertTrue(status.succeeded(), status::describe);
            String moving = status.stdoutLines().stream()
                    .filter(line -> line.startsWith("ReassigningPartition: " + TOPIC + "-0\t"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no ReassigningPartition line: " + status.describe()));
            assertTrue(
                    MOVE_PROGRESS.matcher(moving).find(),
                    "cluster status shows the move's phase, bytes, rate and ETA: " + moving);
            String cancelled = tool.cancel();
            assertTrue(
                    cancelled.contains("Successfully cancelled partition reassignment for: " + TOPIC + "-0"),
                    cancelled);
        }
        PartitionState back = partition.awaitState(
                "the original replicas again", p -> !p.isReassigning() && p.replicas().length == 2);
        assertEquals(
                Arrays.stream(move.before().replicas()).sorted().boxed().toList(),
                Arrays.stream(back.replicas()).sorted().boxed().toList());
        Poll.until(
                "broker " + move.target() + " left no partition directory or staging",
                SETTLE,
                () -> partition.hasCopyOn(move.target()),
                has -> !has);
        assertEquals(RECORDS, partition.readAll().size(), "the original replicas serve every record");
        partition.awaitIdenticalReplicas(List.of(move.source(), move.kept()));
    }

    /**
     * The controller SIGKILLed while a throttled transfer is half done: another broker takes the controller role with
     * the reassignment read back from the stored state, and completes it once the new replica is in sync. The victim
     * is whichever broker held the role: the source (the transfer goes on from the other in-sync replica), the replica
     * kept, or the target (it resumes after its restart). Nothing is lost and the target replicas end identical.
     */
    @Test
    void shouldCompleteAThrottledMoveAfterTheControllerIsKilledMidway() throws Exception {
        FilledMove filled = filledMove();
        ReplicatedPartition partition = filled.partition();
        Move move = filled.move();
        ReassignTool tool = filled.tool();
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            startThrottledMove(admin, tool, move);
        }
        ControllerRecord old = cluster.probe().controller();
        int victim = old.brokerId();
        cluster.broker(victim).kill9();
        cluster.probe()
                .awaitController(
                        "a new controller after broker " + victim + " was killed mid-move",
                        cluster.sessionTimeout().plus(ProcessCluster.ELECTION_SLACK),
                        c -> c.brokerId() != victim && c.brokerId() > 0 && c.epoch() > old.epoch());
        assertTrue(partition.state().isReassigning(), "the new controller took the move over unfinished");
        awaitGone(victim);
        cluster.broker(victim).restart();
        awaitMoved(partition, move);
        partition.awaitIdenticalReplicas(move.targetReplicas());
        List<String> keys =
                partition.readAll().stream().map(ConsumerRecord::key).toList();
        assertEquals(
                java.util.stream.IntStream.range(0, RECORDS)
                        .mapToObj(i -> "f-" + i)
                        .toList(),
                keys,
                "every acknowledged record, once, in order");
        Poll.until(
                "broker " + move.source() + ", no longer a replica, deleted its copy",
                SETTLE,
                () -> partition.hasCopyOn(move.source()),
                has -> !has);
    }
}
