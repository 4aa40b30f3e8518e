package io.sluice.cluster.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerIdentityTest {
    @TempDir
    Path tmp;

    @Test
    void shouldCreateThenReloadTheSameClusterId() throws Exception {
        List<Path> dirs = List.of(tmp.resolve("a"), tmp.resolve("b"));
        BrokerIdentity first = BrokerIdentity.loadOrCreate(dirs, 3, null);
        BrokerIdentity second = BrokerIdentity.loadOrCreate(dirs, 3, null);
        assertEquals(first, second);
        assertEquals(22, first.clusterId().length());
        assertTrue(Files.exists(tmp.resolve("b").resolve(BrokerIdentity.FILE_NAME)));
    }

    @Test
    void shouldRefuseADirectoryOfAnotherBroker() throws Exception {
        List<Path> dirs = List.of(tmp.resolve("a"));
        BrokerIdentity.loadOrCreate(dirs, 1, null);
        BrokerIdentity.IdentityMismatchException e = assertThrows(
                BrokerIdentity.IdentityMismatchException.class, () -> BrokerIdentity.loadOrCreate(dirs, 2, null));
        assertTrue(e.getMessage().contains("broker.id 1"), e.getMessage());
    }

    @Test
    void shouldRefuseADirectoryOfAnotherCluster() throws Exception {
        List<Path> dirs = List.of(tmp.resolve("a"));
        BrokerIdentity.loadOrCreate(dirs, 1, "clusterA");
        assertThrows(
                BrokerIdentity.IdentityMismatchException.class, () -> BrokerIdentity.loadOrCreate(dirs, 1, "clusterB"));
    }

    @Test
    void shouldRefuseAGarbledIdentityFile() throws Exception {
        Path dir = tmp.resolve("a");
        Files.createDirectories(dir);
        Files.write(dir.resolve(BrokerIdentity.FILE_NAME), new byte[] {'\\', 'u', '0', 'z', 'z'});
        assertThrows(
                BrokerIdentity.IdentityMismatchException.class,
                () -> BrokerIdentity.loadOrCreate(List.of(dir), 1, null));
        Files.writeString(dir.resolve(BrokerIdentity.FILE_NAME), "version=0\n", StandardCharsets.UTF_8);
        assertThrows(
                BrokerIdentity.IdentityMismatchException.class,
                () -> BrokerIdentity.loadOrCreate(List.of(dir), 1, null));
    }
}
