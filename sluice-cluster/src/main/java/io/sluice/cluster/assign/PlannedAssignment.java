package io.sluice.cluster.assign;

import static io.sluice.cluster.state.BrokerIds.contains;

import io.sluice.cluster.assign.RebalancePlanner.Move;
import io.sluice.cluster.assign.RebalancePlanner.PartitionReplicas;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The working assignment of a {@link RebalancePlanner} run and the weights of the eligible brokers; partitions marked
 * fixed count but never move. The steps and their rules are described on {@link RebalancePlanner}.
 *
 * <p>Not thread-safe; one per plan.
 */
final class PlannedAssignment {
    /**
     * A balancing move must narrow its two brokers' gap by at least the tolerance divided by this, or by the mean
     * weight of the partitions that may move when that is less.
     */
    static final int MIN_GAIN_DIVISOR = 10;

    private final List<PartitionReplicas> original;
    private final boolean[] fixed;
    private final int[][] replicas;
    private final List<Integer> eligible;
    private final Map<Integer, String> rackOf;
    private final Set<Integer> remove;
    /** Per partition: whether one of its replicas is out of sync. */
    private final boolean[] lagging;

    private final Map<Integer, Long> weight = new HashMap<>();

    PlannedAssignment(
            List<PartitionReplicas> partitions,
            boolean[] fixed,
            List<Integer> eligible,
            Map<Integer, String> rackOf,
            Set<Integer> remove) {
        this.original = partitions;
        this.remove = remove;
        this.fixed = fixed;
        this.replicas = new int[partitions.size()][];
        this.eligible = eligible;
        this.rackOf = rackOf;
        for (int id : eligible) {
            weight.put(id, 0L);
        }
        this.lagging = new boolean[partitions.size()];
        for (int i = 0; i < partitions.size(); i++) {
            PartitionReplicas p = partitions.get(i);
            lagging[i] = Arrays.stream(p.replicas()).anyMatch(id -> !contains(p.isr(), id));
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

    /** Whether broker {@code id} holds a replica in the working assignment. */
    boolean holdsAReplica(int id) {
        for (int[] r : replicas) {
            if (contains(r, id)) {
                return true;
            }
        }
        return false;
    }

    /** Whether partition {@code i} may move for balance: not fixed, and not empty. */
    boolean balanceable(int i) {
        return !fixed[i] && original.get(i).sizeBytes() > 0;
    }

    /** The mean weight of the partitions that may move for balance; 0 when none may. */
    private long meanBalanceableWeight() {
        long total = 0;
        int count = 0;
        for (int i = 0; i < replicas.length; i++) {
            if (balanceable(i)) {
                total += weightOf(i);
                count++;
            }
        }
        return count == 0 ? 0 : total / count;
    }

    /**
     * Whether slot {@code slot} of partition {@code i} holds a replica the partition had before the plan and that is
     * out of its ISR. A replica the plan adds is not: the reassignment completes only once it has caught up.
     */
    private boolean keptOutOfSync(int i, int slot) {
        PartitionReplicas p = original.get(i);
        int id = replicas[i][slot];
        return contains(p.replicas(), id) && !contains(p.isr(), id);
    }

    /**
     * Whether {@code target} for partition {@code i} would keep one of its out-of-sync replicas while dropping one of
     * its in-sync replicas from a broker that stays (a broker being removed loses its replicas whatever their state).
     */
    private boolean keepsOutOfSyncDroppingInSync(int i, int[] target) {
        PartitionReplicas p = original.get(i);
        boolean keepsOutOfSync =
                Arrays.stream(target).anyMatch(id -> contains(p.replicas(), id) && !contains(p.isr(), id));
        boolean dropsInSync = Arrays.stream(p.replicas())
                .anyMatch(id -> contains(p.isr(), id) && !contains(target, id) && !remove.contains(id));
        return keepsOutOfSync && dropsInSync;
    }

    /**
     * Whether broker {@code id} will be an in-sync replica of partition {@code i} once the plan has run: every
     * replica of a partition whose brokers change is (its reassignment completes only when the whole target is in
     * the ISR); a partition the plan only reorders keeps its ISR.
     */
    private boolean inSyncAfterPlan(int i, int id) {
        PartitionReplicas p = original.get(i);
        boolean sameBrokers = Arrays.stream(replicas[i]).allMatch(r -> contains(p.replicas(), r));
        return !sameBrokers || contains(p.isr(), id);
    }

    /** Moves every replica off the brokers to remove. */
    void evacuate() {
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

    /**
     * While two eligible brokers differ by more than {@code tolerance} and a replica may move from the heavier to the
     * lighter, moves one: the pair is the heaviest broker that has such a replica and, for it, the lightest broker
     * that can take one.
     */
    void evenWeights(long tolerance) {
        long minGain = Math.max(1, Math.min(tolerance / MIN_GAIN_DIVISOR, meanBalanceableWeight()));
        int limit = replicas.length * 4 + eligible.size() * eligible.size();
        for (int step = 0; step < limit && eligible.size() > 1; step++) {
            Comparator<Integer> byWeight = Comparator.comparingLong(weight::get);
            List<Integer> lightestFirst = eligible.stream().sorted(byWeight).toList();
            List<Integer> heaviestFirst =
                    eligible.stream().sorted(byWeight.reversed()).toList();
            if (!moveOneForBalance(heaviestFirst, lightestFirst, tolerance, minGain)) {
                return;
            }
        }
    }

    private boolean moveOneForBalance(
            List<Integer> heaviestFirst, List<Integer> lightestFirst, long tolerance, long minGain) {
        for (int heavy : heaviestFirst) {
            for (int light : lightestFirst) {
                long gap = weight.get(heavy) - weight.get(light);
                if (gap <= tolerance) {
                    break;
                }
                int[] chosen = balancingReplica(heavy, light, gap, minGain);
                if (chosen != null) {
                    int i = chosen[0];
                    replicas[i][chosen[1]] = light;
                    weight.merge(heavy, -weightOf(i), Long::sum);
                    weight.merge(light, weightOf(i), Long::sum);
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The replica to move from {@code heavy} to {@code light} as {partition, slot}, or null: among those that narrow
     * the gap by at least {@code minGain}, keep rack spread, and leave no partition keeping an out-of-sync replica
     * while dropping an in-sync one, an out-of-sync one first, then the one whose weight comes closest to half the
     * gap.
     */
    private int[] balancingReplica(int heavy, int light, long gap, long minGain) {
        int bestPartition = -1;
        int bestSlot = -1;
        boolean bestOutOfSync = false;
        long bestDistance = Long.MAX_VALUE;
        for (int i = 0; i < replicas.length; i++) {
            int slot = indexOf(replicas[i], heavy);
            if (slot < 0 || !balanceable(i) || contains(replicas[i], light)) {
                continue;
            }
            long w = weightOf(i);
            long distance = Math.abs(gap - 2 * w);
            boolean outOfSync = lagging[i] && keptOutOfSync(i, slot);
            boolean better = (outOfSync && !bestOutOfSync) || (outOfSync == bestOutOfSync && distance < bestDistance);
            if (!better || gap - distance < minGain || !rackAllows(i, slot, light)) {
                continue;
            }
            if (lagging[i]) {
                int[] target = replicas[i].clone();
                target[slot] = light;
                if (keepsOutOfSyncDroppingInSync(i, target)) {
                    continue;
                }
            }
            bestPartition = i;
            bestSlot = slot;
            bestOutOfSync = outOfSync;
            bestDistance = distance;
        }
        return bestPartition < 0 ? null : new int[] {bestPartition, bestSlot};
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
     * While some partition could list first a replica whose broker is preferred at least two partitions fewer than
     * its preferred broker's, and that will be in sync once the plan has run, the widest such gap is closed by one
     * such reorder. A reorder moves no data; an out-of-sync replica would not be elected.
     */
    void evenPreferredLeaders() {
        Map<Integer, Integer> preferred = new HashMap<>();
        for (int id : eligible) {
            preferred.put(id, 0);
        }
        for (int[] r : replicas) {
            preferred.computeIfPresent(r[0], (k, n) -> n + 1);
        }
        long limit = (long) replicas.length * Math.max(1, eligible.size());
        for (long step = 0; step < limit && eligible.size() > 1; step++) {
            int chosen = -1;
            int chosenAt = -1;
            int widest = 1;
            for (int i = 0; i < replicas.length; i++) {
                int[] r = replicas[i];
                Integer most = preferred.get(r[0]);
                if (fixed[i] || most == null) {
                    continue;
                }
                for (int at = 1; at < r.length; at++) {
                    Integer fewer = preferred.get(r[at]);
                    if (fewer != null && most - fewer > widest && inSyncAfterPlan(i, r[at])) {
                        chosen = i;
                        chosenAt = at;
                        widest = most - fewer;
                    }
                }
            }
            if (chosen < 0) {
                return;
            }
            int[] r = replicas[chosen];
            int from = r[0];
            int to = r[chosenAt];
            System.arraycopy(r, 0, r, 1, chosenAt);
            r[0] = to;
            preferred.merge(from, -1, Integer::sum);
            preferred.merge(to, 1, Integer::sum);
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

    private static int indexOf(int[] ids, int id) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        return -1;
    }
}
