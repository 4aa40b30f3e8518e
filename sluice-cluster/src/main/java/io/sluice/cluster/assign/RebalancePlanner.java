package io.sluice.cluster.assign;

import static io.sluice.cluster.state.BrokerIds.contains;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans a rebalance of partition replicas over live brokers, a pure function (what Kafka needs Cruise Control for):
 * <ol>
 *   <li>every replica on a broker being removed moves to the eligible broker with the least weight that the partition
 *       does not use yet, on a rack the partition does not use yet while one is left;</li>
 *   <li>then, while it narrows the spread, one replica moves from the heaviest broker to the lightest: the one whose
 *       weight comes closest to half the gap, never onto a rack the partition already uses when it did not before;</li>
 *   <li>last, each partition's preferred replica (listed first) is chosen so preferred leaderships even out: a
 *       reorder moves no data.</li>
 * </ol>
 * A replica weighs its partition's size in bytes plus one, so partitions of equal size (or empty ones) are evened by
 * count. Brokers not live are neither sources nor targets: their replicas stay where they are.
 *
 * <p>Stateless; thread-safe.
 */
public final class RebalancePlanner {

    /** A live broker. Immutable. */
    public record Broker(int id, String rack) {}

    /** A partition's replicas (preferred first) and its size in bytes (0 when unknown). */
    public record PartitionReplicas(String topic, int partition, int[] replicas, long sizeBytes) {}

    /**
     * One reassignment of the plan.
     *
     * @param bytesMoved the partition's size times the number of brokers that gain a copy (0 for a reorder)
     */
    public record Move(String topic, int partition, int[] from, int[] to, long bytesMoved) {
        @Override
        public String toString() {
            return topic + "-" + partition + ": " + Arrays.toString(from) + " -> " + Arrays.toString(to);
        }
    }

    private RebalancePlanner() {}

    /**
     * The moves that empty {@code remove} and even out the others.
     *
     * @throws InvalidAssignmentException when a broker to remove or add is not live, or too few brokers remain for
     *                                    some partition's replication factor
     */
    public static List<Move> plan(
            List<Broker> live, List<PartitionReplicas> partitions, Set<Integer> remove, Set<Integer> add) {
        Map<Integer, String> rackOf = new HashMap<>();
        for (Broker b : live) {
            rackOf.put(b.id(), b.rack() == null ? "" : b.rack());
        }
        for (int id : remove) {
            requireLive(rackOf, id, "remove");
        }
        for (int id : add) {
            requireLive(rackOf, id, "add");
            if (remove.contains(id)) {
                throw new InvalidAssignmentException("broker " + id + " cannot be both added and removed");
            }
        }
        List<Integer> eligible = live.stream()
                .map(Broker::id)
                .filter(id -> !remove.contains(id))
                .sorted()
                .toList();
        Plan plan = new Plan(partitions, eligible, rackOf);
        plan.evacuate(remove);
        plan.evenWeights();
        plan.evenPreferredLeaders();
        return plan.moves();
    }

    private static void requireLive(Map<Integer, String> rackOf, int id, String what) {
        if (!rackOf.containsKey(id)) {
            throw new InvalidAssignmentException("cannot " + what + " broker " + id + ": it is not live");
        }
    }

    /** The working assignment and the weights of the eligible brokers. Not thread-safe; one per plan. */
    private static final class Plan {
        private final List<PartitionReplicas> original;
        private final int[][] replicas;
        private final List<Integer> eligible;
        private final Map<Integer, String> rackOf;
        private final Map<Integer, Long> weight = new HashMap<>();

        Plan(List<PartitionReplicas> partitions, List<Integer> eligible, Map<Integer, String> rackOf) {
            this.original = partitions;
            this.replicas = new int[partitions.size()][];
            this.eligible = eligible;
            this.rackOf = rackOf;
            for (int id : eligible) {
                weight.put(id, 0L);
            }
            for (int i = 0; i < partitions.size(); i++) {
                replicas[i] = partitions.get(i).replicas().clone();
                long w = weightOf(i);
                for (int id : replicas[i]) {
                    weight.computeIfPresent(id, (k, total) -> total + w);
                }
            }
        }

        private long weightOf(int partition) {
            return Math.max(0, original.get(partition).sizeBytes()) + 1;
        }

        void evacuate(Set<Integer> remove) {
            for (int i = 0; i < replicas.length; i++) {
                for (int slot = 0; slot < replicas[i].length; slot++) {
                    int from = replicas[i][slot];
                    if (!remove.contains(from)) {
                        continue;
                    }
                    int to = lightestTarget(i, slot);
                    if (to < 0) {
                        PartitionReplicas p = original.get(i);
                        throw new InvalidAssignmentException("cannot remove broker " + from + ": " + p.topic() + "-"
                                + p.partition() + " has " + p.replicas().length + " replicas and no other broker of "
                                + eligible + " is free for it");
                    }
                    replicas[i][slot] = to;
                    weight.merge(to, weightOf(i), Long::sum);
                }
            }
        }

