package io.sluice.log.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.LogConfig;
import io.sluice.log.LogManager;
import io.sluice.log.LogManagerConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.TopicPartitionKey;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's LogCleanerManager.maybeTruncateCheckpoint through the log manager's wiring: a follower truncation below a
 * compacted log's cleaner checkpoint lowers it to the new active segment's base, so records written again past the cut
 * count as dirty; a checkpoint already below the cut, and non-compacted logs, are left alone. The topic's dirty ratio
 * of 1.0 keeps the running cleaner threads from cleaning, so only the truncation moves the checkpoint.
 */
class CheckpointTruncationTest {
    private static final TopicPartitionKey KEY = new TopicPartitionKey("t", 0);

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_000_000);

    private LogManager manager(LogConfig config) throws Exception {
        LogManager manager = new LogManager(
                List.of(dir),
                config,
                topic -> config,
                LogManagerConfig.defaults(),
                clock::get,
                null,
                CleanerConfig.defaults());
        manager.loadAll();
        return manager;
    }

    private static LogConfig compacted() {
        return CompactedLogs.compacted(300).minCleanableDirtyRatio(1.0).build();
    }

    private PartitionLog fill(LogManager manager, int batches) throws Exception {
        PartitionLog log = manager.create(KEY.topic(), KEY.partition(), null);
        for (int i = 0; i < batches; i++) {
            log.appendAsLeader(
                    CompactedLogs.batch(clock.get(), new String[] {"k" + (i % 3)}, new String[] {"v" + i}),
                    0,
                    clock.get());
        }
        return log;
    }

    @Test
    void shouldLowerTheCheckpointToTheActiveSegmentBaseWhenTruncatedBelowIt() throws Exception {
        try (LogManager manager = manager(compacted())) {
            PartitionLog log = fill(manager, 40);
            assertTrue(log.segmentCount() > 4, "several segments: " + log.segmentCount());
            LogCleaner cleaner = manager.cleaner();
            cleaner.checkpoints().update(dir, KEY, 35);

            log.truncateTo(20);

            long[] bases = log.segmentBaseOffsets();
            long activeBase = bases[bases.length - 1];
            assertTrue(activeBase <= 20, "the cut is in the active segment: " + activeBase);
            assertEquals(activeBase, cleaner.checkpoints().get(dir, KEY));
            assertEquals(
                    activeBase,
                    new CleanerCheckpoints(List.of(dir), new io.sluice.log.RecoveryReport()).get(dir, KEY),
                    "the lowered checkpoint is on disk");
        }
    }

    @Test
    void shouldLeaveACheckpointAtOrBelowTheCutAlone() throws Exception {
        try (LogManager manager = manager(compacted())) {
            PartitionLog log = fill(manager, 40);
            manager.cleaner().checkpoints().update(dir, KEY, 3);

            log.truncateTo(30);

            assertEquals(3L, manager.cleaner().checkpoints().get(dir, KEY));
        }
    }

    @Test
    void shouldLowerTheCheckpointWhenTheLogRestartsEmpty() throws Exception {
        try (LogManager manager = manager(compacted())) {
            PartitionLog log = fill(manager, 40);
            manager.cleaner().checkpoints().update(dir, KEY, 35);

            log.truncateFullyAndStartAt(10);

            assertEquals(10L, manager.cleaner().checkpoints().get(dir, KEY));
        }
    }

    @Test
    void shouldIgnoreLogsThatAreNotCompacted() throws Exception {
        LogConfig deleting = CompactedLogs.compacted(300).compact(false).build();
        try (LogManager manager = manager(deleting)) {
            PartitionLog log = fill(manager, 40);
            manager.cleaner().checkpoints().update(dir, KEY, 35);

            log.truncateTo(20);

            assertEquals(35L, manager.cleaner().checkpoints().get(dir, KEY));
            manager.cleaner().forget(dir, KEY);
            assertNull(manager.cleaner().checkpoints().get(dir, KEY));
        }
    }
}
