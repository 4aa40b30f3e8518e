package io.sluice.log.epoch;

import static org.junit.jupiter.api.Assertions.*;

import io.sluice.log.checkpoint.CorruptCheckpointException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaderEpochCacheTest {
    @TempDir
    Path tmp;

    private LeaderEpochCache cacheWith(int... epochsAndOffsets) throws IOException {
        LeaderEpochCache cache = LeaderEpochCache.empty(tmp);
        for (int i = 0; i < epochsAndOffsets.length; i += 2) {
            assertTrue(cache.assign(epochsAndOffsets[i], epochsAndOffsets[i + 1]));
        }
        return cache;
    }

    @Test
    void shouldAnswerEndOffsetsLikeKafka() throws Exception {
        LeaderEpochCache cache = cacheWith(2, 10, 4, 30, 7, 55);
        assertEquals(new EpochEndOffset(7, 80), cache.endOffsetFor(7, 80), "latest epoch ends at the log end");
        assertEquals(new EpochEndOffset(4, 55), cache.endOffsetFor(4, 80));
        assertEquals(
                new EpochEndOffset(4, 55), cache.endOffsetFor(5, 80), "an unknown epoch answers with the one before");
        assertEquals(new EpochEndOffset(1, 10), cache.endOffsetFor(1, 80), "below the first epoch");
        assertEquals(EpochEndOffset.UNDEFINED, cache.endOffsetFor(8, 80), "above the latest epoch");
        assertEquals(EpochEndOffset.UNDEFINED, cache.endOffsetFor(-1, 80));
        assertEquals(EpochEndOffset.UNDEFINED, LeaderEpochCache.empty(tmp).endOffsetFor(0, 0));
    }

    @Test
    void shouldIgnoreEpochsThatDoNotAdvance() throws Exception {
        LeaderEpochCache cache = cacheWith(3, 10);
        assertFalse(cache.assign(3, 20));
        assertFalse(cache.assign(2, 30));
        assertFalse(cache.assign(-1, 30));
        assertEquals(List.of(new EpochEntry(3, 10)), cache.entries());
    }

    @Test
    void shouldTruncateFromBothEndsAndPersistEveryChange() throws Exception {
        LeaderEpochCache cache = cacheWith(0, 0, 1, 10, 2, 20, 3, 30);
        cache.truncateFromEnd(20);
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(1, 10)), cache.entries());
        cache.truncateFromStart(15);
        assertEquals(List.of(new EpochEntry(1, 15)), cache.entries());
        assertEquals(List.of(new EpochEntry(1, 15)), LeaderEpochCache.load(tmp).entries());
        assertEquals("0\n1\n1 15\n", Files.readString(tmp.resolve(LeaderEpochCache.FILE_NAME)));
    }

    @Test
    void shouldRejectEntriesThatDoNotIncrease() throws Exception {
        Files.writeString(tmp.resolve(LeaderEpochCache.FILE_NAME), "0\n2\n5 100\n4 200\n");
        CorruptCheckpointException e = assertThrows(CorruptCheckpointException.class, () -> LeaderEpochCache.load(tmp));
        assertTrue(e.getMessage().contains("line 4"), e.getMessage());
    }

    @Test
    void shouldRejectALastLineCutBeforeItsLineEnd() throws Exception {
        // "3 1200\n" torn to "3 12" must not read as epoch 3 starting at offset 12
        Files.writeString(tmp.resolve(LeaderEpochCache.FILE_NAME), "0\n2\n1 0\n3 12");
        CorruptCheckpointException e = assertThrows(CorruptCheckpointException.class, () -> LeaderEpochCache.load(tmp));
        assertTrue(e.getMessage().contains("line 4") && e.getMessage().contains("cut off"), e.getMessage());
    }

    @Property(tries = 200)
    void shouldLoadOrRejectGarbage(@ForAll @StringLength(max = 120) String text) throws IOException {
        Path dir = Files.createTempDirectory("epochs");
        try {
            Files.writeString(dir.resolve(LeaderEpochCache.FILE_NAME), text);
            try {
                LeaderEpochCache cache = LeaderEpochCache.load(dir);
                EpochEntry previous = null;
                for (EpochEntry entry : cache.entries()) {
                    assertTrue(previous == null || entry.epoch() > previous.epoch());
                    previous = entry;
                }
            } catch (CorruptCheckpointException expected) {
                assertNotNull(expected.getMessage());
            }
        } finally {
            Files.deleteIfExists(dir.resolve(LeaderEpochCache.FILE_NAME));
            Files.delete(dir);
        }
    }

    @Test
    void shouldNotPreallocateForAForgedEntryCount() throws Exception {
        Files.writeString(tmp.resolve(LeaderEpochCache.FILE_NAME), "0\n999999\n1 1\n");
        assertThrows(CorruptCheckpointException.class, () -> LeaderEpochCache.load(tmp));
        Files.writeString(tmp.resolve(LeaderEpochCache.FILE_NAME), "0\n9223372036854775807\n");
        assertThrows(CorruptCheckpointException.class, () -> LeaderEpochCache.load(tmp));
    }
}
