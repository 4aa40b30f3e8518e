package io.sluice.cli.topic;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sluice topic create|list|describe|delete}. Not thread-safe; one per invocation.
 */
@Command(
        name = "topic",
        mixinStandardHelpOptions = true,
        description = "Create, list, describe or delete topics.",
        subcommands = {
            TopicCreateCommand.class,
            TopicListCommand.class,
            TopicDescribeCommand.class,
            TopicDeleteCommand.class
        })
public final class TopicCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Missing command: create, list, describe or delete");
    }
}
