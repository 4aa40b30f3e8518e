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
import java.util.TreeSet;

/**
 * Plans a rebalance of partition replicas over live brokers, a pure function (what Kafka needs Cruise Control for):
 * <ol>
 *   <li>every replica on a broker being removed, live or not, moves to the eligible broker with the least weight that
 *       the partition does not use yet, on a rack the partition does not use yet while one is left;</li>
 *   <li>then, while the heaviest and the lightest eligible broker differ by more than the {@linkplain #tolerance
 *       tolerance}, one replica moves from the heaviest to the lightest: the one whose weight comes closest to half
 *       the gap, among those that narrow the gap of the two by at least a tenth of the tolerance, never onto a rack
 *       the partition already uses when it did not before; empty partitions never move for balance;</li>
 *   <li>last, each partition's preferred replica (listed first) is chosen so preferred leaderships even out: a
 *       reorder moves no data.</li>
 * </ol>
 * A replica weighs its partition's size in bytes plus one. The stopping rules depend on the assignment alone, so
 * planning again from a plan's result plans nothing.
 *
 * <p>Partitions the plan leaves as they are (each {@linkplain Plan#skipped() reported} with the reason):
 * <ul>
 *   <li>a partition {@linkplain PartitionReplicas#moving() being reassigned} already: it counts where its
 *       reassignment takes it, and that reassignment is left to run; removing a broker its target keeps is refused;</li>
 *   <li>a partition with a replica on a broker that is neither live nor being removed: the controller refuses a target
 *       naming a broker that is not registered, and the broker may come back; removing another broker this partition
 *       uses is refused (remove the down broker too, or bring it back).</li>
 * </ul>
 * Every planned target keeps the partition's replication factor and names live brokers only, or the plan fails with
 * {@link IllegalStateException}.
 *
 * <p>Stateless; thread-safe.
 */
public final class RebalancePlanner {
    /** The tolerance as a share of the mean eligible broker weight. */
    static final double TOLERANCE_SHARE_OF_MEAN = 0.10;
    /** A balancing move must narrow its two brokers' gap by at least the tolerance divided by this. */
    static final int MIN_GAIN_DIVISOR = 10;

    /** A live broker. Immutable. */
    public record Broker(int id, String rack) {}

    /**
     * A partition's replicas (preferred first) and its size in bytes (0 when unknown).
     *
     * @param replicas where the partition is, or, when {@code moving}, its reassignment's target replicas
     * @param moving   whether a reassignment of the partition is in progress
     */
    public record PartitionReplicas(String topic, int partition, int[] replicas, long sizeBytes, boolean moving) {
        /** A partition that is not being reassigned. */
        public PartitionReplicas(String topic, int partition, int[] replicas, long sizeBytes) {
            this(topic, partition, replicas, sizeBytes, false);
        }

        String name() {
            return topic + "-" + partition;
        }
    }

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

    /** A partition the plan leaves as it is, and why. */
    public record Skipped(String topic, int partition, int[] replicas, String reason) {
        @Override
        public String toString() {
            return topic + "-" + partition + " " + Arrays.toString(replicas) + ": " + reason;
        }
    }

    /**
     * A plan: the moves, the partitions left alone, and remarks on the brokers asked for (a broker to remove that is
     * neither live nor holds a replica has nothing to move off it).
     */
    public record Plan(List<Move> moves, List<Skipped> skipped, List<String> notes) {}

    private RebalancePlanner() {}

