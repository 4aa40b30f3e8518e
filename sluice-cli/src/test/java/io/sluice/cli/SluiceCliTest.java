package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SluiceCliTest {

    @Test
    void shouldRefuseBadConfigWithOneLineNamingKeyAndExitTwo() {
        CliResult result = run("server", "--override", "num.partitions=many");
        assertEquals(SluiceCli.EXIT_USAGE, result.exitCode());
        assertEquals(
                "sluice server: Invalid value 'many' for configuration 'num.partitions': expected a 32-bit integer\n",
                result.err());
        assertEquals("", result.out());
    }

    @Test
    void shouldRefuseUnsupportedListenerProtocol() {
        CliResult result = run(
                "server",
                "--override",
                "listeners=X://127.0.0.1:9093",
                "--override",
                "listener.security.protocol.map=X:KERBEROS");
        assertEquals(SluiceCli.EXIT_USAGE, result.exitCode());
        assertTrue(result.err().contains("'listeners'") && result.err().contains("KERBEROS"), result.err());
    }

    @Test
    void shouldRefuseATlsListenerWithoutKeyStore() {
        CliResult result = run("server", "--override", "listeners=SSL://127.0.0.1:9093");
        assertEquals(SluiceCli.EXIT_USAGE, result.exitCode());
        assertTrue(result.err().contains("'listener.name.ssl.ssl.keystore.location'"), result.err());
    }

    @Test
    void shouldRefuseMalformedOverride() {
        CliResult result = run("server", "--override", "justakey");
        assertEquals(SluiceCli.EXIT_USAGE, result.exitCode());
        assertEquals("sluice server: --override expects KEY=VALUE, got 'justakey'\n", result.err());
    }

    @Test
    void shouldExitTwoOnUsageErrors() {
        assertEquals(SluiceCli.EXIT_USAGE, run().exitCode());
        assertEquals(SluiceCli.EXIT_USAGE, run("nosuchcommand").exitCode());
        assertEquals(SluiceCli.EXIT_USAGE, run("topic").exitCode());
        assertEquals(SluiceCli.EXIT_USAGE, run("produce").exitCode());
        assertEquals(
                SluiceCli.EXIT_USAGE,
                run("consume", "-t", "x", "-c", "notanumber").exitCode());
    }

    /**
     * Option values out of range are usage errors (exit 2) like values that are not numbers, refused before any
     * connection: --max-concurrent-moves 0 exited 1, --timeout-seconds 0 connected and then started no move, and
     * --interval-ms 0 polled the cluster without pause.
     */
    @Test
    void shouldRefuseOutOfRangeRebalanceAndMovesOptionsAsUsageErrors() {
        String[] unreachable = {"-b", "127.0.0.1:1", "-X", "default.api.timeout.ms=1000", "-X", "request.timeout.ms=500"
        };
        CliResult zeroMoves = run(with(unreachable, "cluster", "rebalance", "--max-concurrent-moves", "0"));
        assertEquals(SluiceCli.EXIT_USAGE, zeroMoves.exitCode(), zeroMoves.err());
        assertTrue(zeroMoves.err().contains("--max-concurrent-moves must be at least 1, was 0"), zeroMoves.err());
        CliResult zeroTimeout = run(with(unreachable, "cluster", "rebalance", "--timeout-seconds", "0"));
        assertEquals(SluiceCli.EXIT_USAGE, zeroTimeout.exitCode(), zeroTimeout.err());
        assertTrue(zeroTimeout.err().contains("--timeout-seconds must be at least 1, was 0"), zeroTimeout.err());
        CliResult zeroInterval = run(with(unreachable, "partition", "moves", "--watch", "--interval-ms", "0"));
        assertEquals(SluiceCli.EXIT_USAGE, zeroInterval.exitCode(), zeroInterval.err());
        assertTrue(zeroInterval.err().contains("--interval-ms must be at least 1, was 0"), zeroInterval.err());
        CliResult zeroBrokerTimeout = run(with(unreachable, "cluster", "rebalance", "--broker-timeout-seconds", "0"));
        assertEquals(SluiceCli.EXIT_USAGE, zeroBrokerTimeout.exitCode(), zeroBrokerTimeout.err());
        assertTrue(
                zeroBrokerTimeout.err().contains("--broker-timeout-seconds must be at least 1, was 0"),
                zeroBrokerTimeout.err());
    }

    /**
     * A negative --progress-interval-ms of {@code cluster status} is a usage error before ZooKeeper is asked: it was
     * checked only once the cluster had been read, so with ZooKeeper unreachable it exited 1 (unreachable) instead.
     */
    @Test
    void shouldRefuseANegativeProgressIntervalBeforeAskingZooKeeper() {
        CliResult negative = run(
                "cluster",
                "status",
                "--zookeeper",
                "127.0.0.1:1",
                "--timeout-ms",
                "200",
                "--wait-ms",
                "0",
                "--progress-interval-ms",
                "-1");
        assertEquals(SluiceCli.EXIT_USAGE, negative.exitCode(), negative.err());
        assertTrue(negative.err().contains("--progress-interval-ms must be >= 0, got -1"), negative.err());
    }

    private static String[] with(String[] tail, String... head) {
        String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    @Test
    void shouldAcceptNegativeRelativeOffsetAsOptionValue() {
        CommandLine.ParseResult parsed = SluiceCli.commandLine().parseArgs("consume", "-t", "x", "-o", "-10", "-e");
        CommandLine.ParseResult consume = parsed.subcommand();
        assertEquals("-10", consume.matchedOptionValue("-o", "beginning"));
        assertTrue(consume.hasMatchedOption("-e"));
    }

    @Test
    void shouldShowRootCauseMessageOnOneLine() {
        assertEquals(
                "TimeoutException: no\nnode".replace('\n', ' '),
                SluiceCli.oneLine(
                        new ExecutionException(new org.apache.kafka.common.errors.TimeoutException("no\nnode"))));
        assertEquals("NullPointerException", SluiceCli.oneLine(new NullPointerException()));
        assertEquals(
                "KafkaException: Failed to create new KafkaAdminClient: default.api.timeout.ms too small",
                SluiceCli.oneLine(new org.apache.kafka.common.KafkaException(
                        "Failed to create new KafkaAdminClient",
                        new org.apache.kafka.common.config.ConfigException("default.api.timeout.ms too small"))));
        assertEquals(
                "topic 'x' does not exist", SluiceCli.oneLine(new CommandFailedException("topic 'x' does not exist")));
    }

    private static CliResult run(String... args) {
        return CliResult.run(args);
    }
}
