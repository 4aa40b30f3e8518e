package io.sluice.cli.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CliProcess;
import io.sluice.cli.CliResult;
import io.sluice.cli.SluiceCli;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.zk.ClusterConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice zookeeper} in its own JVM: the ready line, a client session, SIGTERM, data kept across restarts. */
class ZooKeeperCommandProcessTest {
    private static final Pattern READY = Pattern.compile("ZooKeeper listening on (127\\.0\\.0\\.1:\\d+), data in (.+)");

    @TempDir
    Path dir;

    @Test
    void shouldServeClientsUntilSigtermAndKeepItsDataForTheNextStart() throws Exception {
        Path data = dir.resolve("zk");
        byte[] written = "written before the restart".getBytes(StandardCharsets.UTF_8);
        try (CliProcess zookeeper = startZooKeeper(data)) {
            String connect = connectStringOf(zookeeper, data);
            try (ClusterConnection connection = ClusterConnection.open(connect + "/sluice", ClusterConfig.defaults())) {
                connection.client().create().creatingParentsIfNeeded().forPath("/probe/znode", written);
            }
            assertEquals(0, zookeeper.terminate(), "stderr: " + zookeeper.stderr());
            assertNull(zookeeper.readLine(), "stdout must carry exactly the ready line");
        }
        assertTrue(Files.isDirectory(data.resolve("version-2")), "no ZooKeeper data under " + data);

        try (CliProcess restarted = startZooKeeper(data)) {
            String connect = connectStringOf(restarted, data);
            try (ClusterConnection connection = ClusterConnection.open(connect + "/sluice", ClusterConfig.defaults())) {
                assertArrayEquals(written, connection.client().getData().forPath("/probe/znode"));
            }
            assertEquals(0, restarted.terminate(), "stderr: " + restarted.stderr());
        }
    }

    @Test
    void shouldRefusePortOutsideRangeWithOneLine() {
        CliResult result = CliResult.run("zookeeper", "--port", "65536", "--dir", dir.toString());

        assertEquals(
                new CliResult(SluiceCli.EXIT_USAGE, "", "sluice zookeeper: --port must be in 0..65535, got 65536\n"),
                result);
    }

    @Test
    void shouldExitOneWithOneLineWhenThePortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();

            CliResult result = CliResult.run("zookeeper", "--port", "" + port, "--dir", dir.toString());

            assertEquals(SluiceCli.EXIT_FAILURE, result.exitCode());
            assertEquals("", result.out());
            assertTrue(
                    result.err().startsWith("sluice zookeeper: cannot listen on 127.0.0.1:" + port + " ("),
                    result.err());
            assertEquals(1, result.err().lines().count(), result.err());
        }
    }

    private CliProcess startZooKeeper(Path data) throws Exception {
        return CliProcess.start(
                dir.resolve("stderr-" + System.nanoTime()), "zookeeper", "--port", "0", "--dir", data.toString());
    }

    private static String connectStringOf(CliProcess zookeeper, Path data) throws Exception {
        String ready = zookeeper.readLine();
        Matcher matcher = READY.matcher(ready == null ? "" : ready);
        assertTrue(matcher.matches(), "ready line was: " + ready + "; stderr: " + zookeeper.stderr());
        assertEquals(data.toString(), matcher.group(2));
        return matcher.group(1);
    }
}
