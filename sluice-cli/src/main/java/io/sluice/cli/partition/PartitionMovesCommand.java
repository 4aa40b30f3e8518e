package io.sluice.cli.partition;

import io.sluice.cli.client.ClientOptions;
import io.sluice.cli.console.LiveLines;
import io.sluice.cli.console.TerminalSize;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice partition moves [--watch] [--interval-ms N] [--broker-timeout-ms MS]}: the partition moves in
 * progress with their phase, bytes shipped of total, rate and ETA (a broker that does not report its copies in time is
 * named, its copies counted as empty). With {@code --watch} it reads again every interval until no move is left: on a
 * terminal the lines are redrawn in place as progress bars, each cut to the terminal's width, as many as fit its
 * height ({@link LiveLines}); piped, each reading is printed as plain lines, whole. Without {@code --watch} the one
 * reading is printed whole, on a terminal too: nothing is redrawn, so nothing may be cut. Not thread-safe; one per
 * invocation.
 */
@Command(name = "moves", mixinStandardHelpOptions = true, description = "Show partition moves in progress.")
public final class PartitionMovesCommand implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Option(names = "--watch", description = "Keep reading until no move is left.")
    boolean watch;

    @Option(
            names = "--interval-ms",
            paramLabel = "N",
            defaultValue = "1000",
            description = "Time between readings with --watch (default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(
            names = "--broker-timeout-ms",
            paramLabel = "MS",
            defaultValue = "5000",
            description = "How long each broker is given to report the size of its copies; one that does not is named"
                    + " and its copies count as empty (default: ${DEFAULT-VALUE}).")
    long brokerTimeoutMs;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (intervalMs <= 0) {
            throw new ParameterException(spec.commandLine(), "--interval-ms must be at least 1, was " + intervalMs);
        }
        if (brokerTimeoutMs <= 0) {
            throw new ParameterException(
                    spec.commandLine(), "--broker-timeout-ms must be at least 1, was " + brokerTimeoutMs);
        }
        boolean redraw = watch && System.console() != null;
        try (Admin admin = Admin.create(client.toProperties("sluice-partition-moves"))) {
            MoveProgressReader reader = new MoveProgressReader(admin, Duration.ofMillis(brokerTimeoutMs));
            Map<String, Long> previous = new HashMap<>();
            long previousAt = 0;
            LiveLines screen = new LiveLines(System.lineSeparator());
            while (true) {
                List<MoveProgress> moves = reader.read();
                long now = System.nanoTime();
                double elapsed = previousAt == 0 ? 0 : (now - previousAt) / 1e9;
                List<String> lines = new ArrayList<>();
                Map<String, Long> shipped = new HashMap<>();
                for (MoveProgress m : moves) {
                    lines.add(MoveProgressFormat.line(m, previous, elapsed));
                    shipped.put(m.name(), m.shippedBytes());
                }
                if (moves.isEmpty()) {
                    lines.add("No partition moves in progress.");
                } else if (!reader.silentBrokers().isEmpty()) {
                    lines.add("Broker(s) " + reader.silentBrokers() + " did not report their copies within "
                            + brokerTimeoutMs + " ms: counted as empty");
                }
                if (redraw) {
                    out.print(screen.frame(lines, TerminalSize.now()));
                } else {
                    lines.forEach(out::println);
                }
                out.flush();
                if (!watch || moves.isEmpty()) {
                    return 0;
                }
                previous = shipped;
                previousAt = now;
                Thread.sleep(intervalMs);
            }
        }
    }
}
