package io.sluice.cli.topic;

import io.sluice.cli.client.ClientOptions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice topic describe [NAME...]}: partitions, leaders, replicas and topic overrides in
 * kafka-topics' layout; all topics when no name is given. Not thread-safe; one per invocation.
 */
@Command(name = "describe", mixinStandardHelpOptions = true, description = "Describe topics (all when none named).")
public final class TopicDescribeCommand implements Callable<Integer> {

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "TOPIC")
    List<String> topics = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        try (Admin admin = Admin.create(client.toProperties("sluice-topic"))) {
            List<String> names = topics.isEmpty()
                    ? new ArrayList<>(new TreeSet<>(admin.listTopics().names().get()))
                    : topics;
            Map<String, TopicDescription> descriptions =
                    admin.describeTopics(names).allTopicNames().get();
            List<ConfigResource> resources = new ArrayList<>();
            for (String name : names) {
                resources.add(new ConfigResource(ConfigResource.Type.TOPIC, name));
            }
            Map<ConfigResource, Config> configs =
                    admin.describeConfigs(resources).all().get();
            for (String name : names) {
                Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name));
                out.print(TopicDescriptionFormat.format(descriptions.get(name), overrides(config)));
            }
        }
        out.flush();
        return 0;
    }

    /** The topic's own overrides (what kafka-topics shows as Configs). */
    static Map<String, String> overrides(Config config) {
        Map<String, String> overrides = new LinkedHashMap<>();
        if (config == null) {
            return overrides;
        }
        for (ConfigEntry entry : config.entries()) {
            if (entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG) {
                overrides.put(entry.name(), entry.value());
            }
        }
        return overrides;
    }
}
