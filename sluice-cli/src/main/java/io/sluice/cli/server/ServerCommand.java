package io.sluice.cli.server;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cli.client.KeyValue;
import io.sluice.cli.process.StopSignals;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice server}: starts a broker and runs until SIGTERM/SIGINT.
 * Not thread-safe; one per process.
 */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        description = "Start a broker (defaults: listen on 127.0.0.1:9092, data under ./data).")
public final class ServerCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServerCommand.class);

    @Option(names = "--config", paramLabel = "FILE", description = "A Kafka-style server.properties.")
    Path configFile;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Data directory (sets log.dirs).")
    Path dataDir;

    @Option(
            names = "--listen",
            paramLabel = "HOST:PORT",
            description = "Address to listen on (sets listeners=PLAINTEXT://HOST:PORT; port 0 picks a free port).")
    String listen;

    @Option(
            names = "--override",
            paramLabel = "KEY=VALUE",
            description = "Set a configuration key (repeatable; wins over the file).")
    List<String> overrides = new ArrayList<>();

    private final PrintStream out;

    public ServerCommand() {
        this(System.out);
    }

    ServerCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        Map<String, String> props =
                ServerProperties.build(configFile, dataDir, listen, KeyValue.parseAll("--override", overrides));
        BrokerConfig config = BrokerConfig.fromMap(props);
        reportSkippedKeys(config);
        SluiceBroker broker = SluiceBroker.start(config);
        StopSignals.install("broker " + config.brokerId(), broker::close);
        out.println(readyLine(config.brokerId(), broker.boundAddress()));
        out.flush();
        broker.awaitShutdown();
        broker.close();
        LOG.info("Broker {} stopped", config.brokerId());
        return 0;
    }

    /** The one stdout line tests wait for: {@code Sluice broker <id> started, listening on <host>:<port>}. */
    public static String readyLine(int brokerId, InetSocketAddress bound) {
        String host = bound.getAddress() != null ? bound.getAddress().getHostAddress() : bound.getHostString();
        return "Sluice broker " + brokerId + " started, listening on " + host + ":" + bound.getPort();
    }

    private static void reportSkippedKeys(BrokerConfig config) {
        if (!config.unknownKeys().isEmpty()) {
            LOG.warn(
                    "Unknown configuration keys, ignored (check for typos): {}",
                    String.join(", ", config.unknownKeys()));
        }
        if (!config.ignoredKeys().isEmpty()) {
            LOG.info(
                    "Kafka configuration keys that Sluice accepts but does not use: {}",
                    String.join(", ", config.ignoredKeys()));
        }
    }
}
