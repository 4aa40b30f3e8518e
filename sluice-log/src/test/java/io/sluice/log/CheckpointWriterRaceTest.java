package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import io.sluice.log.checkpoint.OffsetCheckpointFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topic deletions and the scheduled checkpoints write the same checkpoint files at the same moment (issue 18 #3):
 * no writer may fail, and every checkpoint must parse afterwards and end up naming exactly the live partitions.
 */
class CheckpointWriterRaceTest {
    private static final int ITERATIONS = 150;
    private static final int PARTITIONS = 3;
    /** Threads standing in for the scheduled checkpoint tasks, racing the deleting thread. */
    private static final int CHECKPOINTERS = 2;

    private static final int CHECKPOINTS_PER_ITERATION = 3;

    @TempDir
    Path tmp;

    @Test
    void shouldNeverFailACheckpointOrADeletionWhenTheyRace() throws Exception {
        List<Path> dirs = List.of(tmp.resolve("a"), tmp.resolve("b"));
        AtomicLong clock = new AtomicLong(1_000);
        LogConfig config =
                LogConfig.builder().segmentBytes(1024).fileDeleteDelayMs(0).build();
        // the manager's own checkpoint tasks run too, every millisecond, on two threads
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(2);
        ExecutorService racers = Executors.newFixedThreadPool(CHECKPOINTERS + 1);
        try (LogManager manager =
                new LogManager(dirs, config, null, new LogManagerConfig(1, 1, 60_000, 60_000), clock::get, scheduler)) {
            manager.loadAll();
            manager.create("kept", 0, null).appendAsLeader(TestBatches.batch(1_000, "kept"), 0, clock.get());
            for (int i = 0; i < ITERATIONS; i++) {
                String topic = "churn-" + i;
                for (int p = 0; p < PARTITIONS; p++) {
                    manager.create(topic, p, null).appendAsLeader(TestBatches.batch(1_000, "v" + p), 0, clock.get());
                }
                CyclicBarrier start = new CyclicBarrier(CHECKPOINTERS + 1);
                List<Future<?>> running = new ArrayList<>();
                running.add(racers.submit(() -> {
                    start.await();
                    for (int p = 0; p < PARTITIONS; p++) {
                        manager.delete(topic, p);
                    }
                    return null;
                }));
                for (int c = 0; c < CHECKPOINTERS; c++) {
                    running.add(racers.submit(() -> {
                        start.await();
                        for (int k = 0; k < CHECKPOINTS_PER_ITERATION; k++) {
                            manager.checkpointLogStartOffsets();
                            manager.checkpointRecoveryPoints();
                        }
                        return null;
                    }));
                }
                for (Future<?> racer : running) {
                    try {
                        racer.get(30, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        throw new AssertionError("a checkpoint or deletion failed in iteration " + i, e.getCause());
                    }
                }
                for (Path dir : dirs) {
                    assertCheckpointsParse(dir, "iteration " + i);
                }
            }
            manager.checkpointRecoveryPoints();
            manager.checkpointLogStartOffsets();
            Path keptDir = manager.logDirOf("kept", 0);
            for (Path dir : dirs) {
                Map<TopicPartitionKey, Long> expected =
                        dir.equals(keptDir) ? Map.of(new TopicPartitionKey("kept", 0), 0L) : Map.of();
                assertEquals(
                        expected, OffsetCheckpointFile.read(dir.resolve(OffsetCheckpointFile.LOG_START_OFFSET_FILE)));
                assertEquals(
                        expected.keySet(),
                        OffsetCheckpointFile.read(dir.resolve(OffsetCheckpointFile.RECOVERY_POINT_FILE))
                                .keySet());
            }
        } finally {
            racers.shutdownNow();
            scheduler.shutdownNow();
            assertTrue(scheduler.awaitTermination(30, TimeUnit.SECONDS));
        }
        for (Path dir : dirs) {
            assertCheckpointsParse(dir, "after close");
            try (Stream<Path> files = Files.list(dir)) {
                assertEquals(
                        List.of(),
                        files.filter(f -> f.getFileName().toString().endsWith(".tmp"))
                                .toList(),
                        "temporary checkpoint files left in " + dir);
            }
        }
    }

    private static void assertCheckpointsParse(Path dir, String when) {
        for (String name :
                List.of(OffsetCheckpointFile.RECOVERY_POINT_FILE, OffsetCheckpointFile.LOG_START_OFFSET_FILE)) {
            Path file = dir.resolve(name);
            assertDoesNotThrow(() -> OffsetCheckpointFile.read(file), () -> file + " unreadable " + when);
        }
    }
}
