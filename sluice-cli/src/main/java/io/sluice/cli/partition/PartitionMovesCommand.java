package io.sluice.cli.partition;

import io.sluice.cli.client.ClientOptions;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice partition moves [--watch] [--interval-ms N]}: the partition moves in progress with their phase, bytes
 * shipped of total, rate and ETA. With {@code --watch} it reads again every interval until no move is left: on a
 * terminal the lines are redrawn in place as progress bars; piped, each reading is printed as plain lines.
 * Not thread-safe; one per invocation.
 */
@Command(name = "moves", mixinStandardHelpOptions = true, description = "Show partition moves in progress.")
public final class PartitionMovesCommand implements Callable<Integer> {
    /** ANSI: cursor up one line, then erase the line. */
    private static final String UP_AND_ERASE = "\u001b[1A\u001b[2K";

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

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        boolean terminal = System.console() != null;
        try (Admin admin = Admin.create(client.toProperties("sluice-partition-moves"))) {
            MoveProgressReader reader = new MoveProgressReader(admin);
            Map<String, Long> previous = new HashMap<>();
            long previousAt = 0;
            int drawnLines = 0;
            while (true) {
                List<MoveProgress> moves = reader.read();
                long now = System.nanoTime();
                double elapsed = previousAt == 0 ? 0 : (now - previousAt) / 1e9;
                if (terminal && drawnLines > 0) {
                    out.print(UP_AND_ERASE.repeat(drawnLines));
                }
                if (moves.isEmpty()) {
                    out.println("No partition moves in progress.");
                    out.flush();
                    return 0;
                }
                Map<String, Long> shipped = new HashMap<>();
                for (MoveProgress m : moves) {
                    out.println(MoveProgressFormat.line(m, previous, elapsed));
                    shipped.put(m.name(), m.shippedBytes());
                }
                out.flush();
                if (!watch) {
                    return 0;
                }
                drawnLines = moves.size();
                previous = shipped;
                previousAt = now;
                Thread.sleep(intervalMs);
            }
        }
    }
}
