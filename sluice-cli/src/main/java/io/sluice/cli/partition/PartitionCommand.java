package io.sluice.cli.partition;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sluice partition moves}. Not thread-safe; one per invocation.
 */
@Command(
        name = "partition",
        mixinStandardHelpOptions = true,
        description = "Watch partition moves.",
        subcommands = {PartitionMovesCommand.class})
public final class PartitionCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: moves");
    }
}