        /** The lightest eligible broker partition {@code i} does not use, preferring a rack it does not use. */
        private int lightestTarget(int i, int slot) {
            Set<String> racksUsed = racksExcept(i, slot);
            int best = -1;
            boolean bestNewRack = false;
            for (int id : eligible) {
                if (contains(replicas[i], id)) {
                    continue;
                }
                boolean newRack = !racksUsed.contains(rackOf.get(id));
                if (best < 0
                        || (newRack && !bestNewRack)
                        || (newRack == bestNewRack && weight.get(id) < weight.get(best))) {
                    best = id;
                    bestNewRack = newRack;
                }
            }
            return best;
        }

        void evenWeights() {
            int limit = replicas.length * 4 + eligible.size();
            for (int step = 0; step < limit && eligible.size() > 1; step++) {
                int heavy = eligible.stream()
                        .max(Comparator.comparingLong(weight::get))
                        .orElseThrow();
                int light = eligible.stream()
                        .min(Comparator.comparingLong(weight::get))
                        .orElseThrow();
                long gap = weight.get(heavy) - weight.get(light);
                int bestPartition = -1;
                int bestSlot = -1;
                long bestDistance = Long.MAX_VALUE;
                for (int i = 0; i < replicas.length; i++) {
                    int slot = indexOf(replicas[i], heavy);
                    long w = weightOf(i);
                    if (slot < 0 || contains(replicas[i], light) || w >= gap || !rackAllows(i, slot, light)) {
                        continue;
                    }
                    long distance = Math.abs(gap - 2 * w);
                    if (distance < bestDistance) {
                        bestDistance = distance;
                        bestPartition = i;
                        bestSlot = slot;
                    }
                }
                if (bestPartition < 0) {
                    return;
                }
                replicas[bestPartition][bestSlot] = light;
                weight.merge(heavy, -weightOf(bestPartition), Long::sum);
                weight.merge(light, weightOf(bestPartition), Long::sum);
            }
        }

        /** Whether {@code to} may take slot {@code slot} of partition {@code i} without losing rack spread. */
        private boolean rackAllows(int i, int slot, int to) {
            Set<String> others = racksExcept(i, slot);
            return !others.contains(rackOf.get(to)) || others.contains(rackOf.get(replicas[i][slot]));
        }

        private Set<String> racksExcept(int i, int slot) {
            Set<String> racks = new HashSet<>();
            for (int s = 0; s < replicas[i].length; s++) {
                if (s != slot) {
                    racks.add(rackOf.getOrDefault(replicas[i][s], ""));
                }
            }
            return racks;
        }

        /**
         * While some eligible broker is preferred for two partitions more than another, one partition preferring the
         * first and holding the second gets the second listed first; partitions are reordered only to close a gap.
         */
        void evenPreferredLeaders() {
            Map<Integer, Integer> preferred = new HashMap<>();
            for (int id : eligible) {
                preferred.put(id, 0);
            }
            for (int[] r : replicas) {
                preferred.computeIfPresent(r[0], (k, n) -> n + 1);
            }
            for (int step = 0; step < replicas.length && eligible.size() > 1; step++) {
                int most = eligible.stream()
                        .max(Comparator.comparingInt(preferred::get))
                        .orElseThrow();
                int least = eligible.stream()
                        .min(Comparator.comparingInt(preferred::get))
                        .orElseThrow();
                if (preferred.get(most) - preferred.get(least) <= 1) {
                    return;
                }
                int chosen = -1;
                for (int i = 0; i < replicas.length && chosen < 0; i++) {
                    if (replicas[i][0] == most && contains(replicas[i], least)) {
                        chosen = i;
                    }
                }
                if (chosen < 0) {
                    return;
                }
                int[] r = replicas[chosen];
                int at = indexOf(r, least);
                System.arraycopy(r, 0, r, 1, at);
                r[0] = least;
                preferred.merge(most, -1, Integer::sum);
                preferred.merge(least, 1, Integer::sum);
            }
        }

        List<Move> moves() {
            List<Move> moves = new ArrayList<>();
            for (int i = 0; i < replicas.length; i++) {
                PartitionReplicas p = original.get(i);
                if (Arrays.equals(p.replicas(), replicas[i])) {
                    continue;
                }
                long gained = Arrays.stream(replicas[i])
                        .filter(id -> !contains(p.replicas(), id))
                        .count();
                moves.add(new Move(
                        p.topic(),
                        p.partition(),
                        p.replicas().clone(),
                        replicas[i].clone(),
                        gained * Math.max(0, p.sizeBytes())));
            }
            return moves;
        }
    }

    private static int indexOf(int[] ids, int id) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        return -1;
    }
}
