package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.controller.ClusterController;
import io.sluice.cluster.node.ClusterFixture;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower behind a fold catches up through the deltas while they lead to the head, and reads the snapshot only
 * once they were pruned. The follower runs on an executor the test drives, so it refreshes exactly when told.
 */
class FollowerCatchUpTest {
    @TempDir
    Path dir;

    /** Runs nothing until {@link #runAll()}. Not thread-safe beyond the lock; one per test. */
    static final class HeldExecutor implements Executor {
        private final Queue<Runnable> tasks = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            while (true) {
                Runnable r;
                synchronized (this) {
                    r = tasks.poll();
                }
                if (r == null) {
                    return;
                }
                r.run();
            }
        }
    }

    @Test
    void shouldCatchUpThroughDeltasPastAFoldAndReadTheSnapshotOnlyOnceTheyArePruned() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterController controller =
                    ClusterFixture.awaitController(List.of(b1)).node().controller();
            controller.createTopic("t0", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
            controller.writeSnapshotNow().get(60, TimeUnit.SECONDS);
            HeldExecutor held = new HeldExecutor();
            try (ClusterStateFollower f = new ClusterStateFollower(cluster.client(), cluster.config, "held", held)) {
                f.start();
                held.runAll();
                assertTrue(f.current().sameContent(controller.state()), "caught up at start");
                assertEquals(1, f.snapshotsLoaded(), "a new follower starts from the snapshot");

                // Two changes, then a fold: the deltas still lead to the new head.
                controller.createTopic("t1", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
                controller.createTopic("t2", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
                controller.writeSnapshotNow().get(60, TimeUnit.SECONDS);
                long deltasBefore = f.deltasApplied();
                f.schedule();
                held.runAll();
                assertTrue(f.current().sameContent(controller.state()), "caught up past the fold");
                assertEquals(controller.state().appliedSeq(), f.current().appliedSeq());
                assertEquals(1, f.snapshotsLoaded(), "no snapshot read for two changes");
                assertEquals(deltasBefore + 2, f.deltasApplied());

                // One change at a time: the follower gets each delta with the list, one wait for ZooKeeper.
                long readAheadBefore = f.deltasReadAhead();
                for (String topic : List.of("t5", "t6")) {
                    controller.createTopic(topic, 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
                    f.schedule();
                    held.runAll();
                    assertEquals(controller.state().appliedSeq(), f.current().appliedSeq(), "caught up to " + topic);
                }
                assertTrue(f.deltasReadAhead() > readAheadBefore, "read ahead: " + f.deltasReadAhead());

                // Two more folds: the deltas after the follower's position are pruned, so only the snapshot leads on.
                controller.createTopic("t3", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
                controller.writeSnapshotNow().get(60, TimeUnit.SECONDS);
                controller.createTopic("t4", 1, 1, Map.of()).get(60, TimeUnit.SECONDS);
                controller.writeSnapshotNow().get(60, TimeUnit.SECONDS);
                f.schedule();
                held.runAll();
                assertTrue(f.current().sameContent(controller.state()), "caught up through the snapshot");
                assertEquals(2, f.snapshotsLoaded());
            }
        }
    }
}
