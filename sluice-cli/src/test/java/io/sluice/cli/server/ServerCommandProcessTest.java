package io.sluice.cli.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.SluiceCli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice server} in its own JVM: the ready line, SIGTERM, exit codes. */
class ServerCommandProcessTest {
    private static final Pattern READY = Pattern.compile("Sluice broker (\\d+) started, listening on (\\S+):(\\d+)");
    /** A guard against a hung child, not a timing assertion. */
    private static final long GUARD_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void shouldPrintOneReadyLineServeAndExitZeroOnSigterm() throws Exception {
        Path data = dir.resolve("data");
        Process server = start("server", "--data-dir", data.toString(), "--listen", "127.0.0.1:0",
                "--override", "broker.id=5");
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String ready = stdout.readLine();
            Matcher matcher = READY.matcher(ready == null ? "" : ready);
            assertTrue(matcher.matches(), "ready line was: " + ready + "; stderr: " + stderrOf(server));
            assertEquals("5", matcher.group(1));
            assertEquals("127.0.0.1", matcher.group(2));
            try (Socket socket = new Socket(matcher.group(2), Integer.parseInt(matcher.group(3)))) {
                assertTrue(socket.isConnected());
            }

            server.toHandle().destroy();

            assertTrue(server.waitFor(GUARD_SECONDS, TimeUnit.SECONDS), "server did not stop after SIGTERM");
            assertEquals(0, server.exitValue(), "stderr: " + stderrOf(server));
            assertEquals(null, stdout.readLine(), "stdout must carry exactly the ready line");
            assertTrue(Files.isDirectory(data), "data directory " + data + " was not created");
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    void shouldExitTwoWithOneLineOnBadConfig() throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "log.segment.bytes=tiny\n");
        Process server = start("server", "--config", file.toString());
        try {
            assertTrue(server.waitFor(GUARD_SECONDS, TimeUnit.SECONDS));
            assertEquals(SluiceCli.EXIT_USAGE, server.exitValue());
            assertEquals(List.of("sluice server: Invalid value 'tiny' for configuration 'log.segment.bytes': "
                    + "expected a 32-bit integer"), lines(server.getErrorStream().readAllBytes()));
            assertEquals(List.of(), lines(server.getInputStream().readAllBytes()));
        } finally {
            server.destroyForcibly();
        }
    }

    private static Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SluiceCli.class.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
    }

    private static String stderrOf(Process process) {
        try {
            if (process.isAlive()) {
                return "(still running)";
            }
            return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static List<String> lines(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }
}
