package io.sluice.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.ship.ShippableLog;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeleteRecords against the segment pins of a partition move: the log start advances at once (offsets below it are
 * out of range) while a pinned segment stays on disk; once the pin is released, retention deletes every segment
 * entirely below the start, and only those.
 */
class DeleteRecordsPinTest {
    private static final long NOW = 1_700_000_000_000L;

    @TempDir
    Path root;

    private static ByteBuffer batch(int i) {
        return MemoryRecords.withRecords(
                        Compression.NONE,
                        new SimpleRecord(NOW, ("value-" + i + "-" + "x".repeat(200)).getBytes(StandardCharsets.UTF_8)))
                .buffer();
    }

    @Test
    void shouldAdvanceTheStartAtOnceAndDeletePinnedSegmentsOnlyOnceReleased() throws Exception {
        // Retention by time or size never applies here: only the log start deletes.
        LogConfig config =
                LogConfig.builder().segmentBytes(1024).fileDeleteDelayMs(0).build();
        try (PartitionLog log =
                PartitionLog.open(root.resolve("pinned-0"), config, new RecoveryReport(), 0, 0, () -> NOW)) {
            for (int i = 0; i < 40; i++) {
                log.appendAsLeader(batch(i), 0, NOW);
            }
            int segments = log.segmentCount();
            long[] bases = log.segmentBaseOffsets();
            long start = bases[segments / 2] + 1;
            ShippableLog shipping = log.pinForShipping(Long.MAX_VALUE);

            log.deleteRecordsBefore(start);
            assertEquals(start, log.logStartOffset());
            assertThrows(OffsetOutOfRangeException.class, () -> log.read(start - 1, 100, Long.MAX_VALUE));
            assertEquals(segments, log.segmentCount(), "pinned segments stay while the move ships them");
            assertEquals(0, log.enforceRetention(NOW));

            shipping.close();
            assertEquals(segments / 2, log.enforceRetention(NOW), "every segment entirely below the start goes");
            assertEquals(bases[segments / 2], log.segmentBaseOffsets()[0], "the segment holding the start stays");
            assertEquals(start, log.logStartOffset());
            assertTrue(log.read(start, 100, Long.MAX_VALUE).sizeInBytes() > 0);
        }
    }
}
