package io.sluice.cli.topic;

import io.sluice.cli.client.ClientOptions;
import java.io.PrintWriter;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice topic list}: one topic name per line, sorted. Not thread-safe; one per invocation.
 */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List topics, one per line.")
public final class TopicListCommand implements Callable<Integer> {

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Option(names = "--internal", description = "Include internal topics.")
    boolean internal;

    @Override
    public Integer call() throws Exception {
        Set<String> names;
        try (Admin admin = Admin.create(client.toProperties("sluice-topic"))) {
            names = new TreeSet<>(admin.listTopics(new ListTopicsOptions().listInternal(internal))
                    .names()
                    .get());
        }
        PrintWriter out = spec.commandLine().getOut();
        names.forEach(out::println);
        out.flush();
        return 0;
    }
}
