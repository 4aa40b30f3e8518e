package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * Apache Kafka Connect 3.9 (Maven Central's {@code connect-runtime} and {@code connect-file}) as a distributed worker
 * in its own JVM against a three-broker cluster: the worker creates its compacted config, offset and status topics
 * (replication factor 3); a FileStreamSource connector copies a file into a topic and a FileStreamSink writes the
 * topic back out, line for line identical; the worker stopped and started again resumes from the source offsets it
 * stored in the cluster, so lines appended meanwhile arrive once and nothing is copied twice.
 *
 * <p>Not thread-safe; JUnit runs it on one thread.
 */
class KafkaConnectTest extends ClusterTestBase {
    private static final String TOPIC = "connect-lines";
    /** The group Connect's sink task consumes in: {@code connect-} and the connector's name. */
    private static final String SINK_GROUP = "connect-file-sink";

    private static final Duration CONNECT_SETTLE = Duration.ofSeconds(120);

    @Test
    void shouldCopyAFileThroughTheClusterAndResumeAfterARestart() throws Exception {
        Path source = work.resolve("source.txt");
        Path sink = work.resolve("sink.txt");
        Path connectDir = work.resolve("connect");
        List<String> lines = lines(0, 500);
        Files.write(source, lines, StandardCharsets.UTF_8);

        try (ConnectWorker worker = ConnectWorker.start(connectDir, cluster.bootstrap(), "sluice-connect");
                Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            awaitRestApi(worker);
            for (String internal :
                    List.of(ConnectWorker.CONFIG_TOPIC, ConnectWorker.OFFSET_TOPIC, ConnectWorker.STATUS_TOPIC)) {
                TopicDescription description = Poll.until(
                        "the worker created " + internal + " (log " + worker.logFile() + ")",
                        CONNECT_SETTLE,
                        () -> admin.describeTopics(List.of(internal))
                                .allTopicNames()
                                .get()
                                .get(internal),
                        d -> true);
                assertEquals(3, description.partitions().get(0).replicas().size(), internal + ": " + description);
                Config config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, internal)))
                        .all()
                        .get()
                        .values()
                        .iterator()
                        .next();
                assertEquals("compact", config.get("cleanup.policy").value(), internal + " cleanup.policy");
            }

            putConnector(
                    worker,
                    "file-source",
                    Map.of(
                            "connector.class",
                            "org.apache.kafka.connect.file.FileStreamSourceConnector",
                            "tasks.max",
                            "1",
                            "file",
                            source.toString(),
                            "topic",
                            TOPIC));
            putConnector(
                    worker,
                    "file-sink",
                    Map.of(
                            "connector.class",
                            "org.apache.kafka.connect.file.FileStreamSinkConnector",
                            "tasks.max",
                            "1",
                            "file",
                            sink.toString(),
                            "topics",
                            TOPIC));
            awaitSinkHolds(worker, admin, sink, lines);

            worker.restart();
            awaitRestApi(worker);
            List<String> more = lines(500, 800);
            Files.write(source, more, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            List<String> all = new ArrayList<>(lines);
            all.addAll(more);
            awaitSinkHolds(worker, admin, sink, all);
            worker.stop();
        } finally {
            // kept beside the brokers' logs (ClusterTestBase), whatever happened; a worker that never started has none
            Path workerLog = connectDir.resolve(ConnectWorker.LOG_FILE);
            if (Files.exists(workerLog)) {
                Files.createDirectories(ClusterClients.KEPT_LOGS);
                Files.copy(
                        workerLog,
                        ClusterClients.KEPT_LOGS.resolve(getClass().getSimpleName() + "-connect-worker.log"),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static List<String> lines(int from, int to) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < to; i++) {
            lines.add("line " + i + " of the file Connect copies through Sluice");
        }
        return lines;
    }

    private static void awaitRestApi(ConnectWorker worker) throws Exception {
        Poll.until(
                "the Connect worker's REST API answers (log " + worker.logFile() + ")",
                CONNECT_SETTLE,
                () -> worker.get("/connectors"),
                answer -> {
                    if (!worker.isAlive()) {
                        throw new AssertionError("the Connect worker exited:\n" + worker.logTail());
                    }
                    return answer.ok();
                });
    }

    /** {@code PUT /connectors/<name>/config}: creates the connector, retried while the worker is still joining. */
    private static void putConnector(ConnectWorker worker, String name, Map<String, String> config) throws Exception {
        StringBuilder json = new StringBuilder("{");
        config.forEach((k, v) -> json.append(json.length() > 1 ? "," : "")
                .append('"')
                .append(k)
                .append("\":\"")
                .append(v.replace("\\", "\\\\").replace("\"", "\\\""))
                .append('"'));
        json.append('}');
        ConnectWorker.Answer created = Poll.until(
                "connector " + name + " created",
                CONNECT_SETTLE,
                () -> worker.putJson("/connectors/" + name + "/config", json.toString()),
                ConnectWorker.Answer::ok);
        assertTrue(created.body().contains(name), created.body());
    }

    /** Waits until the sink file holds exactly {@code expected}, failing at once on a duplicated or foreign line. */
    private void awaitSinkHolds(ConnectWorker worker, Admin admin, Path sink, List<String> expected) throws Exception {
        List<String> written;
        try {
            written = awaitSinkLines(worker, sink, expected);
        } catch (AssertionError e) {
            // the worker's log goes with the test's directory: what it said is kept in the failure
            throw new AssertionError(
                    e.getMessage() + "\nsink connector status: "
                            + worker.get("/connectors/file-sink/status").body()
                            + "\nsource connector status: "
                            + worker.get("/connectors/file-source/status").body()
                            + "\nin the cluster: " + whereTheLinesAre(admin)
                            + "\nthe worker's log, last lines:\n" + worker.logTail()
                            + brokerTails(),
                    e);
        }
        assertEquals(expected, written);
    }

    private static List<String> awaitSinkLines(ConnectWorker worker, Path sink, List<String> expected)
            throws Exception {
        return Poll.until(
                "the sink file holds the " + expected.size() + " lines of the source (log " + worker.logFile() + ")",
                CONNECT_SETTLE,
                () -> Files.exists(sink) ? Files.readAllLines(sink, StandardCharsets.UTF_8) : List.<String>of(),
                got -> {
                    assertTrue(
                            got.size() <= expected.size() && got.equals(expected.subList(0, got.size())),
                            () -> "the sink file diverged from the source: " + got.size() + " lines; first "
                                    + "difference at " + firstDifference(got, expected));
                    return got.size() == expected.size();
                });
    }

    /**
     * Where the copied lines stand in the cluster, for a failure message: the topic's leader, ISR and end offset, and
     * the sink's group with its members and committed offsets; a question that fails says so in its place.
     */
    private static String whereTheLinesAre(Admin admin) {
        StringBuilder where = new StringBuilder();
        try {
            TopicDescription topic =
                    admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC);
            where.append(topic.partitions());
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            topic.partitions().forEach(p -> latest.put(new TopicPartition(TOPIC, p.partition()), OffsetSpec.latest()));
            where.append("; end offsets ")
                    .append(admin.listOffsets(latest).all().get());
        } catch (Exception e) {
            where.append("topic ").append(TOPIC).append(": ").append(e);
        }
        try {
            where.append("; group ")
                    .append(admin.describeConsumerGroups(List.of(SINK_GROUP))
                            .all()
                            .get()
                            .get(SINK_GROUP))
                    .append(", committed ")
                    .append(admin.listConsumerGroupOffsets(SINK_GROUP)
                            .partitionsToOffsetAndMetadata()
                            .get());
        } catch (Exception e) {
            where.append("; group ").append(SINK_GROUP).append(": ").append(e);
        }
        return where.toString();
    }

    /** Each broker's last printed lines, for a failure message. */
    private String brokerTails() {
        StringBuilder tails = new StringBuilder();
        for (int id : cluster.brokerIds()) {
            tails.append("\nbroker ")
                    .append(id)
                    .append(", last lines:\n")
                    .append(cluster.broker(id).outputTail());
        }
        return tails.toString();
    }

    private static int firstDifference(List<String> got, List<String> expected) {
        for (int i = 0; i < got.size(); i++) {
            if (i >= expected.size() || !got.get(i).equals(expected.get(i))) {
                return i;
            }
        }
        return got.size();
    }
}
