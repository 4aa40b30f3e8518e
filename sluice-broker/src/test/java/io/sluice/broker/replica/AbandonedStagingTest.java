package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.cluster.ZooKeeperBrokers;
import io.sluice.testkit.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Staging a partition move left behind (a broker stopped or crashed during a transfer that no one resumes) goes when
 * the partition follows or leads without a transfer: at start-up as a follower and as a leader, and when a running
 * follower becomes the leader. Two brokers in this JVM on one ZooKeeper; the staging is planted as a transfer leaves
 * it (a manifest and a partly received segment).
 *
 * <p>Not thread-safe; a test.
 */
class AbandonedStagingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** {@code StagingArea.DIR_NAME}: where a transfer stages the files of a partition, inside its directory. */
    private static final String STAGING = "move-staging";

    @TempDir
    Path dir;

    private ZooKeeperBrokers cluster;
    private SluiceBroker first;
    private SluiceBroker second;

    @AfterEach
    void stop() {
        for (SluiceBroker broker : new SluiceBroker[] {second, first}) {
            if (broker != null) {
                broker.close();
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Starts brokers 1 (the controller) and 2 with {@code followed-0} on [1, 2] and {@code led-0} on [2]. */
    private void startWithTopics() throws Exception {
        cluster = new ZooKeeperBrokers(dir, "abandoned-staging");
        first = cluster.start(1, Map.of());
        Poll.until(
                "broker 1 to become controller",
                WAIT,
                () -> first.membership().node().isController(),
                c -> c);
        second = cluster.start(2, Map.of());
        Properties adminProps = new Properties();
        adminProps.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + first.boundAddress().getPort());
        try (Admin admin = Admin.create(adminProps)) {
            admin.createTopics(List.of(
                            new NewTopic("followed", Map.of(0, List.of(1, 2))),
                            new NewTopic("led", Map.of(0, List.of(2)))))
                    .all()
                    .get();
        }
        Poll.until(
                "broker 2 to host both partitions",
                WAIT,
                () -> Files.isDirectory(partitionDir("followed")) && Files.isDirectory(partitionDir("led")),
                hosted -> hosted);
    }

    private Path partitionDir(String topic) {
        return cluster.dataDir(2).resolve(topic + "-0");
    }

    /** Leaves staging in {@code topic}-0 on broker 2 as an interrupted transfer does; returns its directory. */
    private Path plantStaging(String topic) throws Exception {
        Path staging = partitionDir(topic).resolve(STAGING);
        Files.createDirectories(staging);
        Files.write(staging.resolve("manifest"), new byte[] {0, 0, 0, 1});
        Files.write(staging.resolve("00000000000000000000.log"), new byte[512]);
        return staging;
    }

    @Test
    void shouldDiscardStagingOfAPartitionFollowedOrLedWithoutATransferAtStartUp() throws Exception {
        startWithTopics();
        second.close();
        Path followed = plantStaging("followed");
        Path led = plantStaging("led");

        second = cluster.start(2, Map.of());

        Poll.until("the follower's staging removed at start-up", WAIT, () -> Files.exists(followed), e -> !e);
        Poll.until("the leader's staging removed at start-up", WAIT, () -> Files.exists(led), e -> !e);
        assertTrue(Files.isDirectory(partitionDir("followed")), "only the staging went");
    }

    @Test
    void shouldDiscardStagingWhenARunningFollowerBecomesTheLeader() throws Exception {
        startWithTopics();
        Path staging = plantStaging("followed");

        first.close(); // its controlled shutdown hands the leadership of followed-0 to broker 2
        first = null;

        Poll.until("the new leader's staging removed", WAIT, () -> Files.exists(staging), e -> !e);
        assertTrue(Files.isDirectory(partitionDir("followed")), "only the staging went");
    }
}
