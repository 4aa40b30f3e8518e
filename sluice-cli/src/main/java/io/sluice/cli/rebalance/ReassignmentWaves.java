package io.sluice.cli.rebalance;

import io.sluice.cluster.assign.RebalancePlanner.Move;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;

/**
 * Runs a plan's moves through Kafka's AlterPartitionReassignments, at most K partitions at a time, each wave waited on
 * until its reassignments are done, then elects the preferred leaders of the moved partitions. Each partition stands
 * alone: one the controller refuses is reported with its error while the others of its wave are waited on and later
 * waves still run; one whose request failed as a whole (a timeout, a lost connection) is checked against the
 * controller's list of reassignments and the replicas, and waited on like the others when it was applied nonetheless,
 * so no move runs unwatched and no wave starts while more than K could still be moving; a partition whose replicas
 * changed or that started moving since the plan was made is not touched. At the timeout no further wave starts. The
 * {@link Outcome} says what became of every move, and of the preferred leader election of each moved partition: one
 * that failed leaves the run incomplete, as its leadership is not where the plan put it.
 *
 * <p>Not thread-safe; one per run, driven by one thread.
 */
public final class ReassignmentWaves {
    private final Admin admin;
    private final PrintWriter out;
    private final int maxConcurrentMoves;
    private final Duration poll;

    /**
     * What became of a plan's moves (and of the reassignments in progress it waited for).
     *
     * @param finished   partitions now on their planned replicas
     * @param refused    partitions the controller refused, with its error
     * @param changed    partitions not submitted or not ending on the plan's replicas, with what changed
     * @param unfinished partitions still being reassigned at the timeout
     * @param notStarted partitions of waves not started because the timeout had passed
     * @param notElected finished partitions whose preferred leader could not be elected, with the error
     */
    public record Outcome(
            List<TopicPartition> finished,
            Map<TopicPartition, String> refused,
            Map<TopicPartition, String> changed,
            List<TopicPartition> unfinished,
            List<TopicPartition> notStarted,
            Map<TopicPartition, String> notElected) {

        /** Whether every move finished as planned, its partition led by its preferred replica. */
        public boolean complete() {
            return refused.isEmpty()
                    && changed.isEmpty()
                    && unfinished.isEmpty()
                    && notStarted.isEmpty()
                    && notElected.isEmpty();
        }

        public String summary() {
            return String.format(
                    Locale.ROOT,
                    "%d finished, %d refused, %d changed by others, %d still moving at the timeout, %d not started,"
                            + " %d without their preferred leader",
                    finished.size(),
                    refused.size(),
                    changed.size(),
                    unfinished.size(),
                    notStarted.size(),
                    notElected.size());
        }
    }

    public ReassignmentWaves(Admin admin, PrintWriter out, int maxConcurrentMoves, Duration poll) {
        if (maxConcurrentMoves <= 0) {
            throw new IllegalArgumentException("at least one move at a time, was " + maxConcurrentMoves);
        }
        this.admin = admin;
        this.out = out;
        this.maxConcurrentMoves = maxConcurrentMoves;
        this.poll = poll;
    }

    /**
     * Runs {@code plan}, then waits for {@code alsoAwait} (reassignments in progress the plan relies on), all within
     * {@code timeout}.
     */
    public Outcome run(List<Move> plan, Collection<TopicPartition> alsoAwait, Duration timeout)
            throws ExecutionException, InterruptedException {
        long deadline = deadlineAfter(timeout);
        Map<TopicPartition, Move> accepted = new LinkedHashMap<>();
        Map<TopicPartition, String> refused = new LinkedHashMap<>();
        Map<TopicPartition, String> changed = new LinkedHashMap<>();
        List<TopicPartition> unfinished = new ArrayList<>();
        List<TopicPartition> notStarted = new ArrayList<>();
        for (int from = 0; from < plan.size(); from += maxConcurrentMoves) {
            List<Move> wave = plan.subList(from, Math.min(plan.size(), from + maxConcurrentMoves));
            if (!unfinished.isEmpty() || passed(deadline)) {
                wave.forEach(m -> notStarted.add(partitionOf(m)));
                continue;
            }
            Map<TopicPartition, Move> started = startWave(wave, refused, changed);
            accepted.putAll(started);
            List<TopicPartition> pending = awaitReassignments(started.keySet(), deadline);
            unfinished.addAll(pending);
            if (pending.isEmpty() && !started.isEmpty()) {
                out.printf(Locale.ROOT, "Finished %d move(s)%n", started.size());
                out.flush();
            }
        }
        if (!alsoAwait.isEmpty() && unfinished.isEmpty()) {
            out.printf(
                    Locale.ROOT,
                    "Waiting for %d reassignment(s) in progress that take replicas off the brokers to remove: %s%n",
                    alsoAwait.size(),
                    alsoAwait);
            out.flush();
            unfinished.addAll(awaitReassignments(Set.copyOf(alsoAwait), deadline));
        }
        if (!unfinished.isEmpty()) {
            out.println("Still moving at the timeout: " + unfinished
                    + "; they go on in the cluster (see sluice partition moves)");
        }
        List<TopicPartition> finished = onTarget(accepted, unfinished, changed, deadline);
        Map<TopicPartition, String> notElected = electPreferred(finished);
        out.flush();
        return new Outcome(List.copyOf(finished), refused, changed, unfinished, notStarted, notElected);
    }

