package io.sluice.log.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.TopicPartitionKey;
import io.sluice.log.segment.CleanFaults;
import io.sluice.log.ship.ShippableLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cleaner and a partition move's pins: segments a move has pinned are not cleanable (their swap would be refused),
 * so a moving log, however dirty, does not keep the cleaner from the other logs, and is cleaned once released.
 */
class PinnedCompactionTest {
    private static final TopicPartitionKey MOVING = new TopicPartitionKey("moving", 0);
    private static final TopicPartitionKey OTHER = new TopicPartitionKey("other", 0);

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final Map<TopicPartitionKey, PartitionLog> logs = new ConcurrentHashMap<>();

    @AfterEach
    void close() throws Exception {
        for (PartitionLog log : logs.values()) {
            log.close();
        }
    }

    private PartitionLog filled(TopicPartitionKey key, int records, int keys) throws Exception {
        PartitionLog log = CompactedLogs.open(
                dir.resolve(key.topic() + "-" + key.partition()),
                CompactedLogs.compacted(300).build(),
                clock);
        append(log, records, keys);
        return log;
    }

    private void append(PartitionLog log, int records, int keys) throws Exception {
        for (int i = 0; i < records; i++) {
            log.appendAsLeader(
                    CompactedLogs.batch(clock.get(), new String[] {"k" + (i % keys)}, new String[] {"v" + i}),
                    0,
                    clock.get());
        }
    }

    @Test
    void shouldCleanTheOtherLogsWhileTheDirtiestIsPinnedByAMoveAndItOnceReleased() throws Exception {
        Path checkpointDir = Files.createDirectories(dir.resolve("checkpoints"));
        LogCleaner cleaner = new LogCleaner(
                new CleanerConfig(true, 1, 1 << 20, 0.9, 4096, Double.MAX_VALUE, 10),
                () -> Map.copyOf(logs),
                key -> checkpointDir,
                new CleanerCheckpoints(List.of(checkpointDir), new RecoveryReport()),
                clock::get,
                CleanFaults.NONE);
        PartitionLog other = filled(OTHER, 120, 10);
        logs.put(OTHER, other);
        assertTrue(cleaner.cleanDirtiestNow());
        append(other, 60, 10); // dirty again, but less than a log never cleaned

        PartitionLog moving = filled(MOVING, 120, 2);
        logs.put(MOVING, moving);
        ShippableLog shipping = moving.pinForShipping(moving.logEndOffset());
        int movingSegments = moving.segmentCount();
        long movingBytes = moving.sizeInBytes();
        long otherBytes = other.sizeInBytes();

        assertTrue(cleaner.cleanDirtiestNow(), "a log is cleaned while the dirtiest one is pinned");
        assertTrue(other.sizeInBytes() < otherBytes, "the other log: " + other.sizeInBytes() + " of " + otherBytes);
        assertEquals(movingSegments, moving.segmentCount(), "the pinned log is left as the move lists it");
        assertEquals(movingBytes, moving.sizeInBytes());

        shipping.close();
        assertTrue(cleaner.cleanDirtiestNow());
        assertTrue(moving.sizeInBytes() < movingBytes, "cleaned once the move released it");
    }
}
