package io.sluice.log.index;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Indexes move from heap arrays to read-only mappings and back without losing or inventing entries. */
class IndexMappingTest {
    @TempDir
    Path tmp;

    @Test
    void shouldServeTheSameLookupsFromTheHeapAndFromTheMapping() throws Exception {
        Path file = tmp.resolve("00000000000000000100.index");
        OffsetIndex index = OffsetIndex.empty(file, 100, 1024);
        for (int i = 0; i < 50; i++) {
            index.append(100 + i * 10 + 9, i * 1000);
        }
        int[] heapAnswers = new int[600];
        for (int t = 0; t < heapAnswers.length; t++) {
            heapAnswers[t] = index.lookup(100 + t);
        }
        index.mapReadOnly();
        assertTrue(index.isMapped());
        for (int t = 0; t < heapAnswers.length; t++) {
            assertEquals(heapAnswers[t], index.lookup(100 + t), "target " + (100 + t));
        }
        OffsetIndex loaded = OffsetIndex.load(file, 100, 1024, 50_000);
        assertTrue(loaded.isMapped());
        assertEquals(50, loaded.entryCount());
        assertEquals(49_000, loaded.lookup(Long.MAX_VALUE));
    }

    @Test
    void shouldTruncateAMappedIndexWithoutTouchingTheMappedFile() throws Exception {
        Path file = tmp.resolve("00000000000000000000.index");
        OffsetIndex index = OffsetIndex.empty(file, 0, 1024);
        for (int i = 0; i < 20; i++) {
            index.append(i * 10L + 9, i * 100);
        }
        index.mapReadOnly();
        index.truncateToOffset(100);
        assertFalse(index.isMapped());
        assertEquals(10, index.entryCount());
        assertFalse(Files.exists(file), "unlinked, not truncated under readers");
        index.append(109, 1000);
        index.persist();
        OffsetIndex reloaded = OffsetIndex.load(file, 0, 1024, 2000);
        assertEquals(11, reloaded.entryCount());
        assertEquals(1000, reloaded.lookup(109));
        assertEquals(900, reloaded.lookup(108));
    }

    @Test
    void shouldMapTimeIndexesAndAppendAfterATruncation() throws Exception {
        Path file = tmp.resolve("00000000000000000000.timeindex");
        TimeIndex index = TimeIndex.empty(file, 0, 1200);
        for (int i = 0; i < 30; i++) {
            index.maybeAppend(1_000 + i * 10L, i * 3L + 2);
        }
        long heapAnswer = index.lookup(1_105);
        index.mapReadOnly();
        assertTrue(index.isMapped());
        assertEquals(heapAnswer, index.lookup(1_105));
        assertEquals(32, heapAnswer);
        index.truncateToOffset(30);
        assertFalse(index.isMapped());
        assertEquals(10, index.entryCount());
        assertEquals(1_090, index.lastTimestamp());
        index.maybeAppend(5_000, 40);
        index.persist();
        TimeIndex reloaded = TimeIndex.load(file, 0, 1200, 41);
        assertEquals(11, reloaded.entryCount());
        assertEquals(40, reloaded.lookup(9_999));
    }

    @Test
    void shouldStopAtTheConfiguredMaximumSize() throws Exception {
        OffsetIndex index = OffsetIndex.empty(tmp.resolve("00000000000000000000.index"), 0, 64);
        for (int i = 0; i < 20; i++) {
            index.append(i, i * 10);
        }
        assertTrue(index.isFull());
        assertEquals(8, index.entryCount());
    }
}
