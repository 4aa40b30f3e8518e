package io.sluice.cluster.assign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.assign.RebalancePlanner.Broker;
import io.sluice.cluster.assign.RebalancePlanner.Move;
import io.sluice.cluster.assign.RebalancePlanner.PartitionReplicas;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The rebalance plan as a pure function: examples, then properties over random clusters. */
class RebalancePlannerTest {

    private static List<Broker> brokers(int n, int racks) {
        List<Broker> out = new ArrayList<>();
        for (int id = 1; id <= n; id++) {
            out.add(new Broker(id, racks == 0 ? "" : "r" + (id % racks)));
        }
        return out;
    }

    /** The assignment after applying {@code moves}. */
    private static List<PartitionReplicas> after(List<PartitionReplicas> before, List<Move> moves) {
        Map<String, int[]> moved = new HashMap<>();
        for (Move m : moves) {
            moved.put(m.topic() + "-" + m.partition(), m.to());
        }
        List<PartitionReplicas> out = new ArrayList<>();
        for (PartitionReplicas p : before) {
            int[] to = moved.getOrDefault(p.topic() + "-" + p.partition(), p.replicas());
            out.add(new PartitionReplicas(p.topic(), p.partition(), to, p.sizeBytes()));
        }
        return out;
    }

    private static Map<Integer, Long> bytesPerBroker(
            List<Broker> brokers, List<PartitionReplicas> partitions, Set<Integer> except) {
        Map<Integer, Long> load = new HashMap<>();
        for (Broker b : brokers) {
            if (!except.contains(b.id())) {
                load.put(b.id(), 0L);
            }
        }
        for (PartitionReplicas p : partitions) {
            for (int id : p.replicas()) {
                load.computeIfPresent(id, (k, v) -> v + p.sizeBytes() + 1);
            }
        }
        return load;
    }

    private static long spread(Map<Integer, Long> load) {
        return load.values().stream().mapToLong(Long::longValue).max().orElse(0)
                - load.values().stream().mapToLong(Long::longValue).min().orElse(0);
    }

    @Test
    void shouldEmptyARemovedBrokerAndKeepTheReplicationFactor() {
        List<Broker> live = brokers(4, 0);
        List<PartitionReplicas> ps = List.of(
                new PartitionReplicas("t", 0, new int[] {1, 2, 3}, 1000),
                new PartitionReplicas("t", 1, new int[] {2, 3, 1}, 1000),
                new PartitionReplicas("t", 2, new int[] {3, 1, 2}, 1000));
        List<Move> moves = RebalancePlanner.plan(live, ps, Set.of(3), Set.of());
        for (PartitionReplicas p : after(ps, moves)) {
            assertEquals(3, p.replicas().length);
            assertFalse(Arrays.stream(p.replicas()).anyMatch(id -> id == 3), p.topic() + "-" + p.partition());
        }
        assertEquals(3000, moves.stream().mapToLong(Move::bytesMoved).sum(), "each partition copied to broker 4");
    }

    @Test
    void shouldFillAnAddedBroker() {
        List<Broker> live = brokers(4, 0);
        List<PartitionReplicas> ps = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            ps.add(new PartitionReplicas("t", p, new int[] {1 + p % 3, 1 + (p + 1) % 3}, 500));
        }
        List<Move> moves = RebalancePlanner.plan(live, ps, Set.of(), Set.of(4));
        Map<Integer, Long> load = bytesPerBroker(live, after(ps, moves), Set.of());
        assertTrue(load.get(4) >= 3 * 501, "broker 4 takes its share: " + load);
        assertTrue(spread(load) <= 501, "within one partition of even: " + load);
    }

    @Test
    void shouldRefuseToRemoveWhenTooFewBrokersRemainOrTheBrokerIsNotLive() {
        List<Broker> live = brokers(3, 0);
        List<PartitionReplicas> ps = List.of(new PartitionReplicas("t", 0, new int[] {1, 2, 3}, 10));
        InvalidAssignmentException e = assertThrows(
                InvalidAssignmentException.class, () -> RebalancePlanner.plan(live, ps, Set.of(3), Set.of()));
        assertTrue(e.getMessage().contains("t-0 has 3 replicas"), e.getMessage());
        assertThrows(InvalidAssignmentException.class, () -> RebalancePlanner.plan(live, ps, Set.of(9), Set.of()));
    }

    @Test
    void shouldPlanNothingForABalancedCluster() {
        List<Broker> live = brokers(3, 0);
        List<PartitionReplicas> ps = List.of(
                new PartitionReplicas("t", 0, new int[] {1, 2}, 100),
                new PartitionReplicas("t", 1, new int[] {2, 3}, 100),
                new PartitionReplicas("t", 2, new int[] {3, 1}, 100));
        assertEquals(List.of(), RebalancePlanner.plan(live, ps, Set.of(), Set.of()));
    }

    @Property(tries = 300)
    void plansKeepReplicationFactorsAvoidRemovedBrokersAndNeverWidenTheSpread(
            @ForAll @IntRange(min = 3, max = 8) int brokerCount,
            @ForAll @IntRange(min = 0, max = 3) int racks,
            @ForAll @IntRange(min = 1, max = 40) int partitionCount,
            @ForAll @LongRange(min = 0, max = 1 << 20) long seed,
            @ForAll boolean removeOne) {
        Random random = new Random(seed);
        List<Broker> live = brokers(brokerCount, racks);
        int maxRf = removeOne ? brokerCount - 1 : brokerCount;
        List<PartitionReplicas> ps = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            int rf = 1 + random.nextInt(Math.min(3, maxRf));
            List<Integer> ids = new ArrayList<>();
            for (int id = 1; id <= brokerCount; id++) {
                ids.add(id);
            }
            java.util.Collections.shuffle(ids, random);
            int[] replicas =
                    ids.subList(0, rf).stream().mapToInt(Integer::intValue).toArray();
            ps.add(new PartitionReplicas(
                    "t" + (p % 3), p, replicas, random.nextInt(10) == 0 ? 0 : random.nextInt(1 << 20)));
        }
        Set<Integer> remove = removeOne ? Set.of(brokerCount) : Set.of();
        List<Move> moves = RebalancePlanner.plan(live, ps, remove, Set.of());
        List<PartitionReplicas> result = after(ps, moves);
        for (int i = 0; i < ps.size(); i++) {
            int[] r = result.get(i).replicas();
            assertEquals(ps.get(i).replicas().length, r.length, "replication factor kept");
            assertEquals(r.length, new HashSet<>(Arrays.stream(r).boxed().toList()).size(), "no broker twice");
            for (int id : r) {
                assertFalse(remove.contains(id), "no replica left on a removed broker");
            }
            if (racks > 0 && remove.isEmpty()) {
                assertTrue(
                        distinctRacks(r, racks) >= distinctRacks(ps.get(i).replicas(), racks),
                        "a move never puts a partition on fewer racks");
            }
        }
        if (remove.isEmpty()) {
            assertTrue(
                    spread(bytesPerBroker(live, result, Set.of())) <= spread(bytesPerBroker(live, ps, Set.of())),
                    "the spread never widens");
        }
        for (Move m : moves) {
            assertFalse(Arrays.equals(m.from(), m.to()), "no empty move");
        }
    }

    private static int distinctRacks(int[] ids, int racks) {
        Set<Integer> seen = new HashSet<>();
        for (int id : ids) {
            seen.add(id % racks);
        }
        return seen.size();
    }
}
