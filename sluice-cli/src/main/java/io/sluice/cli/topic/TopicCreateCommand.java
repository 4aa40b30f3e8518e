package io.sluice.cli.topic;

import io.sluice.cli.client.ClientOptions;
import io.sluice.cli.client.KeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice topic create NAME}. Not thread-safe; one per invocation.
 */
@Command(name = "create", mixinStandardHelpOptions = true, description = "Create a topic.")
public final class TopicCreateCommand implements Callable<Integer> {

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TOPIC")
    String topic;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            description = "Partitions (default: the broker's num.partitions).")
    Integer partitions;

    @Option(
            names = "--replication-factor",
            paramLabel = "N",
            description = "Replicas per partition (default: the broker's default.replication.factor).")
    Short replicationFactor;

    @Option(names = "--config", paramLabel = "KEY=VALUE", description = "Topic configuration override (repeatable).")
    List<String> configs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        NewTopic newTopic = newTopic(topic, partitions, replicationFactor, configs);
        try (Admin admin = Admin.create(client.toProperties("sluice-topic"))) {
            admin.createTopics(List.of(newTopic)).all().get();
        }
        spec.commandLine().getOut().println("Created topic " + topic + ".");
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** The CreateTopics entry; absent counts and factors let the broker apply its defaults. */
    static NewTopic newTopic(String topic, Integer partitions, Short replicationFactor, List<String> configs) {
        NewTopic newTopic =
                new NewTopic(topic, Optional.ofNullable(partitions), Optional.ofNullable(replicationFactor));
        return newTopic.configs(KeyValue.parseAll("--config", configs));
    }
}
