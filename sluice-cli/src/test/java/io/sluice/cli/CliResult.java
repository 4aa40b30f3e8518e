package io.sluice.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * A command run in this JVM: its exit code and what it printed to picocli's out and err writers.
 * Immutable; the static runners are not thread-safe (one command line per call).
 *
 * @param exitCode what {@code execute} returned
 * @param out      picocli's out writer
 * @param err      picocli's err writer (one-line errors land here)
 */
public record CliResult(int exitCode, String out, String err) {

    /** Runs {@code sluice ARGS...} as {@link SluiceCli#main} would, without exiting. */
    public static CliResult run(String... args) {
        return execute(SluiceCli.commandLine(), args);
    }

    /** Runs {@code commandLine} with captured out and err writers. */
    public static CliResult execute(CommandLine commandLine, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new CliResult(exitCode, out.toString(), err.toString());
    }
}
