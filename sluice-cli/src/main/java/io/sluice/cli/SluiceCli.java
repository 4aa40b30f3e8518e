package io.sluice.cli;

import io.sluice.broker.config.ConfigException;
import io.sluice.cli.cluster.ClusterCommand;
import io.sluice.cli.consume.ConsumeCommand;
import io.sluice.cli.partition.PartitionCommand;
import io.sluice.cli.produce.ProduceCommand;
import io.sluice.cli.server.ServerCommand;
import io.sluice.cli.topic.TopicCommand;
import io.sluice.cli.zookeeper.ZooKeeperCommand;
import io.sluice.codec.SuppressForbidden;
import java.io.PrintWriter;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sluice} command: {@code server}, {@code zookeeper}, {@code topic}, {@code produce}, {@code consume},
 * {@code cluster}.
 * Not thread-safe; one per process (or per test invocation).
 */
@Command(
        name = "sluice",
        mixinStandardHelpOptions = true,
        version = "Sluice 0.1.0-SNAPSHOT",
        description = "A broker that speaks the Apache Kafka protocol, and console tools for it.",
        subcommands = {
            ServerCommand.class,
            ZooKeeperCommand.class,
            TopicCommand.class,
            ProduceCommand.class,
            ConsumeCommand.class,
            ClusterCommand.class,
            PartitionCommand.class,
            CommandLine.HelpCommand.class
        })
public final class SluiceCli implements Runnable {
    /** Exit code of a command that failed at run time (broker unreachable, request refused). */
    public static final int EXIT_FAILURE = 1;
    /** Exit code of bad usage, bad option values or bad configuration. */
    public static final int EXIT_USAGE = 2;
    /** How many causes an error line may quote. */
    private static final int MAX_CAUSES = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @SuppressForbidden(reason = "the process's exit code is the command's result; the one caller of System.exit")
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code (the entry point for tests). */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The configured picocli command line, with one-line error reporting. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new SluiceCli());
        commandLine.setExecutionExceptionHandler((exception, cli, parseResult) -> {
            PrintWriter err = cli.getErr();
            err.println(cli.getCommandSpec().qualifiedName() + ": " + oneLine(exception));
            err.flush();
            boolean badInput = exception instanceof ConfigException || exception instanceof IllegalArgumentException;
            return badInput ? EXIT_USAGE : EXIT_FAILURE;
        });
        return commandLine;
    }

    /**
     * One line for an error: unwraps ExecutionException and friends, then the message followed by
     * the messages of its causes that add something (kafka-clients often hides the reason there).
     */
    public static String oneLine(Throwable exception) {
        Throwable shown = exception;
        while ((shown instanceof ExecutionException
                        || shown instanceof java.util.concurrent.CompletionException
                        || shown instanceof java.io.UncheckedIOException)
                && shown.getCause() != null) {
            shown = shown.getCause();
        }
        boolean selfExplaining = shown instanceof ConfigException
                || shown instanceof IllegalArgumentException
                || shown instanceof CommandFailedException;
        StringBuilder text = new StringBuilder();
        String message = shown.getMessage();
        if (!selfExplaining || message == null || message.isBlank()) {
            text.append(shown.getClass().getSimpleName());
        }
        appendMessage(text, message);
        int depth = 0;
        for (Throwable cause = shown.getCause();
                cause != null && cause != shown && depth < MAX_CAUSES;
                cause = cause.getCause()) {
            String causeMessage = cause.getMessage();
            if (causeMessage != null && !causeMessage.isBlank() && text.indexOf(causeMessage) < 0) {
                appendMessage(text, causeMessage);
            }
            depth++;
        }
        return text.toString().replace('\n', ' ');
    }

    private static void appendMessage(StringBuilder text, String message) {
        if (message == null || message.isBlank()) {
            return;
        }
        if (text.length() > 0) {
            text.append(": ");
        }
        text.append(message);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Missing command: server, zookeeper, topic, produce, consume or cluster");
    }
}
