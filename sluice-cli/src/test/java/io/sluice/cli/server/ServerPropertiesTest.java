package io.sluice.cli.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.Listener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerPropertiesTest {

    @TempDir
    Path dir;

    @Test
    void shouldReadKafkaServerPropertiesFile() throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, """
                # A Kafka server.properties
                broker.id=3
                listeners=PLAINTEXT://127.0.0.1:19092
                log.dirs=/var/lib/kafka
                num.partitions = 4
                log.retention.hours=24
                num.recovery.threads.per.data.dir=1
                """);

        BrokerConfig config = BrokerConfig.fromMap(ServerProperties.build(file, null, null, Map.of()));

        assertEquals(3, config.brokerId());
        assertEquals(List.of(new Listener("PLAINTEXT", "127.0.0.1", 19092)), config.listeners());
        assertEquals(List.of(Path.of("/var/lib/kafka")), config.logDirs());
        assertEquals(4, config.numPartitions());
        assertEquals(24L * 3600 * 1000, config.log().retentionMs());
        assertEquals(List.of("num.recovery.threads.per.data.dir"), config.ignoredKeys());
    }

    @Test
    void shouldLetFlagsWinOverFileAndOverridesWinOverFlags() throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "log.dir=/from/file\nlisteners=PLAINTEXT://127.0.0.1:1\nnum.partitions=2\n");

        Map<String, String> props =
                ServerProperties.build(file, Path.of("/flag/data"), "0.0.0.0:0", Map.of("num.partitions", "5"));
        BrokerConfig config = BrokerConfig.fromMap(props);

        assertEquals(List.of(Path.of("/flag/data")), config.logDirs());
        assertFalse(props.containsKey("log.dir"));
        assertEquals(List.of(new Listener("PLAINTEXT", "0.0.0.0", 0)), config.listeners());
        assertEquals(5, config.numPartitions());

        Map<String, String> overridden = ServerProperties.build(
                null,
                Path.of("/flag"),
                "127.0.0.1:0",
                Map.of("log.dirs", "/override", "listeners", "PLAINTEXT://127.0.0.1:7"));
        assertEquals("/override", overridden.get("log.dirs"));
        assertEquals("PLAINTEXT://127.0.0.1:7", overridden.get("listeners"));
    }

    @Test
    void shouldTurnListenIntoPlaintextListener() {
        assertEquals("PLAINTEXT://127.0.0.1:9092", ServerProperties.listenerFor("127.0.0.1:9092"));
        assertEquals("PLAINTEXT://[::1]:0", ServerProperties.listenerFor("[::1]:0"));
        for (String bad : List.of("localhost", "localhost:", "PLAINTEXT://h:1")) {
            assertThrows(IllegalArgumentException.class, () -> ServerProperties.listenerFor(bad), bad);
        }
    }

    @Test
    void shouldFailOnMissingFileNamingIt() {
        NoSuchFileException error = assertThrows(
                NoSuchFileException.class,
                () -> ServerProperties.build(dir.resolve("absent.properties"), null, null, Map.of()));
        assertEquals(dir.resolve("absent.properties").toString(), error.getFile());
    }

    @Test
    void shouldPrintTheReadyLineTestsParse() throws IOException {
        assertEquals(
                "Sluice broker 4 started, listening on 127.0.0.1:40123",
                ServerCommand.readyLine(4, new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 40123)));
    }
}
