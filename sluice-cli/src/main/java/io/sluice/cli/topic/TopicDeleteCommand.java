package io.sluice.cli.topic;

import io.sluice.cli.client.ClientOptions;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice topic delete NAME...}. Not thread-safe; one per invocation.
 */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete topics.")
public final class TopicDeleteCommand implements Callable<Integer> {

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "TOPIC")
    List<String> topics;

    @Override
    public Integer call() throws Exception {
        try (Admin admin = Admin.create(client.toProperties("sluice-topic"))) {
            admin.deleteTopics(topics).all().get();
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String topic : topics) {
            out.println("Deleted topic " + topic + ".");
        }
        out.flush();
        return 0;
    }
}
