package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SluiceBrokerProcess;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * A broker stopped (SIGTERM) while ZooKeeper is down exits by itself in bounded time: it skips the controlled
 * shutdown it cannot get and gives up leaving the cluster after a bound, instead of retrying ZooKeeper for minutes.
 */
class ShutdownWithoutZooKeeperTest extends ClusterTestBase {
    /** What the broker's own bound allows (about 10 s to leave the cluster) plus JVM exit on a busy machine. */
    private static final Duration SHUTDOWN_BOUND = Duration.ofSeconds(25);

    @Test
    void shouldExitWithinABoundWhenZooKeeperIsUnreachable() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic("outage", 3, (short) 3)))
                    .all()
                    .get();
        }
        cluster.stopZooKeeper();
        SluiceBrokerProcess broker = cluster.broker(1);
        long started = System.nanoTime();
        boolean exitedByItself = broker.stop();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertTrue(exitedByItself, () -> "broker 1 had to be killed after SIGTERM; output:\n" + broker.outputTail());
        assertTrue(took.compareTo(SHUTDOWN_BOUND) <= 0, () -> "broker 1 took " + took + " to stop without ZooKeeper");
    }
}
