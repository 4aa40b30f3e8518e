package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SluiceBrokerProcessTest {

    /** Bound on how long the kernel takes to show a delivered SIGSTOP/SIGCONT in the process state. */
    private static final Duration SIGNAL_SEEN = Duration.ofSeconds(30);

    @TempDir
    Path work;

    private SluiceCliDistribution distribution;

    @BeforeEach
    void packageFakeBroker() throws IOException, URISyntaxException {
        distribution = FakeBrokerDistribution.packageInto(work.resolve("cli"));
    }

    @Test
    void shouldParsePortFromReadyLineAndAcceptConnections() throws Exception {
        try (SluiceBrokerProcess broker = SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of())) {
            assertEquals("7", broker.brokerId());
            assertEquals("127.0.0.1:" + broker.port(), broker.bootstrap());
            try (Socket socket = new Socket("127.0.0.1", broker.port())) {
                assertTrue(socket.isConnected());
            }
            assertTrue(Files.isDirectory(work.resolve("data")), "data dir is created");
            assertTrue(broker.outputTail().contains("some startup chatter"), broker.outputTail());
        }
    }

    @Test
    void shouldStopGracefullyOnSigtermAndKeepTheLog() throws Exception {
        try (SluiceBrokerProcess broker = SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of())) {
            assertTrue(broker.stop(), "exited by itself after SIGTERM");
            assertFalse(broker.isAlive());
            String log = Files.readString(broker.logFile());
            assertTrue(
                    log.contains("fake broker stopping"),
                    "shutdown hook ran, so the signal was SIGTERM; exit " + broker.exitCode() + ":\n" + log);
            assertEquals(work.resolve("data-broker.log"), broker.logFile());
        }
    }

    @Test
    void shouldKillWithoutRunningShutdownHooks() throws Exception {
        try (SluiceBrokerProcess broker = SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of())) {
            broker.kill9();
            assertFalse(broker.isAlive());
            assertEquals(137, broker.exitCode(), "128 + SIGKILL(9)");
            String log = Files.readString(broker.logFile());
            assertFalse(log.contains("fake broker stopping"));
            assertTrue(log.contains("SIGKILL to pid"), "the log marks the kill:\n" + log);
        }
    }

    @Test
    void shouldFreezeOnPauseAndContinueOnResume() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "process states are read from Linux /proc");
        try (SluiceBrokerProcess broker = SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of())) {
            broker.pause();
            assertTrue(broker.isPaused());
            assertEquals(
                    'T',
                    Poll.until(
                            "pid " + broker.pid() + " stopped",
                            SIGNAL_SEEN,
                            () -> processState(broker.pid()),
                            state -> state == 'T'));
            broker.resume();
            assertFalse(broker.isPaused());
            Poll.until(
                    "pid " + broker.pid() + " running again",
                    SIGNAL_SEEN,
                    () -> processState(broker.pid()),
                    state -> state != 'T');
            assertTrue(Files.readString(broker.logFile()).contains("sent SIGSTOP"), "the log shows the pause");
        }
    }

    @Test
    void shouldResumeAPausedBrokerSoThatStopIsStillClean() throws Exception {
        try (SluiceBrokerProcess broker = SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of())) {
            broker.pause();
            assertTrue(broker.stop(), "exited by itself after SIGTERM");
            assertFalse(broker.isPaused());
            assertTrue(Files.readString(broker.logFile()).contains("fake broker stopping"), broker.outputTail());
        }
    }

    @Test
    void shouldStopAndCloseCleanlyAndAgainWithoutThrowing() throws Exception {
        SluiceBrokerProcess broker = SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of());
        broker.stopAndClose();
        assertFalse(broker.isAlive());
        assertTrue(Files.readString(broker.logFile()).contains("fake broker stopping"), "stopped with SIGTERM");
        broker.stopAndClose();
        assertFalse(broker.isAlive());
    }

    @Test
    void shouldKillAPausedBroker() throws Exception {
        try (SluiceBrokerProcess broker = SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of())) {
            broker.pause();
            broker.kill9();
            assertFalse(broker.isAlive());
            assertFalse(broker.isPaused());
            assertEquals(137, broker.exitCode(), "128 + SIGKILL(9)");
        }
    }

    /** The state letter of {@code /proc/<pid>/stat}: the field after the parenthesised command name. */
    private static char processState(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    @Test
    void shouldRestartOnTheSameDataDirWithANewProcess() throws Exception {
        try (SluiceBrokerProcess broker = SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of())) {
            long firstPid = broker.pid();
            broker.kill9();
            broker.restart();
            assertTrue(broker.isAlive());
            assertTrue(firstPid != broker.pid(), "a new process runs");
            try (Socket socket = new Socket("127.0.0.1", broker.port())) {
                assertTrue(socket.isConnected());
            }
            assertTrue(Files.readString(broker.logFile()).contains("start #2"));
        }
    }

    @Test
    void shouldFailWithExitCodeAndOutputWhenBrokerDiesBeforeReady() {
        IOException failure = assertThrows(
                IOException.class,
                () -> SluiceBrokerProcess.start(distribution, work.resolve("data"), List.of("fake.fail=true")));
        assertTrue(
                failure.getMessage().contains("exit code " + FakeBrokerMain.FAILURE_EXIT_CODE), failure.getMessage());
        assertTrue(failure.getMessage().contains("refusing to start"), failure.getMessage());
    }

    @Test
    void shouldGiveUpAfterTheReadyTimeoutGiven() {
        IOException failure = assertThrows(
                IOException.class,
                () -> SluiceBrokerProcess.start(
                        distribution, work.resolve("data"), List.of("fake.silent=true"), Duration.ofSeconds(1)));
        assertTrue(failure.getMessage().contains("no ready line within PT1S"), failure.getMessage());
    }

    @Test
    void shouldNameMissingJarWhenCliIsNotBuilt() {
        SluiceCliDistribution missing = new SluiceCliDistribution(work.resolve("nowhere"));
        IllegalStateException failure = assertThrows(
                IllegalStateException.class, () -> SluiceBrokerProcess.start(missing, work.resolve("data"), List.of()));
        assertTrue(failure.getMessage().contains(SluiceCliDistribution.CLI_JAR), failure.getMessage());
    }

    @Test
    void shouldRefuseOverrideWithoutEquals() {
        assertThrows(
                IllegalArgumentException.class,
                () -> distribution.serverCommand(work, "127.0.0.1:0", List.of("no-equals-sign")));
    }
}