    /**
     * The moves that empty {@code remove} and even out the others.
     *
     * @param segmentBytes the least byte gap worth balancing (one log segment); see {@link #tolerance}
     * @throws InvalidAssignmentException when a broker to add is not live, a broker is both added and removed, too few
     *                                    brokers remain for some partition's replication factor, or a partition on a
     *                                    broker to remove cannot move (see the class comment)
     */
    public static Plan plan(
            List<Broker> live,
            List<PartitionReplicas> partitions,
            Set<Integer> remove,
            Set<Integer> add,
            long segmentBytes) {
        Map<Integer, String> rackOf = new HashMap<>();
        for (Broker b : live) {
            rackOf.put(b.id(), b.rack() == null ? "" : b.rack());
        }
        for (int id : add) {
            if (!rackOf.containsKey(id)) {
                throw new InvalidAssignmentException("cannot add broker " + id + ": it is not live");
            }
            if (remove.contains(id)) {
                throw new InvalidAssignmentException("broker " + id + " cannot be both added and removed");
            }
        }
        List<String> notes = new ArrayList<>();
        for (int id : new TreeSet<>(remove)) {
            if (!rackOf.containsKey(id) && partitions.stream().noneMatch(p -> contains(p.replicas(), id))) {
                notes.add("broker " + id + " is not live and holds no replica: nothing to move off it");
            }
        }
        List<Integer> eligible = live.stream()
                .map(Broker::id)
                .filter(id -> !remove.contains(id))
                .sorted()
                .toList();
        List<Skipped> skipped = new ArrayList<>();
        boolean[] fixed = new boolean[partitions.size()];
        for (int i = 0; i < partitions.size(); i++) {
            String reason = reasonToLeaveAlone(partitions.get(i), rackOf, remove);
            if (reason != null) {
                PartitionReplicas p = partitions.get(i);
                fixed[i] = true;
                skipped.add(new Skipped(p.topic(), p.partition(), p.replicas().clone(), reason));
            }
        }
        Assignment plan = new Assignment(partitions, fixed, eligible, rackOf);
        plan.evacuate(remove);
        plan.evenWeights(tolerance(plan.meanWeight(), segmentBytes));
        plan.evenPreferredLeaders();
        return new Plan(plan.moves(), List.copyOf(skipped), List.copyOf(notes));
    }

    /**
     * The byte gap between the heaviest and the lightest eligible broker below which they count as even: a tenth of
     * the mean broker weight, and at least one segment ({@code segmentBytes}), the granularity at which a partition's
     * size changes on disk.
     */
    static long tolerance(double meanWeight, long segmentBytes) {
        return Math.max((long) Math.ceil(meanWeight * TOLERANCE_SHARE_OF_MEAN), Math.max(0, segmentBytes));
    }

    /**
     * Why partition {@code p} must stay as it is, or null when it may move.
     *
     * @throws InvalidAssignmentException when it holds a replica on a broker to remove and cannot move
     */
    private static String reasonToLeaveAlone(PartitionReplicas p, Map<Integer, String> rackOf, Set<Integer> remove) {
        int[] removed = Arrays.stream(p.replicas()).filter(remove::contains).toArray();
        if (p.moving()) {
            if (removed.length > 0) {
                throw new InvalidAssignmentException("cannot remove broker " + removed[0] + ": " + p.name()
                        + " is being reassigned to " + Arrays.toString(p.replicas())
                        + ", which keeps a replica there; let that reassignment finish or cancel it, then run again");
            }
            return "being reassigned to " + Arrays.toString(p.replicas()) + " already; left to that reassignment";
        }
        int[] down = Arrays.stream(p.replicas())
                .filter(id -> !rackOf.containsKey(id) && !remove.contains(id))
                .toArray();
        if (down.length > 0) {
            if (removed.length > 0) {
                throw new InvalidAssignmentException("cannot remove broker " + removed[0] + ": " + p.name() + " "
                        + Arrays.toString(p.replicas()) + " also has a replica on broker " + down[0]
                        + ", which is not live, and a reassignment may name live brokers only; bring broker "
                        + down[0] + " back or remove it as well");
            }
            return "a replica on broker " + down[0] + ", which is not live (bring it back, or remove it with "
                    + "--remove-broker " + down[0] + ")";
        }
        if (removed.length > 0 && Arrays.stream(p.replicas()).noneMatch(rackOf::containsKey)) {
            throw new InvalidAssignmentException("cannot remove broker " + removed[0] + ": " + p.name() + " "
                    + Arrays.toString(p.replicas()) + " has no replica on a live broker to copy from");
        }
        return null;
    }

