package io.sluice.it.cluster;

import io.sluice.testkit.ChildProcessRunner;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * An Apache Kafka Connect distributed worker ({@code connect-distributed.sh}: {@code ConnectDistributed} from Maven
 * Central) in its own JVM, with its REST listener on a free loopback port and its output in a log file next to its
 * properties; stopped with SIGTERM as an operator stops it (offsets flushed) and restarted on the same settings.
 *
 * <p>Not thread-safe; one per worker, driven by the test thread.
 */
final class ConnectWorker implements AutoCloseable {
    static final String CONFIG_TOPIC = "sluice-connect-configs";
    static final String OFFSET_TOPIC = "sluice-connect-offsets";
    static final String STATUS_TOPIC = "sluice-connect-status";
    /** The worker's output, in the directory it is started in. */
    static final String LOG_FILE = "worker.log";
    /**
     * Loggers the worker's log keeps at INFO (the rest at WARN), so a failure's log tail shows what the worker's group,
     * the tasks and the sink's consumer did: joins, assignments, offset resets and commits.
     */
    private static final List<String> LOGGED_AT_INFO = List.of(
            "org.apache.kafka.connect.runtime.distributed.DistributedHerder",
            "org.apache.kafka.connect.runtime.WorkerSinkTask",
            "org.apache.kafka.connect.runtime.AbstractWorkerSourceTask",
            "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator",
            "org.apache.kafka.clients.consumer.internals.ConsumerRebalanceListenerInvoker",
            "org.apache.kafka.clients.consumer.internals.SubscriptionState");

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(10);

    private final Path properties;
    private final Path logFile;
    private final int restPort;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();
    private Process process;

    private ConnectWorker(Path properties, Path logFile, int restPort) {
        this.properties = properties;
        this.logFile = logFile;
        this.restPort = restPort;
    }

    /** Writes the worker's properties under {@code dir} (group {@code groupId}, RF-3 internal topics) and starts it. */
    static ConnectWorker start(Path dir, String bootstrap, String groupId) throws IOException {
        Files.createDirectories(dir);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Map<String, String> settings = new TreeMap<>();
        settings.put("bootstrap.servers", bootstrap);
        settings.put("group.id", groupId);
        settings.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        settings.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
        settings.put("config.storage.topic", CONFIG_TOPIC);
        settings.put("offset.storage.topic", OFFSET_TOPIC);
        settings.put("status.storage.topic", STATUS_TOPIC);
        settings.put("config.storage.replication.factor", "3");
        settings.put("offset.storage.replication.factor", "3");
        settings.put("status.storage.replication.factor", "3");
        settings.put("offset.storage.partitions", "5");
        settings.put("status.storage.partitions", "3");
        settings.put("offset.flush.interval.ms", "1000");
        settings.put("listeners", "http://127.0.0.1:" + port);
        settings.put("rest.advertised.host.name", "127.0.0.1");
        settings.put("plugin.discovery", "only_scan");
        Path properties = dir.resolve("worker.properties");
        Files.writeString(
                properties,
                settings.entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining("\n", "", "\n")),
                StandardCharsets.UTF_8);
        ConnectWorker worker = new ConnectWorker(properties, dir.resolve(LOG_FILE), port);
        worker.launch();
        return worker;
    }

    private void launch() throws IOException {
        List<String> command =
                ChildProcessRunner.javaMain("org.apache.kafka.connect.cli.ConnectDistributed", properties.toString());
        command.set(1, "-Xmx512m");
        command.addAll(
                2,
                LOGGED_AT_INFO.stream()
                        .map(logger -> "-Dorg.slf4j.simpleLogger.log." + logger + "=info")
                        .toList());
        Files.writeString(
                logFile,
                "=== start: " + String.join(" ", command) + "\n",
                StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
    }

    /** SIGTERM, as an operator stops a worker: it leaves its group and flushes its source offsets first. */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                throw new IllegalStateException(
                        "Connect worker did not stop within " + STOP_TIMEOUT + "; log " + logFile);
            }
        }
    }

    /** Stops the worker (SIGTERM) and starts it again on the same properties. */
    void restart() throws IOException, InterruptedException {
        stop();
        launch();
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The HTTP status and body of {@code GET path} on the worker's REST API; status 0 when it does not answer yet. */
    Answer get(String path) throws InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    /** {@code PUT path} with a JSON body, as {@code curl -X PUT -H 'Content-Type: application/json'} sends it. */
    Answer putJson(String path, String json) throws InterruptedException {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    private Answer send(HttpRequest.Builder request) throws InterruptedException {
        try {
            HttpResponse<String> response =
                    http.send(request.timeout(HTTP_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Answer(0, e.toString());
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + restPort + path);
    }

    /** The worker's output so far, for failure messages. */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    Path logFile() {
        return logFile;
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    /** An HTTP answer: status (0 when the worker did not answer) and body. */
    record Answer(int status, String body) {
        boolean ok() {
            return status / 100 == 2;
        }
    }
}
