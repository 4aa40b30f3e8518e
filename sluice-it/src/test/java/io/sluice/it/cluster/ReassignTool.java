package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.InProcessTool;
import io.sluice.testkit.ProcessResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Apache Kafka 3.9's {@code kafka-reassign-partitions.sh} ({@code ReassignPartitionsCommand} from Maven Central's
 * kafka-tools), each run in-process against a cluster's bootstrap address, with the reassignment JSON written to
 * the test's directory.
 *
 * <p>Not thread-safe; one per test.
 */
final class ReassignTool {
    private static final String MAIN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final Supplier<String> bootstrap;
    private final Path json;

    /**
     * @param bootstrap the brokers to reach, asked anew for each run (a paused broker must not be among them)
     * @param targets   partition of {@code topic} → target replicas, in preference order
     */
    ReassignTool(Supplier<String> bootstrap, Path dir, String topic, Map<Integer, List<Integer>> targets)
            throws IOException {
        this.bootstrap = bootstrap;
        this.json = dir.resolve("reassignment-" + topic + ".json");
        String partitions = targets.entrySet().stream()
                .map(e -> "{\"topic\":\"" + topic + "\",\"partition\":" + e.getKey() + ",\"replicas\":" + e.getValue()
                        + "}")
                .collect(Collectors.joining(","));
        Files.writeString(json, "{\"version\":1,\"partitions\":[" + partitions + "]}", StandardCharsets.UTF_8);
    }

    Path jsonFile() {
        return json;
    }

    String execute(String... extra) throws IOException {
        return run("--execute", extra);
    }

    String verify(String... extra) throws IOException {
        return run("--verify", extra);
    }

    String cancel(String... extra) throws IOException {
        return run("--cancel", extra);
    }

    String list() throws IOException {
        return succeeded(List.of("--bootstrap-server", bootstrap.get(), "--list"));
    }

    private String run(String action, String... extra) throws IOException {
        List<String> args = new ArrayList<>(
                List.of("--bootstrap-server", bootstrap.get(), action, "--reassignment-json-file", json.toString()));
        args.addAll(List.of(extra));
        return succeeded(args);
    }

    private static String succeeded(List<String> args) throws IOException {
        ProcessResult result = InProcessTool.run(MAIN, new byte[0], TIMEOUT, args.toArray(new String[0]));
        assertTrue(result.succeeded(), result::describe);
        return result.stdoutText();
    }
}
