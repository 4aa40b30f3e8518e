package io.sluice.cli;

import io.sluice.broker.config.ConfigException;
import io.sluice.cli.consume.ConsumeCommand;
import io.sluice.cli.produce.ProduceCommand;
import io.sluice.cli.server.ServerCommand;
import io.sluice.cli.topic.TopicCommand;
import java.io.PrintWriter;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sluice} command: {@code server}, {@code topic}, {@code produce}, {@code consume}.
 * Not thread-safe; one per process (or per test invocation).
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, version = "Sluice 0.1.0-SNAPSHOT",
        description = "A broker that speaks the Apache Kafka protocol, and console tools for it.",
        subcommands = {ServerCommand.class, TopicCommand.class, ProduceCommand.class, ConsumeCommand.class,
                CommandLine.HelpCommand.class})
public final class SluiceCli implements Runnable {
    /** Exit code of a command that failed at run time (broker unreachable, request refused). */
    public static final int EXIT_FAILURE = 1;
    /** Exit code of bad usage, bad option values or bad configuration. */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

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

    /** The message of the root cause worth showing: unwraps ExecutionException and friends. */
    public static String oneLine(Throwable exception) {
        Throwable shown = exception;
        while ((shown instanceof ExecutionException || shown instanceof java.util.concurrent.CompletionException
                || shown instanceof java.io.UncheckedIOException) && shown.getCause() != null) {
            shown = shown.getCause();
        }
        String message = shown.getMessage();
        String text = message == null || message.isBlank() ? shown.getClass().getSimpleName()
                : shown instanceof ConfigException || shown instanceof IllegalArgumentException
                || shown instanceof CommandFailedException ? message : shown.getClass().getSimpleName() + ": " + message;
        return text.replace('\n', ' ');
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: server, topic, produce or consume");
    }
}
