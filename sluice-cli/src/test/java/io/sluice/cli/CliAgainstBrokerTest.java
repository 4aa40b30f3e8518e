package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cli.consume.ConsumeCommand;
import io.sluice.cli.produce.ProduceCommand;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The console commands against a broker started in this JVM on an ephemeral port. */
class CliAgainstBrokerTest {

    @TempDir
    Path dataDir;

    private SluiceBroker broker;
    private String bootstrap;

    @BeforeEach
    void startBroker() throws Exception {
        broker = SluiceBroker.start(BrokerConfig.fromMap(Map.of(
                "log.dirs", dataDir.toString(),
                "listeners", "PLAINTEXT://127.0.0.1:0",
                "group.initial.rebalance.delay.ms", "0")));
        bootstrap = "127.0.0.1:" + broker.boundAddress().getPort();
    }

    @AfterEach
    void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void shouldCreateListDescribeAndDeleteTopics() {
        assertEquals(
                new CliResult(0, "Created topic orders.\n", ""),
                run(
                        "topic",
                        "create",
                        "orders",
                        "--partitions",
                        "3",
                        "--config",
                        "retention.ms=60000",
                        "-b",
                        bootstrap));
        assertEquals(0, run("topic", "create", "audit", "-b", bootstrap).exitCode());

        assertEquals(new CliResult(0, "audit\norders\n", ""), run("topic", "list", "-b", bootstrap));

        CliResult described = run("topic", "describe", "orders", "-b", bootstrap);
        assertEquals(0, described.exitCode(), described.err());
        List<String> lines = List.of(described.out().split("\n"));
        assertEquals(4, lines.size(), described.out());
        assertTrue(lines.get(0).startsWith("Topic: orders\tTopicId: "), lines.get(0));
        assertTrue(
                lines.get(0).contains("\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: retention.ms=60000"),
                lines.get(0));
        assertEquals("\tTopic: orders\tPartition: 2\tLeader: 0\tReplicas: 0\tIsr: 0", lines.get(3));

        assertEquals(
                new CliResult(0, "Deleted topic orders.\n", ""), run("topic", "delete", "orders", "-b", bootstrap));
        assertEquals(new CliResult(0, "audit\n", ""), run("topic", "list", "-b", bootstrap));
    }

    @Test
    void shouldRefuseInvalidTopicConfigWithOneLine() {
        CliResult result = run("topic", "create", "bad", "--config", "segment.bytes=tiny", "-b", bootstrap);
        assertEquals(SluiceCli.EXIT_FAILURE, result.exitCode());
        assertTrue(result.err().startsWith("sluice topic create: InvalidConfigurationException: "), result.err());
        assertTrue(result.err().contains("segment.bytes"), result.err());
        assertEquals(1, result.err().lines().count(), result.err());
    }

    @Test
    void shouldProduceLinesAndConsumeThemBackWithKeysAndHeaders() {
        assertEquals(
                0,
                run("topic", "create", "lines", "--partitions", "1", "-b", bootstrap)
                        .exitCode());
        for (String codec : List.of("none", "gzip", "snappy", "lz4", "zstd")) {
            String input = "k1:" + codec + " one\nk2:" + codec + " two:with colon\nno key " + codec + "\n";
            CliResult produced =
                    produce(input, "-t", "lines", "-K", ":", "-H", "codec=" + codec, "-z", codec, "-b", bootstrap);
            assertEquals(new CliResult(0, "", ""), produced, codec);
        }

        CliResult consumed = consume("-t", "lines", "-e", "-K", ":", "-b", bootstrap);
        List<String> expected = new ArrayList<>();
        for (String codec : List.of("none", "gzip", "snappy", "lz4", "zstd")) {
            expected.add("k1:" + codec + " one");
            expected.add("k2:" + codec + " two:with colon");
            expected.add(":no key " + codec);
        }
        assertEquals(0, consumed.exitCode(), consumed.err());
        assertEquals(String.join("\n", expected) + "\n", consumed.out());

        CliResult formatted =
                consume("-t", "lines", "-o", "-1", "-e", "-f", "%p/%o %k=%s [%h]\\n", "-Z", "-b", bootstrap);
        assertEquals(new CliResult(0, "0/14 NULL=no key zstd [codec=zstd]\n", ""), formatted);

        CliResult counted = consume("-t", "lines", "-o", "3", "-c", "2", "-b", bootstrap);
        assertEquals(new CliResult(0, "gzip one\ngzip two:with colon\n", ""), counted);

        CliResult byTimestamp = consume("-t", "lines", "-o", "s@0", "-c", "1", "-b", bootstrap);
        assertEquals(new CliResult(0, "none one\n", ""), byTimestamp);
        CliResult fromEnd = consume("-t", "lines", "-o", "end", "-e", "-b", bootstrap);
        assertEquals(new CliResult(0, "", ""), fromEnd);
    }

    @Test
    void shouldFailConsumeOfMissingTopicWithOneLine() {
        CliResult result = consume("-t", "absent", "-e", "-b", bootstrap);
        assertEquals(new CliResult(SluiceCli.EXIT_FAILURE, "", "consume: topic 'absent' does not exist\n"), result);
    }

    private static CliResult run(String... args) {
        return CliResult.run(args);
    }

    private static CliResult produce(String stdin, String... args) {
        ProduceCommand command = new ProduceCommand(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        return CliResult.execute(withErrorHandler(new CommandLine(command)), args);
    }

    private static CliResult consume(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CliResult result = CliResult.execute(withErrorHandler(new CommandLine(new ConsumeCommand(out))), args);
        return new CliResult(result.exitCode(), out.toString(StandardCharsets.UTF_8), result.err());
    }

    private static CommandLine withErrorHandler(CommandLine commandLine) {
        return commandLine.setExecutionExceptionHandler(SluiceCli.commandLine().getExecutionExceptionHandler());
    }
}
