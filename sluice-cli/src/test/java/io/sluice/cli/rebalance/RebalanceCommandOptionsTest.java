package io.sluice.cli.rebalance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cli.CliResult;
import io.sluice.cli.SluiceCli;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice cluster rebalance} refuses timeouts its waits cannot hold with exit 2 and a line naming the option,
 * before it asks the cluster anything; against a broker started in this JVM, where a run would otherwise go on.
 */
class RebalanceCommandOptionsTest {
    private static final String HUGE = Long.toString(Long.MAX_VALUE);

    @TempDir
    Path dataDir;

    private SluiceBroker broker;
    private String bootstrap;

    @BeforeEach
    void startBroker() throws Exception {
        broker = SluiceBroker.start(
                BrokerConfig.fromMap(Map.of("log.dirs", dataDir.toString(), "listeners", "PLAINTEXT://127.0.0.1:0")));
        bootstrap = "127.0.0.1:" + broker.boundAddress().getPort();
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    /** The run used to pass the check and end with no plan (exit 0), or overflow in a wave's deadline (exit 1). */
    @Test
    void shouldRefuseATimeoutBeyondAYearWithExitTwo() {
        CliResult result =
                CliResult.run("cluster", "rebalance", "-b", bootstrap, "--dry-run", "--timeout-seconds", HUGE);
        assertEquals(SluiceCli.EXIT_USAGE, result.exitCode(), result::toString);
        assertTrue(
                result.err().contains("--timeout-seconds must be at most 31536000 (a year), was " + HUGE),
                result::toString);
    }

    /** Converting it to milliseconds for the broker requests threw an ArithmeticException (exit 1). */
    @Test
    void shouldRefuseABrokerTimeoutBeyondAYearWithExitTwo() {
        CliResult result =
                CliResult.run("cluster", "rebalance", "-b", bootstrap, "--dry-run", "--broker-timeout-seconds", HUGE);
        assertEquals(SluiceCli.EXIT_USAGE, result.exitCode(), result::toString);
        assertTrue(
                result.err().contains("--broker-timeout-seconds must be at most 31536000 (a year), was " + HUGE),
                result::toString);
    }

    @Test
    void shouldAcceptAYear() {
        CliResult result = CliResult.run(
                "cluster",
                "rebalance",
                "-b",
                bootstrap,
                "--dry-run",
                "--timeout-seconds",
                Long.toString(RebalanceCommand.MAX_TIMEOUT_SECONDS),
                "--broker-timeout-seconds",
                Long.toString(RebalanceCommand.MAX_TIMEOUT_SECONDS));
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.out().contains("Rebalance plan: 0 partition move(s)"), result::toString);
    }
}
