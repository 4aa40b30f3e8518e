package io.sluice.it.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import io.sluice.testkit.RawKafkaSocket;
import io.sluice.testkit.SluiceBrokerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
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
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Heartbeat v3 is the first with group.instance.id. */
    private static final short HEARTBEAT_V = 4;

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
        return Poll.until(
                step + " owns partitions",
                TIMEOUT,
                member::owned,
                Objects::nonNull,
                () -> member.describe() + "\nbroker: " + broker.outputTail());
    }

    private static void awaitBothOwnAll(GroupMemberProcess a, GroupMemberProcess b) throws InterruptedException {
        Poll.until(
                "both members in one generation, owning every partition once",
                TIMEOUT,
                () -> Arrays.asList(a.owned(), b.owned()),
                owned -> owned.get(0) != null && owned.get(1) != null && ownExactlyAll(owned.get(0), owned.get(1)),
                () -> a.describe() + "\n" + b.describe() + "\nbroker: " + broker.outputTail());
    }

    private static boolean ownExactlyAll(GroupMemberProcess.Owned oa, GroupMemberProcess.Owned ob) {
        Set<Integer> all = new HashSet<>(oa.partitions());
        all.addAll(ob.partitions());
        return oa.generation() == ob.generation()
                && all.size() == PARTITIONS
                && oa.partitions().size() + ob.partitions().size() == PARTITIONS;
    }

    /**
     * The coordinator's answer to a heartbeat sent in {@code owned}'s name: NONE only while the group is stable in that
     * generation; REBALANCE_IN_PROGRESS once a rebalance started, ILLEGAL_GENERATION once one completed.
     */
    private static Errors heartbeatAs(GroupMemberProcess.Owned owned, String instanceId) throws IOException {
        try (RawKafkaSocket socket = RawKafkaSocket.connect(broker.bootstrap())) {
            HeartbeatResponse response = GroupIt.send(
                    socket,
                    new HeartbeatRequest.Builder(new HeartbeatRequestData()
                            .setGroupId(GROUP)
                            .setGenerationId(owned.generation())
                            .setMemberId(owned.memberId())
                            .setGroupInstanceId(instanceId)),
                    ApiKeys.HEARTBEAT,
                    HEARTBEAT_V);
            return response.error();
        }
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

            // Sent after the restarted member was answered, so after whatever its return made the coordinator do: a
            // rebalance, had one started, would answer REBALANCE_IN_PROGRESS (or ILLEGAL_GENERATION once done) to the
            // other member's next heartbeat as to this one.
            assertEquals(
                    Errors.NONE,
                    heartbeatAs(otherBefore, "instance-2"),
                    "the group is still stable in the other member's generation");
            assertEquals(otherBefore, other.owned(), "the other member never saw a rebalance");
            assertTrue(restarted.isAlive() && other.isAlive());
        } finally {
            for (GroupMemberProcess member : everyone) {
                member.close();
            }
        }
    }
}
