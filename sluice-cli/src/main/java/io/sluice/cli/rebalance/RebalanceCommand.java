package io.sluice.cli.rebalance;

import io.sluice.cli.CommandFailedException;
import io.sluice.cli.client.ClientOptions;
import io.sluice.cluster.assign.InvalidAssignmentException;
import io.sluice.cluster.assign.RebalancePlanner;
import io.sluice.cluster.assign.RebalancePlanner.Move;
import io.sluice.cluster.assign.RebalancePlanner.Plan;
import io.sluice.cluster.assign.RebalancePlanner.Skipped;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice cluster rebalance [--add-broker ID] [--remove-broker ID] [--max-concurrent-moves K] [--dry-run]}:
 * plans replica moves that even out bytes and preferred leaders across the live brokers, keeping racks apart (a mix of
 * brokers with and without a rack is refused unless {@code --disable-rack-aware}, see {@link RebalanceInputs}), and
 * empties the brokers to remove, live or down ({@link RebalancePlanner}); prints the plan and the partitions it leaves
 * alone (being reassigned already, or with a replica on a down broker that stays), then runs it through Kafka's
 * AlterPartitionReassignments at most K partitions at a time ({@link ReassignmentWaves}), also waits for reassignments
 * in progress that take replicas off the brokers to remove, and elects the preferred leaders of the partitions it
 * moved. Exits 1 with a summary when any move was refused, changed by someone else, or did not finish, or when the
 * preferred leader of a moved partition could not be elected; also when a live broker it keeps does not report its
 * partition sizes within {@code --broker-timeout-seconds} (see {@link RebalanceInputs}). Not thread-safe; one per
 * invocation.
 */
@Command(
        name = "rebalance",
        mixinStandardHelpOptions = true,
        description = "Plan and run partition moves that even out brokers (bytes and leaders), or empty some.")
public final class RebalanceCommand implements Callable<Integer> {
    private static final Duration WAVE_POLL = Duration.ofMillis(500);
    private static final double MEGABYTE = 1024.0 * 1024.0;
    /** The longest timeout accepted, a year: any longer would overflow the nanosecond arithmetic of the waits. */
    static final long MAX_TIMEOUT_SECONDS = 365L * 24 * 3600;

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Option(names = "--add-broker", paramLabel = "ID", description = "A new broker to fill (repeatable).")
    List<Integer> addBrokers = new ArrayList<>();

    @Option(
            names = "--remove-broker",
            paramLabel = "ID",
            description = "A broker to empty, live or down: it ends with no replica (repeatable).")
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
            description = "Give up waiting for the moves after this long, at most a year (31536000)"
                    + " (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Option(
            names = "--broker-timeout-seconds",
            paramLabel = "S",
            defaultValue = "15",
            description = "How long each broker is given to report its partition sizes and configuration; a broker"
                    + " that does not answer fails the command, unless it is being removed and its partitions have"
                    + " copies elsewhere; at most a year (31536000) (default: ${DEFAULT-VALUE}).")
    long brokerTimeoutSeconds;

    @Option(
            names = "--disable-rack-aware",
            description = "Plan as if no broker had a rack. Without it, racks are kept apart, and a cluster where some"
                    + " brokers the plan keeps have a rack (broker.rack) and others do not is refused, as"
                    + " kafka-reassign-partitions --generate refuses it: a broker without a rack is most likely one"
                    + " whose broker.rack was forgotten.")
    boolean disableRackAware;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (maxConcurrentMoves <= 0) {
            throw new ParameterException(
                    spec.commandLine(), "--max-concurrent-moves must be at least 1, was " + maxConcurrentMoves);
        }
        requireTimeout("--timeout-seconds", timeoutSeconds);
        requireTimeout("--broker-timeout-seconds", brokerTimeoutSeconds);
        try (Admin admin = Admin.create(client.toProperties("sluice-rebalance"))) {
            RebalanceInputs inputs = RebalanceInputs.read(
                    admin, Set.copyOf(removeBrokers), Duration.ofSeconds(brokerTimeoutSeconds), disableRackAware);
            for (String note : inputs.notes()) {
                out.println("Note: " + note);
            }
            Plan plan;
            try {
                plan = RebalancePlanner.plan(
                        inputs.brokers(),
                        inputs.partitions(),
                        Set.copyOf(removeBrokers),
                        Set.copyOf(addBrokers),
                        inputs::segmentBytesOf);
            } catch (InvalidAssignmentException e) {
                throw new CommandFailedException(e.getMessage());
            }
            List<TopicPartition> movingOff = inputs.movingOff(Set.copyOf(removeBrokers));
            printPlan(out, plan, movingOff);
            if (dryRun || (plan.moves().isEmpty() && movingOff.isEmpty())) {
                out.flush();
                return 0;
            }
            ReassignmentWaves.Outcome outcome = new ReassignmentWaves(admin, out, maxConcurrentMoves, WAVE_POLL)
                    .run(plan.moves(), movingOff, Duration.ofSeconds(timeoutSeconds));
            out.flush();
            if (!outcome.complete()) {
                throw new CommandFailedException("rebalance incomplete: " + outcome.summary()
                        + (outcome.notElected().isEmpty()
                                ? ""
                                : "; preferred leader not elected: " + outcome.notElected()));
            }
            out.println("Rebalance complete: " + outcome.summary());
        }
        out.flush();
        return 0;
    }

    private void requireTimeout(String option, long seconds) {
        if (seconds <= 0) {
            throw new ParameterException(spec.commandLine(), option + " must be at least 1, was " + seconds);
        }
        if (seconds > MAX_TIMEOUT_SECONDS) {
            throw new ParameterException(
                    spec.commandLine(),
                    option + " must be at most " + MAX_TIMEOUT_SECONDS + " (a year), was " + seconds);
        }
    }

    private static void printPlan(PrintWriter out, Plan plan, List<TopicPartition> movingOff) {
        long bytes = plan.moves().stream().mapToLong(Move::bytesMoved).sum();
        out.printf(
                Locale.ROOT,
                "Rebalance plan: %d partition move(s), %.1f MB to copy%n",
                plan.moves().size(),
                bytes / MEGABYTE);
        for (Move m : plan.moves()) {
            out.printf(
                    Locale.ROOT,
                    "  %s-%d: %s -> %s (%.1f MB)%n",
                    m.topic(),
                    m.partition(),
                    Arrays.toString(m.from()),
                    Arrays.toString(m.to()),
                    m.bytesMoved() / MEGABYTE);
        }
        if (!plan.skipped().isEmpty()) {
            out.printf(
                    Locale.ROOT, "Left alone: %d partition(s)%n", plan.skipped().size());
            for (Skipped s : plan.skipped()) {
                boolean awaited = movingOff.contains(new TopicPartition(s.topic(), s.partition()));
                out.println("  " + s
                        + (awaited ? "; it takes a replica off a broker to remove: the run waits for it" : ""));
            }
        }
        for (String note : plan.notes()) {
            out.println("Note: " + note);
        }
        out.flush();
    }
}
