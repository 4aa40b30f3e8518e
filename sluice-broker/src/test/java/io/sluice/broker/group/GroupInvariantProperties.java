package io.sluice.broker.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * Random interleavings of joins, syncs, heartbeats, commits, leaves and clock jumps by a handful of dynamic and
 * static members never break the group's bookkeeping: the awaiting-join count matches the members, the leader is a
 * member, pending syncs are members, an empty group has no members, generations only grow, and no member that is
 * no longer in the group is left waiting on a JoinGroup or SyncGroup response.
 */
class GroupInvariantProperties {
    private static final String GROUP = "g";
    private static final int MEMBERS = 4;
    private static final byte[] SUB = GroupHarness.subscription(List.of("t"), List.of());

    enum Kind {
        JOIN,
        SYNC,
        HEARTBEAT,
        COMMIT,
        LEAVE,
        ADVANCE
    }

    record Step(Kind kind, int member, int advanceMs) {}

    /** What one simulated client knows: its member id, last generation, and requests in flight. */
    private static final class Client {
        final String instanceId;
        String memberId = "";
        int generation = -1;
        CompletableFuture<JoinGroupResponseData> join;
        CompletableFuture<SyncGroupResponseData> sync;

        Client(String instanceId) {
            this.instanceId = instanceId;
        }
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> step = Combinators.combine(
                        Arbitraries.of(Kind.class),
                        Arbitraries.integers().between(0, MEMBERS - 1),
                        Arbitraries.of(0, 500, 3_000, 6_000, 11_000, 31_000))
                .as(Step::new);
        return step.list().ofMinSize(5).ofMaxSize(60);
    }

    @Property(tries = 200)
    void shouldKeepGroupBookkeepingConsistent(@ForAll("steps") List<Step> steps) throws IOException {
        Path dir = Files.createTempDirectory("group-props");
        try (GroupHarness h = new GroupHarness(dir, GroupHarness.config(3000))) {
            List<Client> clients = new ArrayList<>();
            for (int i = 0; i < MEMBERS; i++) {
                clients.add(new Client(i % 2 == 0 ? null : "instance-" + i));
            }
            int lastGeneration = 0;
            for (Step step : steps) {
                apply(h, clients, step);
                ClassicGroup group = h.coordinator.group(GROUP);
                if (group != null) {
                    checkInvariants(group, clients);
                    assertTrue(group.generationId >= lastGeneration, "generations only grow");
                    lastGeneration = group.generationId;
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void apply(GroupHarness h, List<Client> clients, Step step) {
        Client c = clients.get(step.member());
        switch (step.kind()) {
            case JOIN: {
                if (c.join != null && !c.join.isDone()) {
                    return; // a real client never sends a second JoinGroup while one is in flight
                }
                JoinGroupRequestData request = GroupHarness.joinRequest(GROUP, c.memberId, c.instanceId, SUB);
                c.join = h.join(request);
                absorbJoin(c);
                if (c.join.isDone() && c.join.getNow(null).errorCode() == Errors.MEMBER_ID_REQUIRED.code()) {
                    c.join = h.join(GroupHarness.joinRequest(GROUP, c.memberId, c.instanceId, SUB));
                    absorbJoin(c);
                }
                break;
            }
            case SYNC:
                if (c.memberId.isEmpty() || (c.sync != null && !c.sync.isDone())) {
                    return;
                }
                Map<String, byte[]> assignments = new HashMap<>();
                ClassicGroup group = h.coordinator.group(GROUP);
                if (group != null) {
                    group.members.keySet().forEach(m -> assignments.put(m, GroupHarness.assignment(List.of())));
                }
                c.sync = h.sync(GROUP, c.memberId, c.instanceId, c.generation, assignments);
                break;
            case HEARTBEAT:
                h.heartbeat(GROUP, c.memberId, c.instanceId, c.generation);
                break;
            case COMMIT:
                h.commit(GROUP, c.memberId, c.instanceId, c.generation, "t", 0, 1, "");
                break;
            case LEAVE:
                h.leave(GROUP, c.memberId, c.instanceId);
                c.memberId = "";
                c.generation = -1;
                break;
            default:
                h.scheduler.advance(step.advanceMs());
        }
        for (Client client : clients) {
            absorbJoin(client);
        }
    }

    private static void absorbJoin(Client c) {
        if (c.join != null && c.join.isDone()) {
            JoinGroupResponseData r = c.join.getNow(null);
            if (r.errorCode() == Errors.NONE.code() || r.errorCode() == Errors.MEMBER_ID_REQUIRED.code()) {
                c.memberId = r.memberId();
                c.generation = r.generationId();
            } else if (r.errorCode() == Errors.UNKNOWN_MEMBER_ID.code()
                    || r.errorCode() == Errors.FENCED_INSTANCE_ID.code()) {
                c.memberId = "";
                c.generation = -1;
            }
        }
    }

    private static void checkInvariants(ClassicGroup group, List<Client> clients) {
        long awaiting = group.members.values().stream()
                .filter(GroupMember::isAwaitingJoin)
                .count();
        assertEquals(awaiting, group.membersAwaitingJoin, "awaiting-join count");
        if (group.members.isEmpty()) {
            assertEquals(null, group.leaderId, "no leader without members");
        } else {
            assertNotNull(group.members.get(group.leaderId), "the leader " + group.leaderId + " is a member");
        }
        assertTrue(group.members.keySet().containsAll(group.pendingSyncMembers), "pending syncs are members");
        if (group.is(GroupState.EMPTY)) {
            assertTrue(group.members.isEmpty(), "an empty group has no members");
        }
        if (group.is(GroupState.STABLE) || group.is(GroupState.COMPLETING_REBALANCE)) {
            assertNotNull(group.protocolName, "a generation with members has a protocol");
        }
        group.staticMembers.forEach((instance, member) ->
                assertEquals(instance, group.members.get(member).groupInstanceId, "static mapping of " + instance));
        for (Client c : clients) {
            if (c.join != null && !c.join.isDone()) {
                assertTrue(
                        group.members.values().stream().anyMatch(m -> m.awaitingJoin == c.join),
                        "a JoinGroup response is pending that no member of the group will ever complete");
            }
            if (c.sync != null && !c.sync.isDone()) {
                assertTrue(
                        group.members.values().stream().anyMatch(m -> m.awaitingSync == c.sync),
                        "a SyncGroup response is pending that no member of the group will ever complete");
            }
        }
    }
}
