package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.InProcessTool;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Apache Kafka 3.9's own tools (kafka-tools, each run in-process) on a replicated topic of the three-broker cluster:
 * {@code kafka-topics.sh} creates it with replication factor 3 and describes replicas and ISR, lists the partitions
 * left under-replicated by a killed broker and none once it is back, and {@code kafka-leader-election.sh} moves
 * leadership back to the preferred replicas.
 */
class KafkaToolsReplicationTest extends ClusterTestBase {
    private static final String TOPIC = "tools-rf3";
    private static final int PARTITIONS = 3;
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(120);
    private static final Pattern PARTITION_LINE = Pattern.compile("Topic: " + TOPIC
            + "\\s+Partition: (\\d+)\\s+Leader: (-?\\d+|none)\\s+Replicas: ([\\d,]+)\\s+Isr: ([\\d,]*)");

    /** One partition as kafka-topics.sh --describe prints it. */
    private record Described(int partition, String leader, String replicas, String isr) {
        String preferred() {
            return replicas.split(",")[0];
        }
    }

    private ProcessResult tool(String mainClass, String... args) throws IOException {
        ProcessResult result = InProcessTool.run(mainClass, new byte[0], TOOL_TIMEOUT, args);
        assertTrue(result.succeeded(), result::describe);
        return result;
    }

    /**
     * As {@link #topics}, or none while the broker the tool asks has not applied the new topic yet (the tool then
     * exits 1: "does not exist as expected").
     */
    private List<Described> topicsOnceListed() throws IOException {
        ProcessResult result = InProcessTool.run(
                "org.apache.kafka.tools.TopicCommand",
                new byte[0],
                TOOL_TIMEOUT,
                "--bootstrap-server",
                cluster.bootstrap(),
                "--describe",
                "--topic",
                TOPIC);
        return result.succeeded() ? described(result.stdoutText()) : List.of();
    }

    private List<Described> topics(String... describeArgs) throws IOException {
        List<String> args =
                new ArrayList<>(List.of("--bootstrap-server", cluster.bootstrap(), "--describe", "--topic", TOPIC));
        args.addAll(List.of(describeArgs));
        return described(tool("org.apache.kafka.tools.TopicCommand", args.toArray(new String[0]))
                .stdoutText());
    }

    /** The partition lines of a {@code kafka-topics --describe} output. */
    private static List<Described> described(String out) {
        List<Described> partitions = new ArrayList<>();
        Matcher m = PARTITION_LINE.matcher(out);
        while (m.find()) {
            partitions.add(new Described(Integer.parseInt(m.group(1)), m.group(2), m.group(3), m.group(4)));
        }
        return partitions;
    }

    @Test
    void shouldCreateDescribeListUnderReplicatedAndElectPreferredLeaders() throws Exception {
        tool(
                "org.apache.kafka.tools.TopicCommand",
                "--bootstrap-server",
                cluster.bootstrap(),
                "--create",
                "--topic",
                TOPIC,
                "--partitions",
                Integer.toString(PARTITIONS),
                "--replication-factor",
                "3",
                "--config",
                "min.insync.replicas=2");
        Poll.until(
                "every partition of " + TOPIC + " with three replicas in sync",
                SETTLE,
                this::topicsOnceListed,
                ps -> ps.size() == PARTITIONS
                        && ps.stream().allMatch(p -> p.isr().split(",").length == 3));

        cluster.broker(3).kill9();
        List<Described> under = Poll.until(
                "kafka-topics lists the partitions broker 3 left under-replicated",
                cluster.sessionTimeout().plus(SETTLE),
                () -> topics("--under-replicated-partitions"),
                ps -> ps.size() == PARTITIONS);
        assertTrue(
                under.stream()
                        .noneMatch(p -> p.isr().contains("3") || p.leader().equals("3")),
                under::toString);

        cluster.broker(3).restart();
        Poll.until(
                "no under-replicated partition once broker 3 is back",
                SETTLE,
                () -> topics("--under-replicated-partitions"),
                List::isEmpty);

        String elected = tool(
                        "org.apache.kafka.tools.LeaderElectionCommand",
                        "--bootstrap-server",
                        cluster.bootstrap(),
                        "--election-type",
                        "PREFERRED",
                        "--all-topic-partitions")
                .stdoutText();
        List<Described> after = Poll.until(
                "every partition led by its preferred replica",
                SETTLE,
                this::topics,
                ps -> ps.size() == PARTITIONS
                        && ps.stream().allMatch(p -> p.leader().equals(p.preferred())));
        assertTrue(after.stream().allMatch(p -> p.isr().split(",").length == 3), after::toString);
        assertTrue(
                elected.contains("Successfully completed leader election")
                        || elected.contains("Valid replica already elected"),
                elected);
    }
}
