package io.sluice.cli.server;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cli.client.KeyValue;
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
import sun.misc.Signal;

/**
 * {@code sluice server}: starts a broker and runs until SIGTERM/SIGINT.
 * Not thread-safe; one per process.
 */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = "Start a broker (defaults: listen on 127.0.0.1:9092, data under ./data).")
public final class ServerCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServerCommand.class);
    private static final List<String> STOP_SIGNALS = List.of("TERM", "INT");

    @Option(names = "--config", paramLabel = "FILE", description = "A Kafka-style server.properties.")
    Path configFile;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Data directory (sets log.dirs).")
    Path dataDir;

    @Option(names = "--listen", paramLabel = "HOST:PORT",
            description = "Address to listen on (sets listeners=PLAINTEXT://HOST:PORT; port 0 picks a free port).")
    String listen;

    @Option(names = "--override", paramLabel = "KEY=VALUE", description = "Set a configuration key (repeatable; wins over the file).")
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
        Map<String, String> props = ServerProperties.build(configFile, dataDir, listen,
                KeyValue.parseAll("--override", overrides));
        BrokerConfig config = BrokerConfig.fromMap(props);
        reportSkippedKeys(config);
        SluiceBroker broker = SluiceBroker.start(config);
        Thread hook = new Thread(broker::close, "sluice-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        for (String signal : STOP_SIGNALS) {
            handleStopSignal(signal, broker, config.brokerId());
        }
        out.println(readyLine(config.brokerId(), broker.boundAddress()));
        out.flush();
        broker.awaitShutdown();
        broker.close();
        LOG.info("Broker {} stopped", config.brokerId());
        return 0;
    }

    /**
     * Handles SIGTERM/SIGINT ourselves (instead of the JVM's default) so a signalled stop exits with 0,
     * not 143. Where the JVM keeps the signal (-Xrs), the shutdown hook still closes the broker.
     */
    private static void handleStopSignal(String name, SluiceBroker broker, int brokerId) {
        try {
            Signal.handle(new Signal(name), received -> {
                LOG.info("Received SIG{}, stopping broker {}", received.getName(), brokerId);
                broker.close();
            });
        } catch (IllegalArgumentException unavailable) {
            LOG.debug("SIG{} stays with the JVM ({}); the shutdown hook closes the broker", name, unavailable.getMessage());
        }
    }

    /** The one stdout line tests wait for: {@code Sluice broker <id> started, listening on <host>:<port>}. */
    public static String readyLine(int brokerId, InetSocketAddress bound) {
        String host = bound.getAddress() != null ? bound.getAddress().getHostAddress() : bound.getHostString();
        return "Sluice broker " + brokerId + " started, listening on " + host + ":" + bound.getPort();
    }

    private static void reportSkippedKeys(BrokerConfig config) {
        if (!config.unknownKeys().isEmpty()) {
            LOG.warn("Unknown configuration keys, ignored (check for typos): {}", String.join(", ", config.unknownKeys()));
        }
        if (!config.ignoredKeys().isEmpty()) {
            LOG.info("Kafka configuration keys that Sluice accepts but does not use: {}",
                    String.join(", ", config.ignoredKeys()));
        }
    }
}
