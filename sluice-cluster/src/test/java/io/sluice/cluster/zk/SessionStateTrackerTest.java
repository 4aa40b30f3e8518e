package io.sluice.cluster.zk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.zk.SessionStateTracker.SessionState;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

            ZkTesting.expireSession(connection.client());
            ZkTesting.await("the second session lost", () -> session.expirations() == 2);
            ZkTesting.await("another new session", () -> session.state() == SessionState.CONNECTED);
            assertEquals(2, seen.stream().filter(s -> s == SessionState.LOST).count(), "changes seen: " + seen);
        }
    }
}
