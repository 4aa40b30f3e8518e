package io.sluice.broker.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.cluster.ClusterMembership;
import io.sluice.broker.cluster.ZooKeeperBrokers;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.log.LogConfig;
import io.sluice.log.LogManager;
import io.sluice.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CreateTopics' replication-factor check counts the live brokers Metadata lists: those of the cluster node's newest
 * state, which the topic manager applies a moment later.
 */
class TopicChangesTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void shouldAcceptAReplicationFactorOfEveryBrokerMetadataListsBeforeTheTopicManagerAppliedTheirState()
            throws Exception {
        try (ZooKeeperBrokers zk = new ZooKeeperBrokers(dir, "rf-check");
                ClusterMembership first = join(zk, 1);
                LogManager logs = new LogManager(List.of(zk.dataDir(1)), LogConfig.defaults())) {
            // Registered ahead of the topic manager's listener, this one holds the state follower's thread on the
            // first state that lists broker 2: the node's state (Metadata's) lists it, the topic manager's does not.
            CountDownLatch release = new CountDownLatch(1);
            first.node().addListener(state -> {
                if (state.brokers().size() == 2) {
                    awaitQuietly(release);
                }
            });
            // No topic exists, so the topic manager opens no partition and needs no replica manager.
            TopicManager topics = new TopicManager(config(zk, 1), logs);
            topics.startup(first.node(), null, null);
            try (ClusterMembership second = join(zk, 2)) {
                try {
                    Poll.until("broker 1's Metadata to list broker 2", WAIT, first::liveBrokers, b -> b.size() == 2);
                    assertEquals(
                            1,
                            topics.view().state().brokers().size(),
                            "the topic manager has not applied the state that lists broker 2");

                    TopicInfo checked = topics.create("two-replicas", 1, 2, Map.of(), true);

                    assertEquals(1, checked.partitionCount());
                } finally {
                    release.countDown();
                }
            }
        }
    }

    private static ClusterMembership join(ZooKeeperBrokers zk, int id) throws Exception {
        BrokerConfig config = config(zk, id);
        ClusterMembership membership = ClusterMembership.connect(config, zk.dataDir(id));
        try {
            // registered, never connected to: no listener serves here
            membership.advertise(new BrokerNode(id, "127.0.0.1", 9000 + id, null));
            membership.join();
            return membership;
        } catch (Exception e) {
            membership.close();
            throw e;
        }
    }

    private static BrokerConfig config(ZooKeeperBrokers zk, int id) {
        return BrokerConfig.fromMap(zk.config(id, zk.dataDir(id)));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
