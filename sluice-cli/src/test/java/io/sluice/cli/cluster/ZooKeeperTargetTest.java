package io.sluice.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ConfigException;
import io.sluice.cli.CommandFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZooKeeperTargetTest {

    @TempDir
    Path dir;

    @Test
    void shouldTakeTheZooKeeperOptionAsGiven() throws Exception {
        assertEquals("zk1:2181,zk2:2181/sluice", ZooKeeperTarget.resolve(" zk1:2181,zk2:2181/sluice ", null, Map.of()));
    }

    @Test
    void shouldRefuseMalformedConnectStringsNamingThem() {
        IllegalArgumentException noPort = assertThrows(
                IllegalArgumentException.class, () -> ZooKeeperTarget.resolve("zk1/sluice", null, Map.of()));
        assertTrue(noPort.getMessage().contains("'zk1'"), noPort.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ZooKeeperTarget.resolve("zk1:99999", null, Map.of()));
        assertThrows(IllegalArgumentException.class, () -> ZooKeeperTarget.resolve("/only-chroot", null, Map.of()));
    }

    @Test
    void shouldUseTheConfiguredZooKeeperWithOverridesWinning() throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, "zookeeper.connect=zk1:2181/from-file\nlog.dirs=" + dir.resolve("data") + "\n");

        assertEquals("zk1:2181/from-file", ZooKeeperTarget.resolve(null, file, Map.of()));
        assertEquals("zk2:2182", ZooKeeperTarget.resolve(null, file, Map.of("zookeeper.connect", "zk2:2182")));
    }

    @Test
    void shouldReadTheEmbeddedConnectFileOfABrokerWithoutZooKeeperConnect() throws Exception {
        Path data = dir.resolve("data");
        BrokerConfig broker = BrokerConfig.fromMap(Map.of("log.dirs", data.toString()));
        Path connectFile = ZooKeeperTarget.embeddedConnectFile(broker);
        Files.createDirectories(connectFile.getParent());
        Files.writeString(connectFile, "127.0.0.1:41234\n");

        assertEquals("127.0.0.1:41234", ZooKeeperTarget.resolve(null, null, Map.of("log.dirs", data.toString())));
        assertEquals(data.resolve(".sluice-metadata").resolve("zookeeper.connect"), connectFile);
    }

    @Test
    void shouldFailNamingTheConnectFileWhenTheBrokerNeverRan() {
        Path data = dir.resolve("never-started");

        CommandFailedException e = assertThrows(
                CommandFailedException.class,
                () -> ZooKeeperTarget.resolve(null, null, Map.of("log.dirs", data.toString())));

        assertTrue(
                e.getMessage()
                        .contains(data.resolve(".sluice-metadata")
                                .resolve("zookeeper.connect")
                                .toString()),
                e.getMessage());
    }

    @Test
    void shouldRefuseGarbageAndOversizedConnectFilesWithoutReadingThemWhole() throws Exception {
        Path garbage = dir.resolve("garbage");
        Files.write(garbage, new byte[] {0, 1, 2, '\n'});
        Path huge = dir.resolve("huge");
        Files.writeString(huge, "1".repeat(1 << 20));

        CommandFailedException notHostPort =
                assertThrows(CommandFailedException.class, () -> ZooKeeperTarget.readEmbeddedConnectFile(garbage));
        CommandFailedException tooLarge =
                assertThrows(CommandFailedException.class, () -> ZooKeeperTarget.readEmbeddedConnectFile(huge));

        assertTrue(notHostPort.getMessage().startsWith(garbage + ": "), notHostPort.getMessage());
        assertTrue(tooLarge.getMessage().contains("1048576 bytes"), tooLarge.getMessage());
    }

    @Test
    void shouldRefuseAnInvalidBrokerConfigurationNamingTheKey() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ZooKeeperTarget.resolve(null, null, Map.of("zookeeper.session.timeout.ms", "soon")));
        assertTrue(e.getMessage().contains("zookeeper.session.timeout.ms"), e.getMessage());
    }
}
