package io.sluice.cli.cluster;

import static io.sluice.cli.CliResult.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cli.CliResult;
import io.sluice.cli.SluiceCli;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.zk.ClusterConnection;
import io.sluice.cluster.zk.EmbeddedZooKeeper;
import io.sluice.cluster.zk.ZkPaths;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice cluster status} in this JVM: failures with one line, and a broker's embedded ZooKeeper found. */
class ClusterStatusCommandTest {

    @TempDir
    Path dir;

    /** The help's output format names every field of the totals line; it left out ReassigningPartitions. */
    @Test
    void shouldDocumentEveryFieldOfTheTotalsLine() {
        CliResult help = run("cluster", "status", "--help");
        assertEquals(0, help.exitCode(), help.err());
        String unwrapped = help.out().replaceAll("\\R\\s*", " ");
        assertTrue(unwrapped.contains("\\tLiveBrokers: <n>\\tReassigningPartitions: <n>"), help.out());
    }

    @Test
    void shouldExitOneWithOneLineWhenZooKeeperIsUnreachable() throws Exception {
        String closed = "127.0.0.1:" + closedPort();

        CliResult result = run("cluster", "status", "--zookeeper", closed, "--timeout-ms", "500");

        assertEquals(failure("ZooKeeper '" + closed + "' unreachable: no server answered within 500 ms"), result);
    }

    @Test
    void shouldSayThereIsNoClusterWithoutCreatingTheChroot() throws Exception {
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(dir.resolve("zk"))) {
            String connect = zookeeper.connectString();

            CliResult bare = run("cluster", "status", "--zookeeper", connect);
            CliResult missingChroot = run("cluster", "status", "--zookeeper", connect + "/nosuch/cluster");

            assertEquals(
                    failure("no Sluice cluster in ZooKeeper '" + connect
                            + "': /cluster/id and /cluster/state do not exist (wrong address or chroot?)"),
                    bare);
            assertEquals(
                    failure("no Sluice cluster in ZooKeeper '" + connect
                            + "/nosuch/cluster': chroot /nosuch/cluster does not exist"),
                    missingChroot);
            try (ClusterConnection look = ClusterConnection.open(connect, ClusterConfig.defaults())) {
                assertNull(look.client().checkExists().forPath("/nosuch"), "status must not write to ZooKeeper");
            }
        }
    }

    @Test
    void shouldSayWhenNoStateWasPublishedWithinTheWait() throws Exception {
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(dir.resolve("zk"))) {
            String connect = zookeeper.connectString() + "/c1";
            try (ClusterConnection setup = ClusterConnection.open(connect, ClusterConfig.defaults())) {
                setup.client()
                        .create()
                        .creatingParentsIfNeeded()
                        .forPath(ZkPaths.CLUSTER_ID, "cid".getBytes(StandardCharsets.UTF_8));
            }

            CliResult result = run("cluster", "status", "--zookeeper", connect, "--wait-ms", "0");

            assertEquals(
                    failure("the cluster state in ZooKeeper '" + connect
                            + "' stayed empty for 0 ms (no controller has published it yet)"),
                    result);
        }
    }

    @Test
    void shouldFailWithOneLineNamingTheZnodeWhenControllerOrStateBytesAreGarbage() throws Exception {
        try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(dir.resolve("zk"))) {
            String badController = zookeeper.connectString() + "/bad-controller";
            String badHead = zookeeper.connectString() + "/bad-head";
            try (ClusterConnection setup = ClusterConnection.open(badController, ClusterConfig.defaults())) {
                setup.client().create().creatingParentsIfNeeded().forPath(ZkPaths.CONTROLLER_EPOCH, new byte[] {1, 2, 3
                });
            }
            try (ClusterConnection setup = ClusterConnection.open(badHead, ClusterConfig.defaults())) {
                setup.client().create().creatingParentsIfNeeded().forPath(ZkPaths.STATE_HEAD, new byte[] {(byte) 0xff});
            }

            CliResult controller = run("cluster", "status", "--zookeeper", badController);
            CliResult head = run("cluster", "status", "--zookeeper", badHead);

            assertEquals(failure("CorruptStateException: /controller_epoch: 3 bytes, expected 11"), controller);
            assertEquals(SluiceCli.EXIT_FAILURE, head.exitCode());
            assertEquals("", head.out());
            assertTrue(
                    head.err().startsWith("sluice cluster status: CorruptStateException: /cluster/state/head: "),
                    head.err());
            assertEquals(1, head.err().lines().count(), head.err());
        }
    }

    @Test
    void shouldFindTheEmbeddedZooKeeperOfABrokerThroughItsConfigFile() throws Exception {
        Path data = dir.resolve("data");
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "log.dirs=" + data + "\nlisteners=PLAINTEXT://127.0.0.1:0\n");
        try (SluiceBroker broker = SluiceBroker.start(
                BrokerConfig.fromMap(Map.of("log.dirs", data.toString(), "listeners", "PLAINTEXT://127.0.0.1:0")))) {
            String bootstrap = "127.0.0.1:" + broker.boundAddress().getPort();
            assertEquals(
                    0,
                    run("topic", "create", "events", "--partitions", "3", "-b", bootstrap)
                            .exitCode());

            CliResult status = run("cluster", "status", "--config", config.toString());

            assertEquals(0, status.exitCode(), status.err());
            List<String> lines = status.out().lines().toList();
            assertEquals(
                    "Topics: 1\tPartitions: 3\tOfflinePartitions: 0\tUnderReplicatedPartitions: 0\tLiveBrokers: 1\tReassigningPartitions: 0",
                    lines.get(3),
                    status.out());
            assertEquals(
                    "Broker: 0\tEndpoint: " + bootstrap + "\tRack: -\tLive: yes\tRegistered: yes"
                            + "\tLeads: 3\tHosts: 3",
                    lines.get(4),
                    status.out());
            assertEquals(5, lines.size(), status.out());
        }
    }

    @Test
    void shouldRefuseZooKeeperTogetherWithBrokerConfiguration() {
        CliResult result = run("cluster", "status", "--zookeeper", "127.0.0.1:2181", "--override", "log.dirs=x");

        assertEquals(
                new CliResult(
                        SluiceCli.EXIT_USAGE,
                        "",
                        "sluice cluster status: --zookeeper cannot be combined with --config or --override\n"),
                result);
        assertEquals(SluiceCli.EXIT_USAGE, run("cluster").exitCode());
    }

    /** Exit 1, nothing on stdout, exactly one error line. */
    private static CliResult failure(String message) {
        return new CliResult(SluiceCli.EXIT_FAILURE, "", "sluice cluster status: " + message + "\n");
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
