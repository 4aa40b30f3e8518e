package io.sluice.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs librdkafka's {@code kcat} (Debian package {@code kcat}) as a producer or consumer against a broker.
 *
 * <p>Immutable; thread-safe.
 */
public final class Kcat {

    /** What tests pass to {@code Assumptions.assumeTrue(Kcat.isInstalled(), Kcat.NOT_INSTALLED)}. */
    public static final String NOT_INSTALLED =
            "kcat is not installed (no executable 'kcat' on PATH); install it with: apt-get install -y kcat";
    /** Deadline for one kcat run; a run that needs longer is a hang. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    static final String EXECUTABLE = "kcat";
    /** Separates key and value in produced input and consumed output lines. */
    public static final String KEY_DELIMITER = ":";

    private final String bootstrap;

    public Kcat(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** True if an executable {@code kcat} is on the PATH. */
    public static boolean isInstalled() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, EXECUTABLE);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Produces one record per line of {@code keyValueLines} ({@code key:value}) to {@code topic}, compressed with
     * {@code codec} (none, gzip, snappy, lz4, zstd), waiting for all acknowledgements ({@code acks=all}).
     */
    public ProcessResult produce(String topic, String codec, List<String> keyValueLines) throws IOException {
        StringBuilder input = new StringBuilder();
        for (String line : keyValueLines) {
            input.append(line).append('\n');
        }
        return run(
                input.toString().getBytes(StandardCharsets.UTF_8),
                "-P",
                "-t",
                topic,
                "-z",
                codec,
                "-K",
                KEY_DELIMITER,
                "-X",
                "acks=all");
    }

    /**
     * Consumes {@code partition} of {@code topic} from the beginning until its end ({@code -e}), printing one
     * {@code key:value} line per record.
     */
    public ProcessResult consumeAll(String topic, int partition) throws IOException {
        return run(
                new byte[0],
                "-C",
                "-t",
                topic,
                "-p",
                Integer.toString(partition),
                "-o",
                "beginning",
                "-e",
                "-q",
                "-f",
                "%k" + KEY_DELIMITER + "%s\\n");
    }

    /** Runs kcat with {@code -b <bootstrap>} and {@code args}, feeding {@code stdin}. */
    public ProcessResult run(byte[] stdin, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(EXECUTABLE);
        command.add("-b");
        command.add(bootstrap);
        command.addAll(List.of(args));
        return ChildProcessRunner.run(command, stdin, DEFAULT_TIMEOUT);
    }
}
