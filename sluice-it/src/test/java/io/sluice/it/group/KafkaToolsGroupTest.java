package io.sluice.it.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.InProcessTool;
import io.sluice.testkit.ChildProcessRunner;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.SluiceBrokerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Kafka's own command-line tools (org.apache.kafka:kafka-tools 3.9) against Sluice: the console consumer reads
 * with a group what the producer tool wrote, and the consumer-groups tool lists, describes and resets the group's
 * offsets. kafka-tools 3.9 has no console producer (it lives in Kafka's core jar until 4.0), so its VerifiableProducer
 * writes the records. The consumer and group tools run in-process ({@link InProcessTool}); VerifiableProducer runs in
 * a JVM of its own, because it closes its producer only in a hook it gives the JVM's {@code Runtime} directly, which
 * an in-process run never calls: its producer would outlive the test, retrying the stopped broker.
 *
 * <p>Not thread-safe; JUnit runs it on one thread.
 */
class KafkaToolsGroupTest {
    private static final String TOPIC = "tools";
    private static final String GROUP = "console-group";
    private static final int PARTITIONS = 3;
    private static final int MESSAGES = 60;
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = GroupIt.startBroker(tempDir);
        GroupIt.createTopic(broker.bootstrap(), TOPIC, PARTITIONS);
    }

    @AfterAll
    static void stopBroker() {
        GroupIt.stopAndKeepLog(broker, KafkaToolsGroupTest.class);
    }

    private static ProcessResult tool(String mainClass, String... args) throws IOException {
        ProcessResult result = InProcessTool.run(mainClass, new byte[0], TOOL_TIMEOUT, args);
        assertTrue(result.succeeded(), () -> result.describe() + "\nbroker: " + broker.outputTail());
        return result;
    }

    private static Set<String> consoleConsume() throws IOException {
        ProcessResult consumed = tool(
                "org.apache.kafka.tools.consumer.ConsoleConsumer",
                "--bootstrap-server",
                broker.bootstrap(),
                "--topic",
                TOPIC,
                "--group",
                GROUP,
                "--from-beginning",
                "--max-messages",
                Integer.toString(MESSAGES),
                "--timeout-ms",
                "60000",
                "--consumer-property",
                "session.timeout.ms=" + GroupIt.SESSION_TIMEOUT_MS);
        return consumed.stdoutLines().stream().filter(l -> !l.isBlank()).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String groups(String... args) throws IOException {
        String[] full = new String[args.length + 2];
        full[0] = "--bootstrap-server";
        full[1] = broker.bootstrap();
        System.arraycopy(args, 0, full, 2, args.length);
        return tool("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", full)
                .stdoutText();
    }

    @Test
    void shouldConsumeWithGroupThenListDescribeAndResetIt() throws Exception {
        ProcessResult produced = ChildProcessRunner.run(
                ChildProcessRunner.javaMain(
                        "org.apache.kafka.tools.VerifiableProducer",
                        "--bootstrap-server",
                        broker.bootstrap(),
                        "--topic",
                        TOPIC,
                        "--max-messages",
                        Integer.toString(MESSAGES),
                        "--acks",
                        "-1"),
                new byte[0],
                TOOL_TIMEOUT);
        assertTrue(produced.succeeded(), () -> produced.describe() + "\nbroker: " + broker.outputTail());
        Set<String> expected =
                IntStream.range(0, MESSAGES).mapToObj(Integer::toString).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, consoleConsume(), "the console consumer reads every produced value");

        assertTrue(groups("--list").lines().anyMatch(GROUP::equals), "the group is listed");
        String described = groups("--describe", "--group", GROUP);
        long atEnd = described
                .lines()
                .filter(l -> l.startsWith(GROUP + " ") && l.contains(TOPIC))
                .count();
        assertEquals(PARTITIONS, atEnd, described);
        assertTrue(
                described.lines().filter(l -> l.startsWith(GROUP + " ")).allMatch(l -> {
                    String[] cols = l.trim().split("\\s+");
                    return cols[3].equals(cols[4]) && cols[5].equals("0");
                }),
                "current offset equals the log end, lag 0:\n" + described);

        // kafka-tools 3.9 prints the reset rows without line breaks between them: match rows anywhere.
        String reset = groups("--reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-earliest", "--execute");
        Matcher row = Pattern.compile(Pattern.quote(GROUP) + "\\s+" + TOPIC + "\\s+(\\d+)\\s+(\\d+)")
                .matcher(reset);
        Set<String> resetPartitions = new TreeSet<>();
        while (row.find()) {
            assertEquals("0", row.group(2), reset);
            resetPartitions.add(row.group(1));
        }
        assertEquals(Set.of("0", "1", "2"), resetPartitions, reset);
        assertEquals(expected, consoleConsume(), "after the reset the group reads everything again");

        String state = groups("--describe", "--group", GROUP, "--state");
        assertTrue(state.contains("Empty"), state);
        String deleted = groups("--delete", "--group", GROUP);
        assertTrue(deleted.contains("successful"), deleted);
        assertTrue(groups("--list").lines().noneMatch(GROUP::equals), "the group is gone");
    }
}
