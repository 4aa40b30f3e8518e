package io.sluice.cli.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.config.BrokerConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * config/server.properties (at ../config from the module directory) starts a broker with its defaults;
 * config/broker-1..3.properties are the README's three-broker cluster.
 */
class ExampleConfigTest {
    private static final Path EXAMPLE = Path.of("..", "config", "server.properties");
    private static final int CLUSTER_SIZE = 3;
    private static final int FIRST_CLUSTER_PORT = 9092;

    @Test
    void shouldParseExampleWithoutUnknownKeys() throws Exception {
        BrokerConfig example = BrokerConfig.fromMap(ServerProperties.load(EXAMPLE));

        assertEquals(List.of(), example.unknownKeys());
        assertEquals(
                List.of(
                        "num.recovery.threads.per.data.dir",
                        "transaction.state.log.min.isr",
                        "transaction.state.log.replication.factor"),
                example.ignoredKeys());
    }

    @Test
    void shouldShowOnlyDefaults() throws Exception {
        BrokerConfig defaults = BrokerConfig.fromMap(Map.of());
        BrokerConfig example = BrokerConfig.fromMap(ServerProperties.load(EXAMPLE));
        assertEquals(defaults.logDirs(), example.logDirs());
        for (String key : example.explicitValues().keySet()) {
            if (!key.equals("log.dirs")) {
                assertEquals(defaults.valueText(key), example.valueText(key), key);
            }
        }
    }

    @Test
    void shouldGiveEachClusterExampleItsIdPortDirectoryAndTheSharedZooKeeper() throws Exception {
        for (int id = 1; id <= CLUSTER_SIZE; id++) {
            Path file = Path.of("..", "config", "broker-" + id + ".properties");
            BrokerConfig broker = BrokerConfig.fromMap(ServerProperties.load(file));

            assertEquals(List.of(), broker.unknownKeys(), file.toString());
            assertEquals(List.of(), broker.ignoredKeys(), file.toString());
            assertEquals(id, broker.brokerId(), file.toString());
            assertEquals(1, broker.listeners().size(), file.toString());
            assertEquals("127.0.0.1", broker.listeners().get(0).host(), file.toString());
            assertEquals(FIRST_CLUSTER_PORT + id - 1, broker.listeners().get(0).port(), file.toString());
            assertEquals(List.of(Path.of("./data/broker-" + id)), broker.logDirs(), file.toString());
            assertEquals(Optional.of("127.0.0.1:2181/sluice"), broker.zookeeperConnect(), file.toString());
        }
    }
}