    /** {@link System#nanoTime()} {@code timeout} from now; a longer timeout than ~146 years waits that long. */
    private static long deadlineAfter(Duration timeout) {
        long nanos =
                timeout.compareTo(Duration.ofNanos(Long.MAX_VALUE / 2)) > 0 ? Long.MAX_VALUE / 2 : timeout.toNanos();
        return System.nanoTime() + nanos;
    }

    /** Whether {@code deadline} has passed, compared as {@link System#nanoTime()} requires: by the difference. */
    private static boolean passed(long deadline) {
        return System.nanoTime() - deadline > 0;
    }

    /** The Kafka error behind a failed future: its class and the broker's message. */
    private static String reasonOf(ExecutionException failed) {
        Throwable cause = failed.getCause() == null ? failed : failed.getCause();
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    private static TopicPartition partitionOf(Move m) {
        return new TopicPartition(m.topic(), m.partition());
    }

    private static List<Integer> boxed(int[] ids) {
        return Arrays.stream(ids).boxed().toList();
    }

    /**
     * Submits the moves of {@code wave} whose partitions are still as planned and returns those the controller
     * accepted; the others go to {@code refused} or {@code changed}.
     */
    private Map<TopicPartition, Move> startWave(
            List<Move> wave, Map<TopicPartition, String> refused, Map<TopicPartition, String> changed)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, Move> asPlanned = stillAsPlanned(wave, changed);
        Map<TopicPartition, Optional<NewPartitionReassignment>> targets = new LinkedHashMap<>();
        asPlanned.forEach((tp, m) -> targets.put(tp, Optional.of(new NewPartitionReassignment(boxed(m.to())))));
        Map<TopicPartition, Move> accepted = new LinkedHashMap<>();
        if (targets.isEmpty()) {
            return accepted;
        }
        Map<TopicPartition, KafkaFuture<Void>> results =
                admin.alterPartitionReassignments(targets).values();
        Map<TopicPartition, String> failed = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, Move> e : asPlanned.entrySet()) {
            try {
                results.get(e.getKey()).get();
                accepted.put(e.getKey(), e.getValue());
            } catch (ExecutionException refusal) {
                failed.put(e.getKey(), reasonOf(refusal));
            }
        }
        Set<TopicPartition> appliedAnyway = appliedAnyway(failed.keySet(), asPlanned);
        failed.forEach((tp, reason) -> {
            Move m = asPlanned.get(tp);
            if (appliedAnyway.contains(tp)) {
                accepted.put(tp, m);
                out.println("Started " + m + " although its request failed (" + reason
                        + "): the controller lists it moving to its target, or it is there already");
            } else {
                refused.put(tp, reason);
                out.println("Refused " + m + ": " + reason);
            }
        });
        if (!accepted.isEmpty()) {
            out.printf(Locale.ROOT, "Started %d move(s): %s%n", accepted.size(), accepted.keySet());
        }
        out.flush();
        return accepted;
    }

    /**
     * Which of the {@code failed} partitions the controller applied nonetheless: a request that failed as a whole (a
     * timeout, a lost connection) may have been applied before its answer was lost, and such a move runs and counts
     * against the moves at a time. One applied is listed as being reassigned to its planned target, or, done already,
     * described on that target (read until two readings agree, as metadata may trail the controller's).
     */
    private Set<TopicPartition> appliedAnyway(Set<TopicPartition> failed, Map<TopicPartition, Move> moves)
            throws ExecutionException, InterruptedException {
        Set<TopicPartition> applied = new LinkedHashSet<>();
        if (failed.isEmpty()) {
            return applied;
        }
        Map<TopicPartition, PartitionReassignment> listed =
                admin.listPartitionReassignments(failed).reassignments().get();
        Set<TopicPartition> notListed = new LinkedHashSet<>(failed);
        notListed.removeAll(listed.keySet());
        Map<TopicPartition, List<Integer>> current = settledReplicas(notListed);
        for (TopicPartition tp : failed) {
            List<Integer> planned = boxed(moves.get(tp).to());
            PartitionReassignment moving = listed.get(tp);
            List<Integer> reached = moving == null ? current.get(tp) : boxed(RebalanceInputs.target(moving));
            if (planned.equals(reached)) {
                applied.add(tp);
            }
        }
        return applied;
    }

    /** The moves of {@code wave} whose partitions still have the plan's replicas and are not being reassigned. */
    private Map<TopicPartition, Move> stillAsPlanned(List<Move> wave, Map<TopicPartition, String> changed)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, Move> byPartition = new LinkedHashMap<>();
        wave.forEach(m -> byPartition.put(partitionOf(m), m));
        Set<TopicPartition> moving = admin.listPartitionReassignments(byPartition.keySet())
                .reassignments()
                .get()
                .keySet();
        Map<TopicPartition, List<Integer>> current = settledReplicas(byPartition.keySet());
        Map<TopicPartition, Move> asPlanned = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, Move> e : byPartition.entrySet()) {
            List<Integer> now = current.get(e.getKey());
            String why = null;
            if (moving.contains(e.getKey())) {
                why = "a reassignment started since the plan was made";
            } else if (now == null) {
                why = "the partition is gone";
            } else if (!now.equals(boxed(e.getValue().from()))) {
                why = "its replicas are now " + now;
            }
            if (why == null) {
                asPlanned.put(e.getKey(), e.getValue());
            } else {
                changed.put(e.getKey(), why);
                out.println("Not moved " + e.getValue() + ": " + why);
            }
        }
        return asPlanned;
    }

    /**
     * Each partition's replicas as the cluster describes them, read again {@link #poll} apart until two readings in a
     * row agree (at most {@link RebalanceInputs#MAX_ASSIGNMENT_READS}): a broker whose metadata trails the
     * controller's may still describe a move that just completed as its target plus the replicas it removed, and a
     * move planned from that would add a replica.
     */
    private Map<TopicPartition, List<Integer>> settledReplicas(Collection<TopicPartition> partitions)
            throws InterruptedException {
        Map<TopicPartition, List<Integer>> last = currentReplicas(partitions);
        for (int reads = 1; reads < RebalanceInputs.MAX_ASSIGNMENT_READS; reads++) {
            Thread.sleep(poll.toMillis());
            Map<TopicPartition, List<Integer>> again = currentReplicas(partitions);
            if (again.equals(last)) {
                return again;
            }
            last = again;
        }
        return last;
    }

    /** Each partition's replicas as the cluster describes them; a partition of a topic gone is left out. */
    private Map<TopicPartition, List<Integer>> currentReplicas(Collection<TopicPartition> partitions)
            throws InterruptedException {
        Set<String> topics = new LinkedHashSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        Map<TopicPartition, List<Integer>> replicas = new HashMap<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e :
                admin.describeTopics(topics).topicNameValues().entrySet()) {
            TopicDescription topic;
            try {
                topic = e.getValue().get();
            } catch (ExecutionException gone) {
                continue;
            }
            for (TopicPartitionInfo p : topic.partitions()) {
                replicas.put(
                        new TopicPartition(e.getKey(), p.partition()),
                        p.replicas().stream().map(Node::id).toList());
            }
        }
        return replicas;
    }

    /** Waits until none of {@code partitions} is being reassigned; returns those still moving at the deadline. */
    private List<TopicPartition> awaitReassignments(Set<TopicPartition> partitions, long deadline)
            throws ExecutionException, InterruptedException {
        Set<TopicPartition> pending = new LinkedHashSet<>(partitions);
        while (!pending.isEmpty()) {
            pending.retainAll(admin.listPartitionReassignments(pending)
                    .reassignments()
                    .get()
                    .keySet());
            if (pending.isEmpty() || passed(deadline)) {
                break;
            }
            Thread.sleep(poll.toMillis());
        }
        return new ArrayList<>(pending);
    }

    /**
     * The accepted moves that are done and whose partitions ended on the planned replicas; one that ended elsewhere
     * (its reassignment cancelled or replaced by someone else) goes to {@code changed}. The controller answers
     * whether a reassignment is in progress, but any broker may answer the replicas, from metadata that can trail the
     * controller's by a moment: the replicas are read until two readings in a row agree (a reorder, which completes at
     * once, was read back in its old order and reported as changed by others), and while a partition is still
     * described as moving to its target (the target followed by the replicas it removes), it is described again, until
     * {@code deadline}.
     */
    private List<TopicPartition> onTarget(
            Map<TopicPartition, Move> accepted,
            List<TopicPartition> unfinished,
            Map<TopicPartition, String> changed,
            long deadline)
            throws InterruptedException {
        Map<TopicPartition, Move> done = new LinkedHashMap<>(accepted);
        unfinished.forEach(done::remove);
        Map<TopicPartition, List<Integer>> current = settledReplicas(done.keySet());
        while (!passed(deadline) && describedAsMoving(done, current)) {
            Thread.sleep(poll.toMillis());
            current = settledReplicas(done.keySet());
        }
        List<TopicPartition> finished = new ArrayList<>();
        for (Map.Entry<TopicPartition, Move> e : done.entrySet()) {
            List<Integer> now = current.get(e.getKey());
            if (boxed(e.getValue().to()).equals(now)) {
                finished.add(e.getKey());
            } else {
                String why = "ended on " + now + ", not the planned "
                        + boxed(e.getValue().to());
                changed.put(e.getKey(), why);
                out.println("Not as planned: " + e.getKey() + " " + why);
            }
        }
        return finished;
    }

    /** Whether a move of {@code moves} that removes a replica is described as still running by {@code current}. */
    private static boolean describedAsMoving(
            Map<TopicPartition, Move> moves, Map<TopicPartition, List<Integer>> current) {
        for (Map.Entry<TopicPartition, Move> e : moves.entrySet()) {
            Move m = e.getValue();
            int[] removing = Arrays.stream(m.from())
                    .filter(id -> Arrays.stream(m.to()).noneMatch(t -> t == id))
                    .toArray();
            if (removing.length > 0
                    && boxed(IntStream.concat(Arrays.stream(m.to()), Arrays.stream(removing))
                                    .toArray())
                            .equals(current.get(e.getKey()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Elects the preferred leaders of {@code moved}; returns the partitions whose election failed (the election not
     * needed is no failure), with the error, each failure also printed as one line naming the partitions and the error.
     */
    private Map<TopicPartition, String> electPreferred(List<TopicPartition> moved) throws InterruptedException {
        Map<TopicPartition, String> failed = new LinkedHashMap<>();
        if (moved.isEmpty()) {
            return failed;
        }
        Map<TopicPartition, Optional<Throwable>> results;
        try {
            results = admin.electLeaders(ElectionType.PREFERRED, Set.copyOf(moved))
                    .partitions()
                    .get();
        } catch (ExecutionException e) {
            String reason = reasonOf(e);
            moved.forEach(tp -> failed.put(tp, reason));
            out.println("Preferred leader election failed for " + moved + ": " + reason);
            return failed;
        }
        int elected = 0;
        int alreadyLeading = 0;
        for (TopicPartition tp : moved) {
            Optional<Throwable> result = results.get(tp);
            Throwable error = result == null ? null : result.orElse(null);
            if (result == null) {
                failed.put(tp, "no answer for this partition");
            } else if (error == null) {
                elected++;
            } else if (error instanceof ElectionNotNeededException) {
                alreadyLeading++;
            } else {
                failed.put(tp, error.getClass().getSimpleName() + ": " + error.getMessage());
            }
        }
        out.printf(
                Locale.ROOT,
                "Elected the preferred leader of %d partition(s); it already led %d%n",
                elected,
                alreadyLeading);
        failed.forEach((tp, reason) -> out.println("Preferred leader election failed for " + tp + ": " + reason));
        return failed;
    }
}
