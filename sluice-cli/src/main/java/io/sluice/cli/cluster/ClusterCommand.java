package io.sluice.cli.cluster;

import io.sluice.cli.rebalance.RebalanceCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sluice cluster status|rebalance}. Not thread-safe; one per invocation.
 */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = "Inspect a cluster through its ZooKeeper, or rebalance it.",
        subcommands = {ClusterStatusCommand.class, RebalanceCommand.class})
public final class ClusterCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: status or rebalance");
    }
}
