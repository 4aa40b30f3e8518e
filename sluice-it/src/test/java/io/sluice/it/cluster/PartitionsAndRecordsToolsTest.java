package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.it.InProcessTool;
import io.sluice.testkit.PartitionDirectory;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.FileRecords;
import org.junit.jupiter.api.Test;

/**
 * CreatePartitions and DeleteRecords on a three-broker cluster (brokers in their own JVMs), driven by Apache Kafka
 * 3.9's own {@code kafka-topics.sh --alter --partitions} ({@code TopicCommand}) and {@code kafka-delete-records.sh}
 * ({@code DeleteRecordsCommand}) and by the admin client, while an acks=all idempotent producer keeps writing: the
 * topic grows from one to three RF-3 partitions led and followed by the brokers; records are deleted on partition 0
 * with every broker up, then on partitions 0 and 1 after a follower was SIGKILLed, and the leader of partition 0 is
 * SIGKILLed after that. In the end every replica of each partition has the same log start offset (the leader's,
 * checkpointed) and byte-identical batches from it on, no record below a log start is readable, and every acknowledged record
 * not deleted is read exactly once. Kafka's tool also creates and grows a topic on manual replica assignments, and
 * {@code kafka-transactions.sh describe-producers} lists the idempotent producer that wrote to it.
 */
class PartitionsAndRecordsToolsTest extends ClusterTestBase {
    private static final String TOPIC = "grown";
    private static final int PARTITIONS = 3;
    private static final int BATCH_OF_ACKS = 600;
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(120);

    @Override
    List<String> brokerOverrides() {
        List<String> settings = new ArrayList<>(replicationSettings(6000));
        settings.addAll(List.of(
                "log.flush.offset.checkpoint.interval.ms=300",
                "log.retention.check.interval.ms=300",
                "log.segment.delete.delay.ms=0"));
        return settings;
    }

    private ProcessResult tool(String mainClass, String... args) throws IOException {
        return InProcessTool.run(mainClass, new byte[0], TOOL_TIMEOUT, args);
    }

    private int nonController() throws Exception {
        int controller = cluster.probe().controller().brokerId();
        return cluster.brokerIds().stream()
                .filter(id -> id != controller)
                .findFirst()
                .orElseThrow();
    }

    private TopicState topicState() throws Exception {
        return cluster.probe().state().topic(TOPIC);
    }

    /** Waits until every partition of the topic has a live leader and all three replicas in sync. */
    private TopicState awaitFullIsrs(int partitions) throws Exception {
        return Poll.until(
                partitions + " partitions of " + TOPIC + " with a leader and three in-sync replicas",
                SETTLE,
                this::topicState,
                t -> t != null
                        && t.partitionCount() == partitions
                        && java.util.stream.IntStream.range(0, partitions)
                                .allMatch(p -> !t.partition(p).isOffline()
                                        && t.partition(p).isr().length == BROKERS
                                        && cluster.broker(t.partition(p).leader())
                                                .isAlive()));
    }

