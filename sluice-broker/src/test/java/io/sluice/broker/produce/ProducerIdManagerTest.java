package io.sluice.broker.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducerIdManagerTest {
    @TempDir
    Path tmp;

    @Test
    void shouldNeverReuseAnIdAcrossRestarts() throws Exception {
        Path file = tmp.resolve("ids");
        Set<Long> seen = new HashSet<>();
        for (int restart = 0; restart < 3; restart++) {
            ProducerIdManager ids = new ProducerIdManager(file);
            for (int i = 0; i < ProducerIdManager.BLOCK_SIZE + 7; i++) {
                assertTrue(seen.add(ids.nextProducerId()), "id handed out twice");
            }
        }
        assertEquals(3 * (ProducerIdManager.BLOCK_SIZE + 7), seen.size());
    }

    @Test
    void shouldRefuseACorruptOrTruncatedFile() throws Exception {
        Path file = tmp.resolve("ids");
        new ProducerIdManager(file).nextProducerId();
        byte[] bytes = Files.readAllBytes(file);
        bytes[3] ^= 0x10;
        Files.write(file, bytes);
        IOException corrupt = assertThrows(IOException.class, () -> new ProducerIdManager(file));
        assertTrue(corrupt.getMessage().contains("corrupt"), corrupt.getMessage());
        Files.write(file, new byte[5]);
        IOException truncated = assertThrows(IOException.class, () -> new ProducerIdManager(file));
        assertTrue(truncated.getMessage().contains("5 bytes"), truncated.getMessage());
    }
}
