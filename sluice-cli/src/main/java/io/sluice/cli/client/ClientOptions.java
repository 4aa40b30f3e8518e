package io.sluice.cli.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Option;

/**
 * Options every client command shares: where the broker is and extra Kafka client properties.
 * Not thread-safe; one per command invocation.
 */
public final class ClientOptions {
    public static final String DEFAULT_BOOTSTRAP = "127.0.0.1:9092";

    @Option(
            names = {"-b", "--bootstrap-server"},
            paramLabel = "HOST:PORT",
            defaultValue = DEFAULT_BOOTSTRAP,
            description = "Broker to connect to (default: ${DEFAULT-VALUE}).")
    String bootstrapServer = DEFAULT_BOOTSTRAP;

    @Option(
            names = {"-X", "--client-property"},
            paramLabel = "KEY=VALUE",
            description = "Extra Kafka client property, e.g. -X request.timeout.ms=5000 (repeatable).")
    List<String> clientProperties = new ArrayList<>();

    public String bootstrapServer() {
        return bootstrapServer;
    }

    /** bootstrap.servers and client.id, then the -X properties (which win). */
    public Properties toProperties(String clientId) {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServer);
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        for (Map.Entry<String, String> entry :
                KeyValue.parseAll("-X", clientProperties).entrySet()) {
            props.put(entry.getKey(), entry.getValue());
        }
        return props;
    }
}
