package io.sluice.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a short-lived command to completion with a deadline: feeds it stdin, drains stdout and stderr concurrently
 * (so a full pipe never deadlocks it) and kills it when the deadline passes.
 *
 * <p>Thread-safe; stateless.
 */
public final class ChildProcessRunner {

    /** Upper bound on captured output per stream, so a runaway child cannot exhaust the test heap. */
    public static final int MAX_CAPTURED_BYTES = 256 * 1024 * 1024;

    private ChildProcessRunner() {}

    /**
     * The command that runs {@code mainClass} in a new JVM with this JVM's class path (e.g. one of Apache Kafka's
     * command-line tools from the test class path), with a small heap and {@link SluiceCliDistribution#JVM_FLAGS}.
     */
    public static List<String> javaMain(String mainClass, String... args) {
        List<String> command = new java.util.ArrayList<>();
        command.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                .toString());
        command.add("-Xmx256m");
        command.addAll(SluiceCliDistribution.JVM_FLAGS);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }

    public static ProcessResult run(List<String> command, byte[] stdin, Duration timeout) throws IOException {
        Process process = new ProcessBuilder(command).start();
        LiveProcesses.remember(process);
        try {
            CompletableFuture<byte[]> stdout = drain(process.getInputStream(), "stdout");
            CompletableFuture<byte[]> stderr = drain(process.getErrorStream(), "stderr");
            CompletableFuture<Void> input = CompletableFuture.runAsync(() -> feed(process.getOutputStream(), stdin));
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                process.destroyForcibly();
                process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            input.cancel(true);
            byte[] out = await(stdout, timeout);
            byte[] err = await(stderr, timeout);
            return new ProcessResult(
                    List.copyOf(command),
                    exited ? process.exitValue() : -1,
                    !exited,
                    out,
                    new String(err, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command, e);
        } finally {
            process.destroyForcibly();
            LiveProcesses.forget(process);
        }
    }

    private static void feed(OutputStream in, byte[] stdin) {
        try (in) {
            in.write(stdin);
        } catch (IOException e) {
            // The child closed its stdin early (it exited or does not read): its exit code tells the story.
        }
    }

    private static CompletableFuture<byte[]> drain(InputStream stream, String name) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        Thread pump = new Thread(
                () -> {
                    try (stream) {
                        ByteArrayOutputStream captured = new ByteArrayOutputStream();
                        byte[] chunk = new byte[64 * 1024];
                        int read;
                        while ((read = stream.read(chunk)) != -1) {
                            if (captured.size() + read > MAX_CAPTURED_BYTES) {
                                throw new IOException(name + " exceeded " + MAX_CAPTURED_BYTES + " bytes");
                            }
                            captured.write(chunk, 0, read);
                        }
                        result.complete(captured.toByteArray());
                    } catch (IOException e) {
                        result.completeExceptionally(e);
                    }
                },
                "child-" + name);
        pump.setDaemon(true);
        pump.start();
        return result;
    }

    private static byte[] await(CompletableFuture<byte[]> output, Duration timeout) throws InterruptedException {
        try {
            return output.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new UncheckedIOException(new IOException("reading child output failed", e.getCause()));
        } catch (TimeoutException e) {
            throw new UncheckedIOException(new IOException("child output not closed within " + timeout, e));
        }
    }
}