    /** Reads partition {@code tp} from {@code from} up to {@code to} (exclusive) and returns the keys read. */
    private Set<String> keysBetween(TopicPartition tp, long from, long to) throws Exception {
        Set<String> keys = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, from);
            Poll.until(
                    "records of " + tp + " up to " + to,
                    SETTLE,
                    () -> {
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                            if (r.offset() < to) {
                                keys.add(r.key());
                            }
                        }
                        return consumer.position(tp);
                    },
                    position -> position >= to);
        }
        return keys;
    }

    private static long offset(Admin admin, TopicPartition tp, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get().offset();
    }

    /** Broker id → the log start offset its log-start-offset-checkpoint holds for partition {@code p}, -1 if none. */
    private Map<Integer, Long> checkpointedLogStarts(int p) throws IOException {
        Map<Integer, Long> starts = new TreeMap<>();
        for (int id : cluster.brokerIds()) {
            Path file = cluster.brokerDir(id).resolve("log-start-offset-checkpoint");
            long start = -1;
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file)) {
                    String[] parts = line.split(" ");
                    if (parts.length == 3 && parts[0].equals(TOPIC) && parts[1].equals(Integer.toString(p))) {
                        start = Long.parseLong(parts[2]);
                    }
                }
            }
            starts.put(id, start);
        }
        return starts;
    }

    /**
     * Broker id → what its copy of partition {@code p} holds from log start {@code start} on: the bytes of every batch
     * on disk that ends at or past it, in offset order. A replica that started its log over at the start (it was
     * behind the leader's log start) holds no batch below it, the others may still hold the start's segment whole.
     */
    private Map<Integer, byte[]> copies(int p, long start) throws IOException {
        Map<Integer, byte[]> copies = new TreeMap<>();
        for (int id : cluster.brokerIds()) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (Path segment : new PartitionDirectory(cluster.brokerDir(id), TOPIC, p).segments()) {
                try (FileRecords records = FileRecords.open(segment.toFile(), false)) {
                    for (org.apache.kafka.common.record.FileLogInputStream.FileChannelRecordBatch batch :
                            records.batches()) {
                        if (batch.lastOffset() >= start) {
                            ByteBuffer copy = ByteBuffer.allocate(batch.sizeInBytes());
                            batch.writeTo(copy);
                            bytes.write(copy.array());
                        }
                    }
                }
            }
            copies.put(id, bytes.toByteArray());
        }
        return copies;
    }

    private static boolean identical(Map<Integer, byte[]> copies) {
        byte[] first = copies.values().iterator().next();
        return copies.values().stream().allMatch(c -> Arrays.equals(first, c));
    }

    private static String describe(Map<Integer, byte[]> copies) {
        StringBuilder out = new StringBuilder();
        copies.forEach((id, bytes) -> out.append("broker ")
                .append(id)
                .append(": ")
                .append(bytes.length)
                .append(" bytes; "));
        return out.toString();
    }

    /** Replica ids of each partition of {@code topic} as the cluster state has them. */
    private List<List<Integer>> replicas(String topic) throws Exception {
        TopicState state = cluster.probe().state().topic(topic);
        List<List<Integer>> out = new ArrayList<>();
        for (int p = 0; state != null && p < state.partitionCount(); p++) {
            out.add(Arrays.stream(state.partition(p).replicas()).boxed().toList());
        }
        return out;
    }

    /**
     * Waits until every replica of {@code topic} has its partition directory: its broker has applied the topic (the
     * broker's Metadata answers from the state it applied just before it creates the directory).
     */
    private void awaitReplicaDirectories(String topic, List<List<Integer>> replicasByPartition) throws Exception {
        for (int p = 0; p < replicasByPartition.size(); p++) {
            for (int id : replicasByPartition.get(p)) {
                Path dir = new PartitionDirectory(cluster.brokerDir(id), topic, p).dir();
                Poll.until(
                        "broker " + id + " applied " + topic + "-" + p + " (" + dir + ")",
                        SETTLE,
                        () -> Files.isDirectory(dir),
                        applied -> applied);
            }
        }
    }

    @Test
    void shouldCreateAndGrowOnManualAssignmentsWithKafkaTopicsTool() throws Exception {
        ProcessResult created = tool(
                "org.apache.kafka.tools.TopicCommand",
                "--bootstrap-server",
                cluster.bootstrap(),
                "--create",
                "--topic",
                "placed",
                "--replica-assignment",
                "1:2,2:3");
        assertTrue(created.succeeded(), created::describe);
        assertEquals(
                List.of(List.of(1, 2), List.of(2, 3)),
                Poll.until("the placed topic published", SETTLE, () -> replicas("placed"), r -> r.size() == 2));
        // each broker applies the published state a moment later; --alter fails on one that does not know the topic yet
        awaitReplicaDirectories("placed", List.of(List.of(1, 2), List.of(2, 3)));
        ProcessResult grown = tool(
                "org.apache.kafka.tools.TopicCommand",
                "--bootstrap-server",
                cluster.bootstrap(),
                "--alter",
                "--topic",
                "placed",
                "--partitions",
                "3",
                "--replica-assignment",
                "1:2,2:3,3:1");
        assertTrue(grown.succeeded(), grown::describe);
        assertEquals(
                List.of(List.of(1, 2), List.of(2, 3), List.of(3, 1)),
                Poll.until("the third partition published", SETTLE, () -> replicas("placed"), r -> r.size() == 3));
        awaitReplicaDirectories("placed", List.of(List.of(1, 2), List.of(2, 3), List.of(3, 1)));
        ProcessResult unknownBroker = tool(
                "org.apache.kafka.tools.TopicCommand",
                "--bootstrap-server",
                cluster.bootstrap(),
                "--alter",
                "--topic",
                "placed",
                "--partitions",
                "4",
                "--replica-assignment",
                "1:2,2:3,3:1,1:9");
        assertFalse(unknownBroker.succeeded(), unknownBroker::describe);
        assertTrue((unknownBroker.stdoutText() + unknownBroker.stderr()).contains("broker 9"), unknownBroker::describe);
        assertEquals(3, replicas("placed").size());
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(cluster.bootstrap());
                org.apache.kafka.clients.producer.KafkaProducer<String, String> producer =
                        ClusterClients.idempotentProducer(cluster.bootstrap())) {
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("placed", 2, "k", "on 3 and 1"))
                    .get();
            TopicPartition tp = new TopicPartition("placed", 2);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            ConsumerRecord<String, String> record = Poll.until(
                            "the record on the new partition",
                            SETTLE,
                            () -> consumer.poll(Duration.ofMillis(100)),
                            r -> !r.isEmpty())
                    .iterator()
                    .next();
            assertEquals("on 3 and 1", record.value());
        }
        // kafka-transactions.sh describe-producers: the idempotent producer that wrote, from the leader's state.
        ProcessResult producers = tool(
                "org.apache.kafka.tools.TransactionsCommand",
                "--bootstrap-server",
                cluster.bootstrap(),
                "describe-producers",
                "--topic",
                "placed",
                "--partition",
                "2");
        assertTrue(producers.succeeded(), producers::describe);
        List<String> lines =
                producers.stdoutLines().stream().filter(l -> !l.isBlank()).toList();
        assertTrue(
                lines.size() == 2
                        && lines.get(0).contains("ProducerId")
                        && lines.get(0).contains("LastSequence"),
                producers::describe);
        List<String> row = Arrays.asList(lines.get(1).trim().split("\\s+"));
        assertEquals(List.of("0", "-1", "0"), row.subList(1, 4), "epoch, coordinator epoch, last sequence: " + row);
        assertEquals("None", row.get(5), "no transaction: " + row);
    }

    @Test
    void shouldGrowAndPurgeAReplicatedTopicThroughKillsWithKafkasTools() throws Exception {
        ReplicatedPartition.create(cluster, TOPIC, Map.of("min.insync.replicas", "2", "segment.bytes", "65536"));
        Map<Integer, Set<String>> deletedKeys = new HashMap<>();
        Map<Integer, Long> deletedBelow = new HashMap<>();
        AckedProducer producer = new AckedProducer(cluster.bootstrap(), TOPIC, "k", "all").start();
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            Poll.until("the first acknowledgements", SETTLE, producer::ackedCount, n -> n >= BATCH_OF_ACKS);

            // kafka-topics.sh --alter --partitions, sent to a broker that is not the controller.
            String viaFollower = cluster.broker(nonController()).bootstrap();
            ProcessResult alter = tool(
                    "org.apache.kafka.tools.TopicCommand",
                    "--bootstrap-server",
                    viaFollower,
                    "--alter",
                    "--topic",
                    TOPIC,
                    "--partitions",
                    Integer.toString(PARTITIONS));
            assertTrue(alter.succeeded(), alter::describe);
            TopicState grown = awaitFullIsrs(PARTITIONS);
            for (int p = 1; p < PARTITIONS; p++) {
                assertEquals(BROKERS, grown.partition(p).replicas().length, "the topic's replication factor");
            }
            ProcessResult shrink = tool(
                    "org.apache.kafka.tools.TopicCommand",
                    "--bootstrap-server",
                    viaFollower,
                    "--alter",
                    "--topic",
                    TOPIC,
                    "--partitions",
                    "2");
            String shrinkOutput = shrink.stdoutText() + shrink.stderr();
            assertFalse(shrink.succeeded(), shrink::describe);
            assertTrue(
                    shrinkOutput.contains("Topic currently has 3 partitions, 2 would not be an increase."),
                    shrink::describe);
            ProcessResult described = tool(
                    "org.apache.kafka.tools.TopicCommand",
                    "--bootstrap-server",
                    cluster.bootstrap(),
                    "--describe",
                    "--topic",
                    TOPIC);
            assertTrue(described.stdoutText().contains("PartitionCount: 3"), described::describe);
            Poll.until(
                    "acknowledgements on every partition", SETTLE, producer::ackedCount, n -> n >= 2 * BATCH_OF_ACKS);

            // kafka-delete-records.sh on partition 0 with every broker up.
            TopicPartition p0 = new TopicPartition(TOPIC, 0);
            long firstCut = offset(admin, p0, OffsetSpec.latest()) / 2;
            deletedKeys.computeIfAbsent(0, k -> new HashSet<>()).addAll(keysBetween(p0, 0, firstCut));
            Path json = work.resolve("delete.json");
            Files.writeString(
                    json,
                    "{\"version\":1,\"partitions\":[{\"topic\":\"" + TOPIC + "\",\"partition\":0,\"offset\":" + firstCut
                            + "}]}");
            ProcessResult deleted = tool(
                    "org.apache.kafka.tools.DeleteRecordsCommand",
                    "--bootstrap-server",
                    cluster.bootstrap(),
                    "--offset-json-file",
                    json.toString());
            assertTrue(deleted.succeeded(), deleted::describe);
            assertTrue(
                    deleted.stdoutText().contains("partition: " + TOPIC + "-0\tlow_watermark: " + firstCut),
                    deleted::describe);
            deletedBelow.put(0, firstCut);

            // SIGKILL a follower of partition 0 mid-way; once the cluster dropped it, delete on partitions 0 and 1.
            PartitionState p0State = topicState().partition(0);
            int follower = Arrays.stream(p0State.replicas())
                    .filter(id -> id != p0State.leader())
                    .findFirst()
                    .orElseThrow();
            cluster.broker(follower).kill9();
            Poll.until(
                    "broker " + follower + " gone from the cluster state",
                    SETTLE,
                    () -> cluster.probe().state().hasBroker(follower),
                    live -> !live);
            Map<TopicPartition, RecordsToDelete> cuts = new HashMap<>();
            for (int p = 0; p < 2; p++) {
                TopicPartition tp = new TopicPartition(TOPIC, p);
                long end = offset(admin, tp, OffsetSpec.latest());
                long cut = Math.max(deletedBelow.getOrDefault(p, 0L), end * 3 / 4);
                deletedKeys
                        .computeIfAbsent(p, k -> new HashSet<>())
                        .addAll(keysBetween(tp, deletedBelow.getOrDefault(p, 0L), cut));
                cuts.put(tp, RecordsToDelete.beforeOffset(cut));
                deletedBelow.put(p, cut);
            }
            admin.deleteRecords(cuts).all().get();
            for (int p = 0; p < 2; p++) {
                assertEquals(deletedBelow.get(p), offset(admin, new TopicPartition(TOPIC, p), OffsetSpec.earliest()));
            }
            cluster.broker(follower).restart();
            awaitFullIsrs(PARTITIONS);

            // SIGKILL the leader of partition 0: the new leader already holds the log start the answer promised.
            PartitionState beforeKill = topicState().partition(0);
            cluster.broker(beforeKill.leader()).kill9();
            Poll.until(
                    "a new leader of partition 0",
                    SETTLE,
                    () -> topicState().partition(0),
                    s -> s.leaderEpoch() > beforeKill.leaderEpoch()
                            && !s.isOffline()
                            && s.leader() != beforeKill.leader());
            assertEquals(
                    deletedBelow.get(0),
                    Poll.until(
                            "the new leader answers ListOffsets",
                            SETTLE,
                            () -> offset(admin, p0, OffsetSpec.earliest()),
                            o -> o >= 0));
            int ackedAtKill = producer.ackedCount();
            Poll.until(
                    "acknowledgements after the leader was killed",
                    SETTLE,
                    producer::ackedCount,
                    n -> n >= ackedAtKill + BATCH_OF_ACKS);
            cluster.broker(beforeKill.leader()).restart();
            awaitFullIsrs(PARTITIONS);
        } finally {
            producer.stop(SETTLE);
        }
        assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");

        for (int p = 0; p < PARTITIONS; p++) {
            long start = deletedBelow.getOrDefault(p, 0L);
            int partition = p;
            Map<Integer, Long> starts = Poll.until(
                    "every replica of " + TOPIC + "-" + p + " checkpoints log start " + start,
                    SETTLE,
                    () -> checkpointedLogStarts(partition),
                    s -> s.values().stream().allMatch(v -> v == start));
            assertEquals(BROKERS, starts.size());
            Map<Integer, byte[]> copies = Poll.until(
                    "the replicas of " + TOPIC + "-" + p + " byte-identical on disk",
                    SETTLE,
                    () -> copies(partition, start),
                    PartitionsAndRecordsToolsTest::identical);
            assertTrue(copies.values().iterator().next().length > 0, describe(copies));
        }

        List<ConsumerRecord<String, String>> read;
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            read = KeyedRecords.readAll(consumer, KeyedRecords.partitions(TOPIC, partitionNumbers(PARTITIONS)), SETTLE);
        }
        Map<String, Long> readOffsets = new HashMap<>();
        for (ConsumerRecord<String, String> r : read) {
            assertTrue(r.offset() >= deletedBelow.getOrDefault(r.partition(), 0L), "read below the log start: " + r);
            assertFalse(deletedKeys.getOrDefault(r.partition(), Set.of()).contains(r.key()), "a deleted key: " + r);
            if (readOffsets.put(r.key(), r.offset()) != null) {
                fail("key " + r.key() + " read twice");
            }
        }
        Set<String> everyDeleted = new HashSet<>();
        deletedKeys.values().forEach(everyDeleted::addAll);
        for (String key : producer.acked()) {
            if (!readOffsets.containsKey(key) && !everyDeleted.contains(key)) {
                fail("acknowledged key " + key + " was lost: neither read nor deleted");
            }
        }
    }
}
