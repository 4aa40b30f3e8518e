package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionDirectoryTest {

    @TempDir
    Path data;

    @Test
    void shouldFindNewestSegmentByBaseOffsetAndItsIndex() throws IOException {
        Path dir = Files.createDirectories(data.resolve("orders-3"));
        Files.write(dir.resolve("00000000000000000000.log"), new byte[0]);
        Files.write(dir.resolve("00000000000000000950.log"), new byte[0]);
        Files.write(dir.resolve("00000000000000000120.log"), new byte[0]);
        Files.write(dir.resolve("leader-epoch-checkpoint"), new byte[0]);
        PartitionDirectory partition = new PartitionDirectory(data, "orders", 3);
        assertEquals(3, partition.segments().size());
        Path newest = partition.newestSegment();
        assertEquals("00000000000000000950.log", newest.getFileName().toString());
        assertEquals(
                dir.resolve("00000000000000000950.index"),
                PartitionDirectory.sibling(newest, PartitionDirectory.INDEX_SUFFIX));
    }

    @Test
    void shouldAppendGarbageAfterExistingBytes() throws IOException {
        Path file = data.resolve("x.log");
        Files.write(file, new byte[] {1, 2});
        PartitionDirectory.appendGarbage(file, new byte[] {9});
        assertArrayEquals(new byte[] {1, 2, 9}, Files.readAllBytes(file));
    }

    @Test
    void shouldNameWhatExistsWhenPartitionIsMissing() throws IOException {
        Files.createDirectories(data.resolve("other-0"));
        IOException failure =
                assertThrows(IOException.class, () -> new PartitionDirectory(data, "orders", 0).newestSegment());
        assertTrue(failure.getMessage().contains("other-0"), failure.getMessage());
    }
}
