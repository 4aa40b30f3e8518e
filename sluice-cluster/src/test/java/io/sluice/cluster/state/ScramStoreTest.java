package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.controller.ClusterController;
import io.sluice.cluster.node.ClusterFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SCRAM credentials in ZooKeeper through the controller ({@link ClusterController#alterScramCredentials}): set and
 * deleted in deltas every broker applies, decided against the published credentials (an unchanged credential or the
 * deletion of an absent one publishes nothing), folded into snapshots, kept by the next controller.
 */
class ScramStoreTest {
    private static final ScramCredentialEntry ALICE = entry("alice", ScramCredentialEntry.SCRAM_SHA_256, 1);
    private static final ScramCredentialEntry BOB = entry("bob", ScramCredentialEntry.SCRAM_SHA_512, 2);

    @TempDir
    Path dir;

    private static ScramCredentialEntry entry(String user, byte mechanism, int seed) {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, (byte) seed);
        return new ScramCredentialEntry(new ScramCredentialEntry.Key(user, mechanism), bytes, bytes, bytes, 4096);
    }

    private static <T> T await(CompletableFuture<T> f) throws Exception {
        return f.get(60, TimeUnit.SECONDS);
    }

    @SuppressWarnings("ReferenceEquality") // fixture brokers: each object is one broker, compared as itself
    @Test
    void shouldStoreCredentialsThatEveryBrokerAppliesAndTheNextControllerKeeps() throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir, ZkTesting.config())) {
            List<ClusterFixture.Broker> both = List.of(cluster.broker(1, "", true), cluster.broker(2, "", true));
            ClusterFixture.Broker first = ClusterFixture.awaitController(both);
            ClusterController controller = first.node().controller();
            // Both registered before anything is counted: a controller that took over seeing one broker publishes the
            // other's arrival later, which would be counted as the unchanged credentials' publication below.
            ZkTesting.await(
                    "the controller lists both brokers",
                    () -> controller.state() != null
                            && controller.state().brokers().size() == 2);

            await(controller.alterScramCredentials((current, set, delete) -> {
                set.add(ALICE);
                set.add(BOB);
                return null;
            }));
            for (ClusterFixture.Broker b : both) {
                ZkTesting.await(
                        "broker applied the credentials",
                        () -> b.node().current().scramCredentials().all().size() == 2);
            }
            assertEquals(
                    ALICE,
                    ClusterFixture.awaitConverged(first, both)
                            .scramCredentials()
                            .get("alice", ScramCredentialEntry.SCRAM_SHA_256));

            long seq = controller.state().appliedSeq();
            assertEquals("absent", await(controller.alterScramCredentials((current, set, delete) -> {
                set.add(ALICE);
                delete.add(new ScramCredentialEntry.Key("carol", ScramCredentialEntry.SCRAM_SHA_256));
                return current.get("carol", ScramCredentialEntry.SCRAM_SHA_256) == null ? "absent" : "present";
            })));
            assertEquals(seq, controller.state().appliedSeq(), "nothing changes, nothing is published");

            await(controller.alterScramCredentials((current, set, delete) -> {
                delete.add(BOB.key());
                return null;
            }));
            assertNull(ClusterFixture.awaitConverged(first, both)
                    .scramCredentials()
                    .get("bob", ScramCredentialEntry.SCRAM_SHA_512));

            await(controller.writeSnapshotNow());
            first.node().close();
            ClusterFixture.Broker survivor = first == both.get(0) ? both.get(1) : both.get(0);
            ClusterFixture.Broker next = ClusterFixture.awaitController(List.of(survivor));
            ZkTesting.await(
                    "the new controller loaded the credentials",
                    () -> next.node().controller().state() != null
                            && ALICE.equals(next.node()
                                    .controller()
                                    .state()
                                    .scramCredentials()
                                    .get("alice", ScramCredentialEntry.SCRAM_SHA_256)));
        }
    }
}
