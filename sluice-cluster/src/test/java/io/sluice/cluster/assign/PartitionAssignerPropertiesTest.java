package io.sluice.cluster.assign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PartitionAssignerPropertiesTest {

    /** A cluster: distinct broker ids, each on one of a few racks (blank = no rack). */
    @Provide
    Arbitrary<List<PartitionAssigner.Candidate>> clusters() {
        return Arbitraries.integers()
                .between(1, 40)
                .flatMap(n -> Combinators.combine(
                                Arbitraries.integers().between(0, 10_000).set().ofSize(n),
                                Arbitraries.of("", "a", "b", "c", "d").list().ofSize(n))
                        .as((ids, racks) -> {
                            List<PartitionAssigner.Candidate> out = new ArrayList<>();
                            int i = 0;
                            for (int id : ids) {
                                out.add(new PartitionAssigner.Candidate(id, racks.get(i++)));
                            }
                            return out;
                        }));
    }

    @Property(tries = 300)
    void everyPartitionGetsDistinctLiveReplicasAndLeadersAreBalanced(
            @ForAll("clusters") List<PartitionAssigner.Candidate> brokers,
            @ForAll @IntRange(min = 1, max = 300) int partitions,
            @ForAll @IntRange(min = 1, max = 5) int rf,
            @ForAll int start) {
        int replicationFactor = Math.min(rf, brokers.size());
        int[][] a = PartitionAssigner.assign(brokers, partitions, replicationFactor, start);
        Set<Integer> live = new HashSet<>();
        Map<Integer, String> rackOf = new HashMap<>();
        for (PartitionAssigner.Candidate c : brokers) {
            live.add(c.id());
            rackOf.put(c.id(), c.rack());
        }
        int racks = new HashSet<>(rackOf.values()).size();
        Map<Integer, Integer> leaders = new HashMap<>();
        assertEquals(partitions, a.length);
        for (int[] replicas : a) {
            assertEquals(replicationFactor, replicas.length);
            Set<Integer> distinct = new HashSet<>();
            Set<String> usedRacks = new HashSet<>();
            for (int r : replicas) {
                assertTrue(live.contains(r), "replica " + r + " is a live broker");
                assertTrue(distinct.add(r), "replica " + r + " appears once");
                usedRacks.add(rackOf.get(r));
            }
            assertEquals(Math.min(replicationFactor, racks), usedRacks.size(), "spread over as many racks as possible");
            leaders.merge(replicas[0], 1, Integer::sum);
        }
        int max = leaders.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        int min = live.size() > partitions
                ? 0
                : leaders.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        assertTrue(max - min <= 1, "leaders balanced within one: " + leaders);
    }

    @Property(tries = 200)
    void withoutRacksEveryBrokerHoldsTheSameNumberOfReplicasPerFullRound(
            @ForAll @IntRange(min = 1, max = 30) int n,
            @ForAll @IntRange(min = 1, max = 10) int rounds,
            @ForAll @IntRange(min = 1, max = 4) int rf,
            @ForAll int start) {
        List<PartitionAssigner.Candidate> brokers = new ArrayList<>();
        for (int id = 0; id < n; id++) {
            brokers.add(new PartitionAssigner.Candidate(id * 7 + 3, ""));
        }
        int replicationFactor = Math.min(rf, n);
        int[][] a = PartitionAssigner.assign(brokers, n * rounds, replicationFactor, start);
        Map<Integer, Integer> load = new HashMap<>();
        for (int[] replicas : a) {
            for (int r : replicas) {
                load.merge(r, 1, Integer::sum);
            }
        }
        for (PartitionAssigner.Candidate c : brokers) {
            assertEquals(rounds * replicationFactor, load.get(c.id()), "broker " + c.id() + " load " + load);
        }
    }

    @Property(tries = 100)
    void isAPureFunction(
            @ForAll("clusters") List<PartitionAssigner.Candidate> brokers,
            @ForAll @IntRange(min = 1, max = 50) int partitions,
            @ForAll int start) {
        int rf = Math.min(3, brokers.size());
        List<PartitionAssigner.Candidate> reversed = new ArrayList<>(brokers);
        java.util.Collections.reverse(reversed);
        assertTrue(
                java.util.Arrays.deepEquals(
                        PartitionAssigner.assign(brokers, partitions, rf, start),
                        PartitionAssigner.assign(reversed, partitions, rf, start)),
                "input order does not matter");
    }

    @Test
    void shouldRefuseImpossibleAssignmentsWithTypedError() {
        List<PartitionAssigner.Candidate> two =
                List.of(new PartitionAssigner.Candidate(1, ""), new PartitionAssigner.Candidate(2, ""));
        assertEquals(
                "Replication factor: 3 larger than available brokers: 2.",
                assertThrows(InvalidAssignmentException.class, () -> PartitionAssigner.assign(two, 3, 3, 0))
                        .getMessage());
        assertThrows(InvalidAssignmentException.class, () -> PartitionAssigner.assign(two, 0, 1, 0));
        assertThrows(InvalidAssignmentException.class, () -> PartitionAssigner.assign(two, 1, 0, 0));
        assertThrows(
                InvalidAssignmentException.class,
                () -> PartitionAssigner.assign(
                        List.of(new PartitionAssigner.Candidate(1, ""), new PartitionAssigner.Candidate(1, "x")),
                        1,
                        1,
                        0));
        assertThrows(
                InvalidAssignmentException.class,
                () -> PartitionAssigner.assign(
                        List.of(new PartitionAssigner.Candidate(1, ""), new PartitionAssigner.Candidate(1, "", true)),
                        1,
                        1,
                        0),
                "a broker listed twice, once in controlled shutdown");
    }

    /** The same cluster with some brokers (chosen by {@code marks}) in controlled shutdown. */
    private static List<PartitionAssigner.Candidate> withShuttingDown(
            List<PartitionAssigner.Candidate> brokers, List<Boolean> marks) {
        List<PartitionAssigner.Candidate> out = new ArrayList<>();
        for (int i = 0; i < brokers.size(); i++) {
            PartitionAssigner.Candidate c = brokers.get(i);
            out.add(new PartitionAssigner.Candidate(c.id(), c.rack(), marks.get(i % marks.size())));
        }
        return out;
    }

    @Property(tries = 200)
    void brokersInControlledShutdownTakeNoReplicaAndTheOthersArePlacedAsIfAlone(
            @ForAll("clusters") List<PartitionAssigner.Candidate> brokers,
            @ForAll @Size(min = 1, max = 8) List<Boolean> marks,
            @ForAll @IntRange(min = 1, max = 100) int partitions,
            @ForAll @IntRange(min = 1, max = 4) int rf,
            @ForAll int start) {
        List<PartitionAssigner.Candidate> marked = withShuttingDown(brokers, marks);
        List<PartitionAssigner.Candidate> usable = marked.stream()
                .filter(c -> !c.inControlledShutdown())
                .map(c -> new PartitionAssigner.Candidate(c.id(), c.rack()))
                .toList();
        if (rf > usable.size()) {
            String message = assertThrows(
                            InvalidAssignmentException.class,
                            () -> PartitionAssigner.assign(marked, partitions, rf, start))
                    .getMessage();
            assertTrue(
                    message.startsWith(
                            "Replication factor: " + rf + " larger than available brokers: " + usable.size() + "."),
                    message);
            return;
        }
        int[][] a = PartitionAssigner.assign(marked, partitions, rf, start);
        assertTrue(
                java.util.Arrays.deepEquals(PartitionAssigner.assign(usable, partitions, rf, start), a),
                "placed as over the usable brokers alone");
        Set<Integer> usableIds = new HashSet<>();
        usable.forEach(c -> usableIds.add(c.id()));
        for (int[] replicas : a) {
            for (int r : replicas) {
                assertTrue(usableIds.contains(r), "replica " + r + " is not in controlled shutdown");
            }
        }
    }

    @Test
    void shouldRefuseWhenTooFewBrokersAreOutOfControlledShutdownNamingTheCounts() {
        List<PartitionAssigner.Candidate> three = List.of(
                new PartitionAssigner.Candidate(1, "a"),
                new PartitionAssigner.Candidate(2, "b", true),
                new PartitionAssigner.Candidate(3, "c"));
        int[][] two = PartitionAssigner.assign(three, 6, 2, 0);
        for (int[] replicas : two) {
            assertEquals(Set.of(1, 3), Set.of(replicas[0], replicas[1]), java.util.Arrays.toString(replicas));
        }
        assertEquals(
                "Replication factor: 3 larger than available brokers: 2. Brokers in controlled shutdown take no new"
                        + " replicas: [2].",
                assertThrows(InvalidAssignmentException.class, () -> PartitionAssigner.assign(three, 1, 3, 0))
                        .getMessage());
    }
}
