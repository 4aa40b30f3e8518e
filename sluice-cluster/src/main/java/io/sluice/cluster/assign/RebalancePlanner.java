package io.sluice.cluster.assign;

import static io.sluice.cluster.state.BrokerIds.contains;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * Plans a rebalance of partition replicas over live brokers, a pure function (what Kafka needs Cruise Control for):
 * <ol>
 *   <li>every replica on a broker being removed, live or not, moves to the eligible broker with the least weight that
 *       the partition does not use yet, on a rack the partition does not use yet while one is left;</li>
 *   <li>then, while two eligible brokers differ by more than the {@linkplain #tolerance tolerance}, one replica moves
 *       from the heavier to the lighter, the heaviest broker that can give one first, to the lightest broker that can
 *       take it: among the replicas that narrow the gap of the two by at least a tenth of the tolerance (or by the
 *       mean weight of the partitions that may move, when that is less: many small partitions must still be able to
 *       fill a new broker, while a partition far smaller than most does not move for balance), never onto a
 *       rack the partition already uses when it did not before, an out-of-sync replica first, then the one whose
 *       weight comes closest to half the gap; empty partitions never move for balance;</li>
 *   <li>last, each partition's preferred replica (listed first) is chosen so preferred leaderships even out, the
 *       widest gap first: a reorder moves no data.</li>
 * </ol>
 * A replica weighs its partition's size in bytes plus one. The stopping rules depend on the assignment and the ISRs
 * alone, so planning again from a plan's result plans nothing when every replica was in sync; with replicas out of
 * sync, a second run may move what they held back (the partitions moved are then in sync).
 *
 * <p>In-sync replicas. A reassignment completes only once every target replica is in the ISR, and the replicas it
 * removes serve until then, so a move never takes an in-sync replica away while it runs; what the plan controls is
 * which replicas the target keeps, and which one it lists first:
 * <ul>
 *   <li>a balancing move never leaves a partition's target keeping one of its out-of-sync replicas while dropping one
 *       of its in-sync replicas: that reassignment would complete only once the lagging replica has caught up, if
 *       ever, and give up a replica that is in sync; the plan moves the out-of-sync replica, or none of that
 *       partition;</li>
 *   <li>between balancing moves of the same broker pair, moving an out-of-sync replica is preferred (a fresh copy
 *       replaces a lagging one);</li>
 *   <li>a reorder lists first only a replica that will be in the ISR once the plan has run (the preferred-leader
 *       election that follows elects only from the ISR): an in-sync replica of a partition whose brokers stay, or any
 *       target replica of a partition that moves (its reassignment completes with every target replica in sync);</li>
 *   <li>emptying a broker to remove moves its replica whatever the ISR: a target that keeps an out-of-sync replica
 *       completes only once that replica has caught up; removing a broker from a partition with no in-sync replica on
 *       a live broker is refused, as no new replica could ever catch up.</li>
 * </ul>
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

    /** A live broker. Immutable. */
    public record Broker(int id, String rack) {}

    /**
     * A partition's replicas (preferred first), its in-sync replicas, and its size in bytes (0 when unknown).
     *
     * @param replicas where the partition is, or, when {@code moving}, its reassignment's target replicas
     * @param isr      the replicas in sync with the leader (ignored when {@code moving})
     * @param moving   whether a reassignment of the partition is in progress
     */
    public record PartitionReplicas(
            String topic, int partition, int[] replicas, int[] isr, long sizeBytes, boolean moving) {
        /** A partition that is not being reassigned, every replica in sync. */
        public PartitionReplicas(String topic, int partition, int[] replicas, long sizeBytes) {
            this(topic, partition, replicas, replicas, sizeBytes, false);
        }

        /** A partition, every replica in sync. */
        public PartitionReplicas(String topic, int partition, int[] replicas, long sizeBytes, boolean moving) {
            this(topic, partition, replicas, replicas, sizeBytes, moving);
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
     * neither live nor holds a replica has nothing to move off it; a broker to add that the plan leaves empty).
     */
    public record Plan(List<Move> moves, List<Skipped> skipped, List<String> notes) {}

    private RebalancePlanner() {}

    /**
     * The moves that empty {@code remove} and even out the others, every topic with segments of
     * {@code segmentBytes}.
     *
     * @see #plan(List, List, Set, Set, ToLongFunction)
     */
    public static Plan plan(
            List<Broker> live,
            List<PartitionReplicas> partitions,
            Set<Integer> remove,
            Set<Integer> add,
            long segmentBytes) {
        return plan(live, partitions, remove, add, topic -> segmentBytes);
    }

    /**
     * The moves that empty {@code remove} and even out the others.
     *
     * @param segmentBytesOf each topic's effective {@code segment.bytes}; see {@link #tolerance}
     * @throws InvalidAssignmentException when a broker to add is not live, a broker is both added and removed, too few
     *                                    brokers remain for some partition's replication factor, or a partition on a
     *                                    broker to remove cannot move (see the class comment)
     */
    public static Plan plan(
            List<Broker> live,
            List<PartitionReplicas> partitions,
            Set<Integer> remove,
            Set<Integer> add,
            ToLongFunction<String> segmentBytesOf) {
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
        PlannedAssignment plan = new PlannedAssignment(partitions, fixed, eligible, rackOf, remove);
        long segmentBytes = 0;
        for (int i = 0; i < partitions.size(); i++) {
            if (plan.balanceable(i)) {
                segmentBytes = Math.max(
                        segmentBytes,
                        segmentBytesOf.applyAsLong(partitions.get(i).topic()));
            }
        }
        plan.evacuate();
        long tolerance = tolerance(plan.meanWeight(), segmentBytes);
        plan.evenWeights(tolerance);
        plan.evenPreferredLeaders();
        for (int id : new TreeSet<>(add)) {
            if (!plan.holdsAReplica(id)) {
                notes.add("broker " + id + " to add gets no replica: no move evens out the brokers more (they count"
                        + " as even within " + tolerance
                        + " bytes: a tenth of the mean broker, at least one segment of "
                        + segmentBytes + " bytes)");
            }
        }
        return new Plan(plan.moves(), List.copyOf(skipped), List.copyOf(notes));
    }

    /**
     * The byte gap between the heaviest and the lightest eligible broker below which they count as even: a tenth of
     * the mean broker weight, and at least one segment ({@code segmentBytes}), the granularity at which retention
     * changes a partition's size on disk. Topics may set their own {@code segment.bytes}: the segment is the largest
     * effective {@code segment.bytes} among the topics with a partition that may move for balance (not left alone
     * and not empty), since a broker holding any of them may gain or lose that much at once.
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
        if (removed.length > 0 && Arrays.stream(p.isr()).noneMatch(rackOf::containsKey)) {
            throw new InvalidAssignmentException("cannot remove broker " + removed[0] + ": " + p.name() + " "
                    + Arrays.toString(p.replicas()) + " has no in-sync replica on a live broker (ISR "
                    + Arrays.toString(p.isr()) + "): a new replica could never catch up, so the move would never "
                    + "complete; bring an in-sync broker back first");
        }
        return null;
    }
}
