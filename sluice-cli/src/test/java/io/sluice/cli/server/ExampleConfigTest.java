package io.sluice.cli.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.config.BrokerConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** config/server.properties (at ../config from the module directory) starts a broker with its defaults. */
class ExampleConfigTest {
    private static final Path EXAMPLE = Path.of("..", "config", "server.properties");

    @Test
    void shouldParseExampleWithoutUnknownKeys() throws Exception {
        BrokerConfig example = BrokerConfig.fromMap(ServerProperties.load(EXAMPLE));

        assertEquals(List.of(), example.unknownKeys());
        assertEquals(List.of("num.recovery.threads.per.data.dir", "offsets.topic.replication.factor",
                "transaction.state.log.min.isr", "transaction.state.log.replication.factor"), example.ignoredKeys());
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
}
