package io.sluice.it.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static membership (group.instance.id, KIP-345) with the Java client: a static member whose process is SIGKILLed and
 * restarted within its session timeout gets its partitions back in the same generation, and the other member never
 * sees a rebalance.
 */
class StaticMembershipTest {
    private static final String TOPIC = "static";
    private static final String GROUP = "static-group";
    private static final int PARTITIONS = 6;
    private static final long TIMEOUT_MS = 60_000;
    /** Several heartbeat intervals: long enough for a rebalance, had one been started, to reach the other member. */
    private static final long QUIET_MS = 4 * GroupIt.HEARTBEAT_INTERVAL_MS;

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = GroupIt.startBroker(tempDir);
        GroupIt.createTopic(broker.bootstrap(), TOPIC, PARTITIONS);
    }

    @AfterAll
    static void stopBroker() {
        GroupIt.stopAndKeepLog(broker, StaticMembershipTest.class);
    }

    private static GroupMemberProcess.Owned awaitOwned(GroupMemberProcess member, String step)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (member.owned() == null && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertNotNull(member.owned(), () -> step + ": " + member.describe() + "\nbroker: " + broker.outputTail());
        return member.owned();
    }

    private static void awaitBothOwnAll(GroupMemberProcess a, GroupMemberProcess b) throws InterruptedException {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            GroupMemberProcess.Owned oa = a.owned();
            GroupMemberProcess.Owned ob = b.owned();
            if (oa != null && ob != null && oa.generation() == ob.generation()) {
                Set<Integer> all = new HashSet<>(oa.partitions());
                all.addAll(ob.partitions());
                if (all.size() == PARTITIONS
                        && oa.partitions().size() + ob.partitions().size() == PARTITIONS) {
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no exact ownership: " + a.describe() + " owns " + a.owned() + "; " + b.describe()
                + " owns " + b.owned());
    }

    @Test
    void shouldGiveRestartedStaticMemberItsPartitionsWithoutRebalance() throws Exception {
        Path logs = tempDir.resolve("members");
        Files.createDirectories(logs);
        String bootstrap = broker.bootstrap();
        List<GroupMemberProcess> everyone = new ArrayList<>();
        try {
            GroupMemberProcess first =
                    GroupMemberProcess.startStatic("first", bootstrap, TOPIC, GROUP, "instance-1", logs);
            GroupMemberProcess other =
                    GroupMemberProcess.startStatic("other", bootstrap, TOPIC, GROUP, "instance-2", logs);
            everyone.addAll(List.of(first, other));
            awaitBothOwnAll(first, other);
            GroupMemberProcess.Owned before = first.owned();
            GroupMemberProcess.Owned otherBefore = other.owned();

            first.crash();
            GroupMemberProcess restarted =
                    GroupMemberProcess.startStatic("restarted", bootstrap, TOPIC, GROUP, "instance-1", logs);
            everyone.add(restarted);
            GroupMemberProcess.Owned after = awaitOwned(restarted, "restarted static member");
            assertNotEquals(before.memberId(), after.memberId(), "the restarted instance has a new member id");
            assertEquals(before.generation(), after.generation(), "no new generation for a returning static member");
            assertEquals(before.partitions(), after.partitions(), "it gets its partitions back");

            Thread.sleep(QUIET_MS);
            assertEquals(otherBefore, other.owned(), "the other member never saw a rebalance");
            assertTrue(restarted.isAlive() && other.isAlive());
        } finally {
            for (GroupMemberProcess member : everyone) {
                member.close();
            }
        }
    }
}
