package io.sluice.cli.rebalance;

import io.sluice.cli.CommandFailedException;
import io.sluice.cli.client.ClientOptions;
import io.sluice.cluster.assign.InvalidAssignmentException;
import io.sluice.cluster.assign.RebalancePlanner;
import io.sluice.cluster.assign.RebalancePlanner.Move;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice cluster rebalance [--add-broker ID] [--remove-broker ID] [--max-concurrent-moves K] [--dry-run]}:
 * plans replica moves that even out bytes and preferred leaders across the live brokers, keeping racks apart, and
 * empties the brokers to remove ({@link RebalancePlanner}); prints the plan, then runs it through Kafka's
 * AlterPartitionReassignments at most K partitions at a time, waits for each wave to finish, and elects the
 * preferred leaders of the partitions it moved. Not thread-safe; one per invocation.
 */
@Command(
        name = "rebalance",
        mixinStandardHelpOptions = true,
        description = "Plan and run partition moves that even out brokers (bytes and leaders), or empty some.")
public final class RebalanceCommand implements Callable<Integer> {
    private static final Duration WAVE_POLL = Duration.ofMillis(500);
    private static final double MEGABYTE = 1024.0 * 1024.0;

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Option(names = "--add-broker", paramLabel = "ID", description = "A new broker to fill (repeatable).")
    List<Integer> addBrokers = new ArrayList<>();

    @Option(
            names = "--remove-broker",
            paramLabel = "ID",
            description = "A broker to empty: it ends with no replica (repeatable).")
    List<Integer> removeBrokers = new ArrayList<>();

    @Option(
            names = "--max-concurrent-moves",
            paramLabel = "K",
            defaultValue = "5",
            description = "Partitions moving at once (default: ${DEFAULT-VALUE}).")
    int maxConcurrentMoves;

    @Option(names = "--dry-run", description = "Print the plan and change nothing.")
    boolean dryRun;

    @Option(
            names = "--timeout-seconds",
            paramLabel = "S",
            defaultValue = "3600",
            description = "Give up waiting for the moves after this long (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (maxConcurrentMoves <= 0) {
            throw new CommandFailedException("--max-concurrent-moves must be at least 1, was " + maxConcurrentMoves);
        }
        try (Admin admin = Admin.create(client.toProperties("sluice-rebalance"))) {
            RebalanceInputs inputs = RebalanceInputs.read(admin);
            List<Move> plan;
            try {
                plan = RebalancePlanner.plan(
                        inputs.brokers(), inputs.partitions(), Set.copyOf(removeBrokers), Set.copyOf(addBrokers));
            } catch (InvalidAssignmentException e) {
                throw new CommandFailedException(e.getMessage());
            }
            printPlan(out, plan);
            if (dryRun || plan.isEmpty()) {
                out.flush();
                return 0;
            }
            long deadline =
                    System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
            for (int from = 0; from < plan.size(); from += maxConcurrentMoves) {
                List<Move> wave = plan.subList(from, Math.min(plan.size(), from + maxConcurrentMoves));
                runWave(admin, out, wave, deadline);
            }
            electPreferred(admin, out, plan);
        }
        out.flush();
        return 0;
    }

    private static void printPlan(PrintWriter out, List<Move> plan) {
        long bytes = plan.stream().mapToLong(Move::bytesMoved).sum();
        out.printf(
                Locale.ROOT, "Rebalance plan: %d partition move(s), %.1f MB to copy%n", plan.size(), bytes / MEGABYTE);
        for (Move m : plan) {
            out.printf(
                    Locale.ROOT,
                    "  %s-%d: %s -> %s (%.1f MB)%n",
                    m.topic(),
                    m.partition(),
                    Arrays.toString(m.from()),
                    Arrays.toString(m.to()),
                    m.bytesMoved() / MEGABYTE);
        }
        out.flush();
    }

    private static void runWave(Admin admin, PrintWriter out, List<Move> wave, long deadline) throws Exception {
        Map<TopicPartition, Optional<NewPartitionReassignment>> targets = new LinkedHashMap<>();
        for (Move m : wave) {
            List<Integer> to = Arrays.stream(m.to()).boxed().toList();
            targets.put(new TopicPartition(m.topic(), m.partition()), Optional.of(new NewPartitionReassignment(to)));
        }
        admin.alterPartitionReassignments(targets).all().get();
        out.printf(Locale.ROOT, "Started %d move(s): %s%n", wave.size(), targets.keySet());
        out.flush();
        Set<TopicPartition> pending = new LinkedHashSet<>(targets.keySet());
        while (true) {
            pending.retainAll(admin.listPartitionReassignments(pending)
                    .reassignments()
                    .get()
                    .keySet());
            if (pending.isEmpty()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new CommandFailedException("moves still in progress at the timeout: " + pending
                        + "; they go on in the cluster (see kafka-reassign-partitions.sh --list)");
            }
            Thread.sleep(WAVE_POLL.toMillis());
        }
        out.printf(Locale.ROOT, "Finished %d move(s)%n", wave.size());
        out.flush();
    }

    private static void electPreferred(Admin admin, PrintWriter out, List<Move> plan) throws InterruptedException {
        Set<TopicPartition> moved = new LinkedHashSet<>();
        for (Move m : plan) {
            moved.add(new TopicPartition(m.topic(), m.partition()));
        }
        Map<TopicPartition, Optional<Throwable>> results;
        try {
            results = admin.electLeaders(ElectionType.PREFERRED, moved)
                    .partitions()
                    .get();
        } catch (java.util.concurrent.ExecutionException e) {
            out.println("Preferred leader election failed: " + e.getCause().getMessage());
            return;
        }
        long elected = results.values().stream().filter(Optional::isEmpty).count();
        out.printf(Locale.ROOT, "Elected the preferred leader of %d partition(s)%n", elected);
    }
}
