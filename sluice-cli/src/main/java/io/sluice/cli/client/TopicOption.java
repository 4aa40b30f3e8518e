package io.sluice.cli.client;

import picocli.CommandLine.Option;

/**
 * The required {@code -t/--topic} of the commands that read or write one topic (produce, consume), defined once so
 * their help and parsing stay alike. Not thread-safe; one per command invocation.
 */
public final class TopicOption {
    @Option(
            names = {"-t", "--topic"},
            required = true,
            paramLabel = "TOPIC")
    String topic;

    public String topic() {
        return topic;
    }
}
