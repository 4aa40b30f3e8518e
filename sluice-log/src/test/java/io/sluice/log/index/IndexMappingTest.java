package io.sluice.log.index;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Indexes move from heap buffers to read-only mappings and back without losing or inventing entries. */
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
    void shouldWriteEachPersistsNewEntriesInTheFileLayoutAcrossGrowthAndTruncation() throws Exception {
        Path offsets = tmp.resolve("00000000000000001000.index");
        Path times = tmp.resolve("00000000000000001000.timeindex");
        OffsetIndex offsetIndex = OffsetIndex.empty(offsets, 1000, 1 << 20);
        TimeIndex timeIndex = TimeIndex.empty(times, 1000, 1 << 20);
        int entries = 0;
        // persists between appends, each time after the heap buffer grew (16, 32, 64, ... entries) or not
        for (int round : new int[] {3, 14, 1, 40, 100, 7}) {
            for (int i = 0; i < round; i++, entries++) {
                offsetIndex.append(1000 + entries * 5L + 4, entries * 700);
                timeIndex.maybeAppend(50_000 + entries * 3L, 1000 + entries * 5L + 4);
            }
            offsetIndex.persist();
            timeIndex.persist();
            assertFileHolds(offsets, times, entries);
        }
        offsetIndex.truncateToOffset(1000 + 60 * 5);
        timeIndex.truncateToOffset(1000 + 60 * 5);
        offsetIndex.append(1000 + 60 * 5L + 4, 60 * 700);
        timeIndex.maybeAppend(50_000 + 60 * 3L, 1000 + 60 * 5L + 4);
        offsetIndex.persist();
        timeIndex.persist();
        assertFileHolds(offsets, times, 61);
        assertEquals(61, OffsetIndex.load(offsets, 1000, 1 << 20, 61 * 700).entryCount());
        assertEquals(61, TimeIndex.load(times, 1000, 1 << 20, 1000 + 61 * 5).entryCount());
    }

    /** Both files hold exactly entries 0 .. n-1 of the test above, big-endian in their descriptors' layouts. */
    private static void assertFileHolds(Path offsets, Path times, int n) throws Exception {
        ByteBuffer offsetBytes = ByteBuffer.wrap(Files.readAllBytes(offsets));
        ByteBuffer timeBytes = ByteBuffer.wrap(Files.readAllBytes(times));
        assertEquals(n * OffsetIndexDescriptor.ENTRY_LENGTH, offsetBytes.capacity());
        assertEquals(n * TimeIndexDescriptor.ENTRY_LENGTH, timeBytes.capacity());
        for (int i = 0; i < n; i++) {
            int at = i * OffsetIndexDescriptor.ENTRY_LENGTH;
            assertEquals(
                    i * 5 + 4, offsetBytes.getInt(at + OffsetIndexDescriptor.RELATIVE_OFFSET_OFFSET), "entry " + i);
            assertEquals(i * 700, offsetBytes.getInt(at + OffsetIndexDescriptor.POSITION_OFFSET), "entry " + i);
            int timeAt = i * TimeIndexDescriptor.ENTRY_LENGTH;
            assertEquals(
                    50_000 + i * 3L, timeBytes.getLong(timeAt + TimeIndexDescriptor.TIMESTAMP_OFFSET), "entry " + i);
            assertEquals(
                    i * 5 + 4, timeBytes.getInt(timeAt + TimeIndexDescriptor.RELATIVE_OFFSET_OFFSET), "entry " + i);
        }
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
