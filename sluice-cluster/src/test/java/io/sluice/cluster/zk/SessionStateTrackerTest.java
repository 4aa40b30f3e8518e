package io.sluice.cluster.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.zk.SessionStateTracker.SessionState;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real ZooKeeper server and a real Curator session, expired by ZooKeeper itself (KillSession). */
class SessionStateTrackerTest {

    @Test
    void shouldShowConnectedThenCountEachExpiredSessionAndTheReconnection(@TempDir Path dir) throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"));
                ClusterConnection connection = ClusterConnection.open(zk.connectString(), ZkTesting.config())) {
            SessionStateTracker session = connection.session();
            ZkTesting.await("the first connection", () -> session.state() == SessionState.CONNECTED);
            assertEquals(0, session.expirations());
            List<SessionState> seen = new CopyOnWriteArrayList<>();
            session.listen(seen::add);

            ZkTesting.expireSession(connection.client());
            ZkTesting.await("the session lost", () -> seen.contains(SessionState.LOST));
            ZkTesting.await("a new session", () -> session.state() == SessionState.CONNECTED);
            assertEquals(1, session.expirations());

            expireAgain(connection, () -> session.expirations() >= 2);
            ZkTesting.await("another new session", () -> session.state() == SessionState.CONNECTED);
            assertEquals(2, seen.stream().filter(s -> s == SessionState.LOST).count(), "changes seen: " + seen);
        }
    }

    /**
     * Expires the session the client holds now until {@code expired} holds. Right after a reconnection the client
     * may still hand out the handle of the session that ended, and killing that one does nothing (the second loss
     * was once waited for 60 s in a full module run): each kill gets 10 s to show.
     */
    private static void expireAgain(ClusterConnection connection, BooleanSupplier expired) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!expired.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the session was not expired again within 60 s");
            }
            ZkTesting.expireSession(connection.client());
            long shown = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!expired.getAsBoolean() && System.nanoTime() < shown) {
                Thread.sleep(10);
            }
        }
    }
}
