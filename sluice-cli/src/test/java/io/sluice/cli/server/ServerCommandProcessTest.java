package io.sluice.cli.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CliProcess;
import io.sluice.cli.SluiceCli;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice server} in its own JVM: the ready line, SIGTERM, exit codes. */
class ServerCommandProcessTest {
    private static final Pattern READY = Pattern.compile("Sluice broker (\\d+) started, listening on (\\S+):(\\d+)");

    @TempDir
    Path dir;

    @Test
    void shouldPrintOneReadyLineServeAndExitZeroOnSigterm() throws Exception {
        Path data = dir.resolve("data");
        try (CliProcess server = CliProcess.start(
                dir.resolve("stderr"),
                "server",
                "--data-dir",
                data.toString(),
                "--listen",
                "127.0.0.1:0",
                "--override",
                "broker.id=5")) {
            String ready = server.readLine();
            Matcher matcher = READY.matcher(ready == null ? "" : ready);
            assertTrue(matcher.matches(), "ready line was: " + ready + "; stderr: " + server.stderr());
            assertEquals("5", matcher.group(1));
            assertEquals("127.0.0.1", matcher.group(2));
            try (Socket socket = new Socket(matcher.group(2), Integer.parseInt(matcher.group(3)))) {
                assertTrue(socket.isConnected());
            }

            assertEquals(0, server.terminate(), "stderr: " + server.stderr());
            assertNull(server.readLine(), "stdout must carry exactly the ready line");
            assertTrue(Files.isDirectory(data), "data directory " + data + " was not created");
        }
    }

    @Test
    void shouldExitTwoWithOneLineOnBadConfig() throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "log.segment.bytes=tiny\n");
        try (CliProcess server = CliProcess.start(dir.resolve("stderr"), "server", "--config", file.toString())) {
            assertEquals(SluiceCli.EXIT_USAGE, server.awaitExit());
            assertEquals(
                    List.of("sluice server: Invalid value 'tiny' for configuration 'log.segment.bytes': "
                            + "expected a 32-bit integer"),
                    server.stderr().lines().toList());
            assertNull(server.readLine());
        }
    }
}
