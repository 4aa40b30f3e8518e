package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.controller.ClusterController;
import io.sluice.cluster.node.ClusterFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACLs in ZooKeeper through the controller ({@link ClusterController#alterAcls}): added and removed in deltas every
 * broker applies, decided against the published entries (an existing entry publishes nothing), folded into
 * snapshots a new follower starts from, and kept by the next controller after a failover.
 */
class AclStoreTest {
    private static final AclEntry READ =
            new AclEntry(AclEntry.TOPIC, "orders", AclEntry.LITERAL, "User:alice", "*", (byte) 3, AclEntry.ALLOW);
    private static final AclEntry DENY =
            new AclEntry(AclEntry.GROUP, "g-", AclEntry.PREFIXED, "User:*", "*", (byte) 2, AclEntry.DENY);

    @TempDir
    Path dir;

    private static <T> T await(java.util.concurrent.CompletableFuture<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    @SuppressWarnings("ReferenceEquality") // fixture brokers: each object is one broker, compared as itself
    @Test
    void shouldStoreAclsThatEveryBrokerAppliesAndTheNextControllerKeeps() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            ClusterFixture.Broker b1 = cluster.broker(1, "", true);
            ClusterFixture.Broker b2 = cluster.broker(2, "", true);
            List<ClusterFixture.Broker> both = List.of(b1, b2);
            ClusterFixture.Broker first = ClusterFixture.awaitController(both);
            ClusterController controller = first.node().controller();

            assertEquals(2, (int) await(controller.alterAcls((current, add, remove) -> {
                add.add(READ);
                add.add(DENY);
                return current.size() + 2;
            })));
            assertEquals(
                    Set.of(READ, DENY),
                    ClusterFixture.awaitConverged(first, both).acls());

            long seq = controller.state().appliedSeq();
            await(controller.alterAcls((current, add, remove) -> {
                add.add(READ);
                remove.add(new AclEntry(
                        AclEntry.TOPIC, "absent", AclEntry.LITERAL, "User:x", "*", (byte) 3, AclEntry.ALLOW));
                return null;
            }));
            assertEquals(seq, controller.state().appliedSeq(), "nothing changes, nothing is published");

            await(controller.alterAcls((current, add, remove) -> {
                current.stream()
                        .filter(e -> e.permissionType() == AclEntry.DENY)
                        .forEach(remove::add);
                return null;
            }));
            assertEquals(
                    Set.of(READ),
                    ClusterFixture.awaitConverged(first, both).acls(),
                    "decided against the published entries");

            await(controller.writeSnapshotNow());
            FollowerCatchUpTest.HeldExecutor held = new FollowerCatchUpTest.HeldExecutor();
            try (ClusterStateFollower f = new ClusterStateFollower(cluster.client(), cluster.config, "held", held)) {
                f.start();
                held.runAll();
                assertEquals(1, f.snapshotsLoaded());
                assertEquals(Set.of(READ), f.current().acls(), "the snapshot carries the ACLs");
            }

            first.node().close();
            ClusterFixture.Broker survivor = first == b1 ? b2 : b1;
            ClusterFixture.Broker next = ClusterFixture.awaitController(List.of(survivor));
            ZkTesting.await(
                    "the new controller loaded the state",
                    () -> next.node().controller().state() != null
                            && next.node().controller().state().acls().equals(Set.of(READ)));
            ClusterState after = await(next.node()
                    .controller()
                    .alterAcls((current, add, remove) -> {
                        add.add(DENY);
                        return null;
                    })
                    .thenApply(ignored -> next.node().controller().state()));
            assertTrue(after.acls().containsAll(Set.of(READ, DENY)));
        }
    }
}
