package io.sluice.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code sluice} command in its own JVM, with this test's class path: stdout read line by line, stderr kept in a
 * file (a full stderr pipe would stall the child). The waits are guards against a hung child, not timing assertions.
 * Not thread-safe; one per started process.
 */
public final class CliProcess implements AutoCloseable {
    /** A guard against a hung child, not a timing assertion. */
    public static final long GUARD_SECONDS = 120;

    private final Process process;
    private final BufferedReader stdout;
    private final Path stderrFile;

    private CliProcess(Process process, Path stderrFile) {
        this.process = process;
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.stderrFile = stderrFile;
    }

    /** Starts {@code sluice ARGS...}; its stderr goes to {@code stderrFile}. */
    public static CliProcess start(Path stderrFile, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SluiceCli.class.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectError(stderrFile.toFile())
                .start();
        return new CliProcess(process, stderrFile);
    }

    /** The next stdout line, null at the end of stdout. */
    public String readLine() throws Exception {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return stdout.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return line.get(GUARD_SECONDS, TimeUnit.SECONDS);
    }

    /** What the process wrote to stderr so far. */
    public String stderr() {
        try {
            return Files.readString(stderrFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** Waits for the process to exit on its own and returns its exit code. */
    public int awaitExit() throws InterruptedException {
        if (!process.waitFor(GUARD_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("process did not exit; stderr: " + stderr());
        }
        return process.exitValue();
    }

    /** Sends SIGTERM, waits for the exit and returns its exit code. */
    public int terminate() throws InterruptedException {
        process.toHandle().destroy();
        return awaitExit();
    }

    /** Sends SIGKILL. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(GUARD_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
