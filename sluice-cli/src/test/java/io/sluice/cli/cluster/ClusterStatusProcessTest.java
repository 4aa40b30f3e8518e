package io.sluice.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CliProcess;
import io.sluice.cli.SluiceCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice cluster status} against a cluster of real processes: {@code sluice zookeeper} and a
 * {@code sluice server} pointed at it with a chroot.
 */
class ClusterStatusProcessTest {
    private static final Pattern ZOOKEEPER_READY = Pattern.compile("ZooKeeper listening on (127\\.0\\.0\\.1:\\d+), .*");
    private static final Pattern BROKER_READY = Pattern.compile("Sluice broker 7 started, listening on (127\\.0\\.0\\.1:\\d+)");
    private static final int PARTITIONS = 6;

    @TempDir
    Path dir;

    @Test
    void shouldShowBrokerControllerAndPartitionCountsWithoutOfflinePartitions() throws Exception {
        try (CliProcess zookeeper = CliProcess.start(dir.resolve("zookeeper.err"), "zookeeper", "--port", "0",
                "--dir", dir.resolve("zk").toString())) {
            String zookeeperAddress = group(ZOOKEEPER_READY, zookeeper);
            String connect = zookeeperAddress + "/sluice/test";
            try (CliProcess broker = CliProcess.start(dir.resolve("broker.err"), "server",
                    "--data-dir", dir.resolve("broker-7").toString(), "--listen", "127.0.0.1:0",
                    "--override", "broker.id=7", "--override", "broker.rack=rack-a",
                    "--override", "zookeeper.connect=" + connect)) {
                String bootstrap = group(BROKER_READY, broker);
                assertEquals(new Result(0, "Created topic orders.\n", ""),
                        run("topic", "create", "orders", "--partitions", "" + PARTITIONS, "-b", bootstrap));

                Result status = run("cluster", "status", "--zookeeper", connect);

                assertEquals(0, status.exitCode(), status.err());
                assertEquals("", status.err());
                List<String> lines = status.out().lines().toList();
                assertEquals(5, lines.size(), status.out());
                assertTrue(lines.get(0).matches("ClusterId: [A-Za-z0-9_-]{22}"), lines.get(0));
                assertTrue(lines.get(1).matches("Controller: 7\tEpoch: \\d+\tRegistered: yes"), lines.get(1));
                assertTrue(lines.get(2).matches("StateSeq: (\\d+)\tPublishedSeq: \\1"), lines.get(2));
                assertEquals("Topics: 1\tPartitions: " + PARTITIONS + "\tOfflinePartitions: 0\tLiveBrokers: 1",
                        lines.get(3));
                assertEquals("Broker: 7\tEndpoint: " + bootstrap + "\tRack: rack-a\tLive: yes\tRegistered: yes"
                        + "\tLeads: " + PARTITIONS + "\tHosts: " + PARTITIONS, lines.get(4));
            }
        }
    }

    private static String group(Pattern ready, CliProcess process) throws Exception {
        String line = process.readLine();
        Matcher matcher = ready.matcher(line == null ? "" : line);
        assertTrue(matcher.matches(), "ready line was: " + line + "; stderr: " + process.stderr());
        return matcher.group(1);
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = SluiceCli.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    record Result(int exitCode, String out, String err) {
    }
}