    /**
     * The working assignment and the weights of the eligible brokers; partitions marked fixed count but never move.
     * Not thread-safe; one per plan.
     */
    private static final class Assignment {
        private final List<PartitionReplicas> original;
        private final boolean[] fixed;
        private final int[][] replicas;
        private final List<Integer> eligible;
        private final Map<Integer, String> rackOf;
        private final Map<Integer, Long> weight = new HashMap<>();

        Assignment(
                List<PartitionReplicas> partitions,
                boolean[] fixed,
                List<Integer> eligible,
                Map<Integer, String> rackOf) {
            this.original = partitions;
            this.fixed = fixed;
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

        /** The eligible brokers' mean weight once every replica to remove has moved onto them. */
        double meanWeight() {
            if (eligible.isEmpty()) {
                return 0;
            }
            return weight.values().stream().mapToLong(Long::longValue).sum() / (double) eligible.size();
        }

        void evacuate(Set<Integer> remove) {
            for (int i = 0; i < replicas.length; i++) {
                for (int slot = 0; slot < replicas[i].length && !fixed[i]; slot++) {
                    int from = replicas[i][slot];
                    if (!remove.contains(from)) {
                        continue;
                    }
                    int to = lightestTarget(i, slot);
                    if (to < 0) {
                        PartitionReplicas p = original.get(i);
                        throw new InvalidAssignmentException("cannot remove broker " + from + ": " + p.name() + " has "
                                + p.replicas().length + " replicas and no other broker of " + eligible
                                + " is free for it");
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

        /** Moves replicas from the heaviest to the lightest broker while they differ by more than {@code tolerance}. */
        void evenWeights(long tolerance) {
            long minGain = Math.max(1, tolerance / MIN_GAIN_DIVISOR);
            int limit = replicas.length * 4 + eligible.size();
            for (int step = 0; step < limit && eligible.size() > 1; step++) {
                int heavy = eligible.stream()
                        .max(Comparator.comparingLong(weight::get))
                        .orElseThrow();
                int light = eligible.stream()
                        .min(Comparator.comparingLong(weight::get))
                        .orElseThrow();
                long gap = weight.get(heavy) - weight.get(light);
                if (gap <= tolerance) {
                    return;
                }
                int bestPartition = -1;
                int bestSlot = -1;
                long bestDistance = Long.MAX_VALUE;
                for (int i = 0; i < replicas.length; i++) {
                    int slot = indexOf(replicas[i], heavy);
                    long w = weightOf(i);
                    long gain = gap - Math.abs(gap - 2 * w);
                    if (slot < 0
                            || fixed[i]
                            || original.get(i).sizeBytes() <= 0
                            || gain < minGain
                            || contains(replicas[i], light)
                            || !rackAllows(i, slot, light)) {
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
                    if (!fixed[i] && replicas[i][0] == most && contains(replicas[i], least)) {
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
                requireSound(p, replicas[i]);
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

        /** Fails loudly unless {@code target} keeps {@code p}'s replication factor on distinct eligible brokers. */
        private void requireSound(PartitionReplicas p, int[] target) {
            String broken = null;
            if (p.moving()) {
                broken = "it is being reassigned";
            } else if (target.length != p.replicas().length) {
                broken = "its replication factor " + p.replicas().length + " would become " + target.length;
            } else if (Arrays.stream(target).distinct().count() != target.length) {
                broken = "a broker twice";
            } else if (Arrays.stream(target).anyMatch(id -> !eligible.contains(id))) {
                broken = "a broker not live or being removed (eligible: " + eligible + ")";
            }
            if (broken != null) {
                throw new IllegalStateException("rebalance planner bug: planned " + p.name() + " "
                        + Arrays.toString(p.replicas()) + " -> " + Arrays.toString(target) + ": " + broken);
            }
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
