package io.sluice.cli.cluster;

import static io.sluice.cli.CliResult.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CliProcess;
import io.sluice.cli.CliResult;
import io.sluice.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice cluster status} against a cluster of real processes: {@code sluice zookeeper} and two
 * {@code sluice server}s pointed at it with a chroot; then one broker stops and its partitions go offline.
 */
class ClusterStatusProcessTest {
    private static final Pattern ZOOKEEPER_READY = Pattern.compile("ZooKeeper listening on (127\\.0\\.0\\.1:\\d+), .*");
    private static final Pattern BROKER_READY =
            Pattern.compile("Sluice broker \\d+ started, listening on (127\\.0\\.0\\.1:\\d+)");
    private static final Pattern CONTROLLER = Pattern.compile("Controller: (\\d+)\tEpoch: \\d+\tRegistered: yes");
    private static final int PARTITIONS = 6;

    @TempDir
    Path dir;

    @Test
    void shouldShowBrokersControllerAndPartitionCountsThenTheStoppedBrokersPartitionsOffline() throws Exception {
        try (CliProcess zookeeper = CliProcess.start(
                dir.resolve("zookeeper.err"),
                "zookeeper",
                "--port",
                "0",
                "--dir",
                dir.resolve("zk").toString())) {
            String connect = group(ZOOKEEPER_READY, zookeeper) + "/sluice/test";
            try (CliProcess seven = startBroker(7, "rack-a", connect);
                    CliProcess eight = startBroker(8, "rack-b", connect)) {
                String sevenAddress = group(BROKER_READY, seven);
                String eightAddress = group(BROKER_READY, eight);
                CliResult created =
                        run("topic", "create", "orders", "--partitions", "" + PARTITIONS, "-b", sevenAddress);
                assertEquals(
                        new CliResult(0, "Created topic orders.\n", ""),
                        created,
                        () -> "broker 7:\n" + seven.stderr() + "\nbroker 8:\n" + eight.stderr());

                CliResult status = run("cluster", "status", "--zookeeper", connect);

                assertEquals(0, status.exitCode(), status.err());
                assertEquals("", status.err());
                List<String> lines = status.out().lines().toList();
                assertEquals(6, lines.size(), status.out());
                assertTrue(lines.get(0).matches("ClusterId: [A-Za-z0-9_-]{22}"), lines.get(0));
                Matcher controller = CONTROLLER.matcher(lines.get(1));
                assertTrue(controller.matches(), lines.get(1));
                assertTrue(lines.get(2).matches("StateSeq: (\\d+)\tPublishedSeq: \\1"), lines.get(2));
                assertEquals(
                        "Topics: 1\tPartitions: " + PARTITIONS
                                + "\tOfflinePartitions: 0\tUnderReplicatedPartitions: 0\tLiveBrokers: 2\tReassigningPartitions: 0",
                        lines.get(3));
                assertEquals(
                        "Broker: 7\tEndpoint: " + sevenAddress + "\tRack: rack-a\tLive: yes\tRegistered: yes"
                                + "\tLeads: 3\tHosts: 3",
                        lines.get(4));
                assertEquals(
                        "Broker: 8\tEndpoint: " + eightAddress + "\tRack: rack-b\tLive: yes\tRegistered: yes"
                                + "\tLeads: 3\tHosts: 3",
                        lines.get(5));

                boolean stopSeven = !controller.group(1).equals("7");
                CliProcess stopped = stopSeven ? seven : eight;
                int stoppedId = stopSeven ? 7 : 8;
                assertEquals(0, stopped.terminate(), stopped.stderr());
                List<String> after = awaitStatusLine(
                        connect,
                        "Topics: 1\tPartitions: " + PARTITIONS
                                + "\tOfflinePartitions: 3\tUnderReplicatedPartitions: 0\tLiveBrokers: 1\tReassigningPartitions: 0");

                assertTrue(
                        after.contains("Broker: " + stoppedId + "\tEndpoint: -\tRack: -\tLive: no\tRegistered: no"
                                + "\tLeads: 0\tHosts: 3"),
                        String.join("\n", after));
                List<String> offline = after.stream()
                        .filter(line -> line.startsWith("OfflinePartition: "))
                        .toList();
                assertEquals(3, offline.size(), String.join("\n", after));
                for (String line : offline) {
                    assertTrue(line.matches("OfflinePartition: orders-[0-5]\tReplicas: " + stoppedId), line);
                }
            }
        }
    }

    private CliProcess startBroker(int id, String rack, String connect) throws Exception {
        return CliProcess.start(
                dir.resolve("broker-" + id + ".err"),
                "server",
                "--data-dir",
                dir.resolve("broker-" + id).toString(),
                "--listen",
                "127.0.0.1:0",
                "--override",
                "broker.id=" + id,
                "--override",
                "broker.rack=" + rack,
                "--override",
                "zookeeper.connect=" + connect);
    }

    /** Runs status until it prints {@code expected} (the controller publishes the change when it sees it). */
    private static List<String> awaitStatusLine(String connect, String expected) throws InterruptedException {
        return Poll.until(
                "cluster status shows '" + expected + "'",
                Duration.ofSeconds(CliProcess.GUARD_SECONDS),
                () -> run("cluster", "status", "--zookeeper", connect)
                        .out()
                        .lines()
                        .toList(),
                lines -> lines.contains(expected));
    }

    private static String group(Pattern ready, CliProcess process) throws Exception {
        String line = process.readLine();
        Matcher matcher = ready.matcher(line == null ? "" : line);
        assertTrue(matcher.matches(), "ready line was: " + line + "; stderr: " + process.stderr());
        return matcher.group(1);
    }
}
