package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.it.InProcessTool;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.cluster.ProcessCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Kafka 3.9's everyday command-line tools (their main classes from Maven Central, each run in-process) against
 * one three-broker cluster, in the order an operator uses them, each answer checked against what Kafka prints:
 * {@code kafka-topics} (create, list, describe), {@code kafka-console-producer} and {@code kafka-console-consumer}
 * (keys and values round trip), {@code kafka-get-offsets}, {@code kafka-log-dirs}, {@code kafka-consumer-groups}
 * (list, describe, reset, delete), {@code kafka-broker-api-versions} and {@code kafka-topics --delete}. The configs,
 * delete-records, reassignment, leader-election and ACL tools have their own tests.
 *
 * <p>Not thread-safe; JUnit runs the ordered steps on one thread against the cluster they share.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaCliToolsTest {
    private static final String TOPIC = "cli-orders";
    private static final String GROUP = "cli-readers";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 90;
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private ProcessCluster cluster;

    @BeforeAll
    void startCluster(@TempDir Path work) throws Exception {
        cluster = ProcessCluster.start(work, ClusterTestBase.BROKERS, ProcessCluster.TEST_SESSION_TIMEOUT);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
            cluster.keepLogs(ClusterClients.KEPT_LOGS, getClass().getSimpleName());
        }
    }

    private static ProcessResult tool(String mainClass, byte[] stdin, String... args) throws IOException {
        return InProcessTool.run(mainClass, stdin, TOOL_TIMEOUT, args);
    }

    private static String ok(String mainClass, String... args) throws IOException {
        ProcessResult result = tool(mainClass, new byte[0], args);
        assertTrue(result.succeeded(), result::describe);
        return result.stdoutText();
    }

    private String topics(String... args) throws IOException {
        List<String> full = new ArrayList<>(List.of("--bootstrap-server", cluster.bootstrap()));
        full.addAll(List.of(args));
        return ok("org.apache.kafka.tools.TopicCommand", full.toArray(new String[0]));
    }

    private String groups(String... args) throws IOException {
        List<String> full = new ArrayList<>(List.of("--bootstrap-server", cluster.bootstrap()));
        full.addAll(List.of(args));
        return ok("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", full.toArray(new String[0]));
    }

    @Test
    @Order(1)
    void shouldCreateListAndDescribeATopicWithKafkaTopics() throws Exception {
        String created = topics(
                "--create",
                "--topic",
                TOPIC,
                "--partitions",
                Integer.toString(PARTITIONS),
                "--replication-factor",
                "3",
                "--config",
                "min.insync.replicas=2");
        assertTrue(created.contains("Created topic " + TOPIC + "."), created);
        // the tool may ask a broker that has not applied the new cluster state yet, as with Kafka's own brokers
        Poll.until(
                TOPIC + " in kafka-topics --list",
                SETTLE,
                () -> topics("--list"),
                l -> l.lines().anyMatch(TOPIC::equals));

        String described = Poll.until(
                "every partition of " + TOPIC + " with three in-sync replicas",
                SETTLE,
                () -> topics("--describe", "--topic", TOPIC),
                d -> d.lines()
                                .filter(l -> l.contains("Isr: "))
                                .filter(l -> field(l, "Isr").split(",").length == 3)
                                .count()
                        == PARTITIONS);
        assertTrue(described.contains("PartitionCount: " + PARTITIONS), described);
        assertTrue(described.contains("ReplicationFactor: 3"), described);
        assertTrue(described.contains("min.insync.replicas=2"), described);
        for (String line :
                described.lines().filter(l -> l.contains("Partition: ")).toList()) {
            Set<String> replicas = Set.of(field(line, "Replicas").split(","));
            assertEquals(Set.of("1", "2", "3"), replicas, line);
            assertTrue(replicas.contains(field(line, "Leader")), line);
        }
    }

    @Test
    @Order(2)
    void shouldRoundTripKeyedRecordsWithTheConsoleProducerAndConsumer() throws Exception {
        String input = IntStream.range(0, RECORDS)
                .mapToObj(i -> "key-" + i + ":value-" + i)
                .collect(Collectors.joining("\n", "", "\n"));
        ProcessResult produced = tool(
                "kafka.tools.ConsoleProducer",
                input.getBytes(StandardCharsets.UTF_8),
                "--bootstrap-server",
                cluster.bootstrap(),
                "--topic",
                TOPIC,
                "--producer-property",
                "acks=all",
                "--property",
                "parse.key=true",
                "--property",
                "key.separator=:");
        assertTrue(produced.succeeded(), produced::describe);

        ProcessResult consumed = tool(
                "org.apache.kafka.tools.consumer.ConsoleConsumer",
                new byte[0],
                "--bootstrap-server",
                cluster.bootstrap(),
                "--topic",
                TOPIC,
                "--group",
                GROUP,
                "--from-beginning",
                "--max-messages",
                Integer.toString(RECORDS),
                "--timeout-ms",
                "60000",
                "--property",
                "print.key=true",
                "--property",
                "key.separator=:");
        assertTrue(consumed.succeeded(), consumed::describe);
        Set<String> expected = input.lines().collect(Collectors.toCollection(TreeSet::new));
        Set<String> read = consumed.stdoutLines().stream()
                .filter(l -> !l.isBlank())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, read);
    }

    @Test
    @Order(3)
    void shouldAnswerGetOffsetsWithTheLogEndOfEveryPartition() throws Exception {
        String out = ok(
                "org.apache.kafka.tools.GetOffsetShell", "--bootstrap-server", cluster.bootstrap(), "--topic", TOPIC);
        Map<Integer, Long> ends = new TreeMap<>();
        for (String line : out.lines().filter(l -> l.startsWith(TOPIC + ":")).toList()) {
            String[] parts = line.split(":");
            ends.put(Integer.parseInt(parts[1]), Long.parseLong(parts[2]));
        }
        assertEquals(Set.of(0, 1, 2), ends.keySet(), out);
        assertEquals(RECORDS, ends.values().stream().mapToLong(Long::longValue).sum(), out);
        String earliest = ok(
                "org.apache.kafka.tools.GetOffsetShell",
                "--bootstrap-server",
                cluster.bootstrap(),
                "--topic",
                TOPIC,
                "--time",
                "-2");
        assertEquals(
                List.of(TOPIC + ":0:0", TOPIC + ":1:0", TOPIC + ":2:0"),
                earliest.lines().filter(l -> l.startsWith(TOPIC + ":")).sorted().toList(),
                earliest);
    }

    @Test
    @Order(4)
    void shouldDescribeEveryBrokersLogDirectoryWithKafkaLogDirs() throws Exception {
        JsonNode answer = Poll.until(
                "every broker reports the three partitions of " + TOPIC + " in sync", SETTLE, () -> logDirs(), json -> {
                    List<JsonNode> partitions = new ArrayList<>();
                    json.get("brokers")
                            .forEach(b -> b.get("logDirs")
                                    .forEach(d -> d.get("partitions").forEach(partitions::add)));
                    return json.get("brokers").size() == 3
                            && partitions.size() == 3 * PARTITIONS
                            && partitions.stream()
                                    .allMatch(p -> p.get("offsetLag").asLong() == 0
                                            && p.get("size").asLong() > 0);
                });
        for (JsonNode broker : answer.get("brokers")) {
            for (JsonNode dir : broker.get("logDirs")) {
                assertTrue(dir.get("error").isNull(), dir.toString());
                assertTrue(Path.of(dir.get("logDir").asText()).isAbsolute(), dir.toString());
                for (JsonNode partition : dir.get("partitions")) {
                    assertTrue(partition.get("partition").asText().startsWith(TOPIC + "-"), partition.toString());
                    assertFalse(partition.get("isFuture").asBoolean(), partition.toString());
                }
            }
        }
    }

    private JsonNode logDirs() throws Exception {
        String out = ok(
                "org.apache.kafka.tools.LogDirsCommand",
                "--bootstrap-server",
                cluster.bootstrap(),
                "--describe",
                "--topic-list",
                TOPIC);
        assertTrue(out.contains("Received log directory information from brokers"), out);
        String json = out.lines().filter(l -> l.startsWith("{")).findFirst().orElseThrow(() -> new AssertionError(out));
        return new ObjectMapper().readTree(json);
    }

    @Test
    @Order(5)
    void shouldListDescribeResetAndDeleteAGroupWithKafkaConsumerGroups() throws Exception {
        assertTrue(groups("--list").lines().anyMatch(GROUP::equals), "listed");
        Map<Integer, long[]> described = Poll.until(
                "the group's committed offsets at the log ends",
                SETTLE,
                () -> groupRows(groups("--describe", "--group", GROUP)),
                rows -> rows.size() == PARTITIONS && rows.values().stream().allMatch(r -> r[0] == r[1] && r[2] == 0));
        assertEquals(RECORDS, described.values().stream().mapToLong(r -> r[1]).sum());

        String reset = groups("--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-earliest", "--execute");
        // Kafka 3.9 prints the rows of --reset-offsets without line breaks between them: read it as tokens.
        String[] tokens = reset.trim().split("\\s+");
        long resetRows = IntStream.range(0, tokens.length - 3)
                .filter(i -> tokens[i].equals(GROUP) && tokens[i + 1].equals(TOPIC) && tokens[i + 3].equals("0"))
                .count();
        assertEquals(PARTITIONS, resetRows, reset);
        Map<Integer, long[]> afterReset = groupRows(groups("--describe", "--group", GROUP));
        assertEquals(RECORDS, afterReset.values().stream().mapToLong(r -> r[2]).sum(), "lag after the reset");

        String deleted = groups("--delete", "--group", GROUP);
        assertTrue(
                deleted.contains("Deletion of requested consumer groups ('" + GROUP + "') was successful."), deleted);
        assertFalse(groups("--list").lines().anyMatch(GROUP::equals), "still listed after its deletion");
    }

    /** Partition → {current offset, log end offset, lag} from the rows of {@code --describe}. */
    private static Map<Integer, long[]> groupRows(String described) {
        Map<Integer, long[]> rows = new TreeMap<>();
        for (String line :
                described.lines().filter(l -> l.trim().startsWith(GROUP + " ")).toList()) {
            String[] cols = line.trim().split("\\s+");
            rows.put(
                    Integer.parseInt(cols[2]),
                    new long[] {Long.parseLong(cols[3]), Long.parseLong(cols[4]), Long.parseLong(cols[5])});
        }
        return rows;
    }

    @Test
    @Order(6)
    void shouldListEveryBrokersApiVersionsWithKafkaBrokerApiVersions() throws Exception {
        String out = ok("kafka.admin.BrokerApiVersionsCommand", "--bootstrap-server", cluster.bootstrap());
        for (int id = 1; id <= ClusterTestBase.BROKERS; id++) {
            assertTrue(out.contains("(id: " + id + " rack: null) -> ("), "broker " + id + " in:\n" + out);
        }
        for (String api :
                List.of("Produce(0)", "Fetch(1)", "Metadata(3)", "CreatePartitions(37)", "DescribeLogDirs(35)")) {
            long brokersWithIt = out.lines()
                    .filter(l -> l.trim().startsWith(api + ": "))
                    .filter(l -> l.contains("[usable: "))
                    .count();
            assertEquals(ClusterTestBase.BROKERS, brokersWithIt, api + " usable on every broker:\n" + out);
        }
    }

    @Test
    @Order(7)
    void shouldDeleteTheTopicWithKafkaTopics() throws Exception {
        topics("--delete", "--topic", TOPIC);
        Poll.until(
                TOPIC + " gone from kafka-topics --list",
                SETTLE,
                () -> topics("--list"),
                listed -> listed.lines().noneMatch(TOPIC::equals));
    }

    /** The value after {@code name + ": "} in a tab-separated line of {@code kafka-topics --describe}. */
    private static String field(String line, String name) {
        for (String part : line.split("\t")) {
            String trimmed = part.trim();
            if (trimmed.startsWith(name + ": ")) {
                return trimmed.substring(name.length() + 2).trim();
            }
        }
        throw new AssertionError("no " + name + " in: " + line);
    }
}
