package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import io.sluice.log.checkpoint.OffsetCheckpointFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogManagerTest {
    @TempDir
    Path tmp;

    private LogManager manager(List<Path> dirs, AtomicLong clock) {
        LogConfig defaults =
                LogConfig.builder().segmentBytes(1024).fileDeleteDelayMs(0).build();
        return new LogManager(
                dirs,
                defaults,
                topic -> topic.equals("small")
                        ? defaults.toBuilder().retentionBytes(0).build()
                        : defaults,
                LogManagerConfig.defaults(),
                clock::get,
                null);
    }

    @Test
    void shouldCreateInTheLeastLoadedDirectoryAndLoadEverythingAfterRestart() throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        AtomicLong clock = new AtomicLong(10_000);
        try (LogManager manager = manager(List.of(a, b), clock)) {
            assertTrue(manager.loadAll().isEmpty());
            for (int p = 0; p < 4; p++) {
                PartitionLog log = manager.create("orders", p, null);
                log.appendAsLeader(TestBatches.batch(1_000, "v" + p), 0, clock.get());
            }
            assertSame(manager.get("orders", 2), manager.create("orders", 2, null));
            assertEquals(2, countPartitions(a));
            assertEquals(2, countPartitions(b));
            assertTrue(Files.isDirectory(manager.logDirOf("orders", 3).resolve("orders-3")));
        }
        assertTrue(Files.exists(a.resolve(OffsetCheckpointFile.RECOVERY_POINT_FILE)));
        Map<TopicPartitionKey, Long> points =
                OffsetCheckpointFile.read(a.resolve(OffsetCheckpointFile.RECOVERY_POINT_FILE));
        assertEquals(2, points.size());
        assertTrue(points.values().stream().allMatch(v -> v == 1L));
        try (LogManager manager = manager(List.of(a, b), clock)) {
            Map<TopicPartitionKey, PartitionLog> logs = manager.loadAll();
            assertEquals(4, logs.size());
            assertTrue(
                    manager.recoveryReport().isEmpty(), manager.recoveryReport().toString());
            assertEquals(
                    "v3",
                    TestBatches.readAll(logs.get(new TopicPartitionKey("orders", 3)))
                            .get(0)
                            .value());
        }
    }

    private static long countPartitions(Path dir) throws Exception {
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(Files::isDirectory).count();
        }
    }

    @Test
    void shouldRefuseASecondManagerOnTheSameDirectory() throws Exception {
        AtomicLong clock = new AtomicLong(0);
        try (LogManager first = manager(List.of(tmp), clock)) {
            first.loadAll();
            LogManager second = manager(List.of(tmp), clock);
            LogDirectoryLockedException e = assertThrows(LogDirectoryLockedException.class, second::loadAll);
            assertTrue(e.getMessage().contains("locked by another broker"), e.getMessage());
            second.close();
        }
        try (LogManager third = manager(List.of(tmp), clock)) {
            third.loadAll();
        }
    }

    @Test
    void shouldSetAStrayLogAsideKeepingItsDataAndNeverLoadItAgain() throws Exception {
        AtomicLong clock = new AtomicLong(0);
        Path moved;
        try (LogManager manager = manager(List.of(tmp), clock)) {
            manager.loadAll();
            manager.create("stray", 0, null).appendAsLeader(TestBatches.batch(3, "kept"), 0, 0);
            moved = manager.setAsideAsStray("stray", 0);
            assertNull(manager.get("stray", 0));
            assertNull(manager.setAsideAsStray("never-existed", 0));
        }
        assertTrue(moved.getFileName().toString().matches("stray-0\\.[0-9a-f]{32}-stray"), moved.toString());
        assertFalse(Files.exists(tmp.resolve("stray-0")));
        try (Stream<Path> files = Files.list(moved)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().endsWith(".log")), "the segment is kept");
        }
        try (LogManager restarted = manager(List.of(tmp), clock)) {
            assertTrue(restarted.loadAll().isEmpty(), "a stray directory is not loaded");
            assertTrue(Files.exists(moved), "nor deleted");
        }
    }

    @Test
    void shouldRefuseASecondManagerAtLockTimeBeforeLoading() throws Exception {
        AtomicLong clock = new AtomicLong(0);
        try (LogManager first = manager(List.of(tmp), clock)) {
            first.lockDirectories();
            first.lockDirectories();
            LogManager second = manager(List.of(tmp), clock);
            assertThrows(LogDirectoryLockedException.class, second::lockDirectories);
            second.close();
            first.loadAll();
        }
    }

    @Test
    void shouldRenameDeletedPartitionsAndRemoveThemAfterTheDelay() throws Exception {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        LogConfig config = LogConfig.builder().fileDeleteDelayMs(0).build();
        try (LogManager manager = new LogManager(
                List.of(tmp), config, null, LogManagerConfig.defaults(), System::currentTimeMillis, scheduler)) {
            manager.loadAll();
            CountDownLatch release = new CountDownLatch(1);
            scheduler.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            manager.create("gone", 0, null).appendAsLeader(TestBatches.batch(1, "x"), 0, 0);
            manager.delete("gone", 0);
            assertNull(manager.get("gone", 0));
            assertFalse(Files.exists(tmp.resolve("gone-0")));
            try (Stream<Path> children = Files.list(tmp)) {
                assertTrue(children.anyMatch(p -> p.getFileName().toString().matches("gone-0\\.[0-9a-f]{32}-delete")));
            }
            release.countDown();
            scheduler.shutdown();
            assertTrue(scheduler.awaitTermination(30, TimeUnit.SECONDS), "the delayed delete ran");
            assertEquals(0, countPartitions(tmp));
        }
    }

    @Test
    void shouldApplyPerTopicConfigAndRetention() throws Exception {
        AtomicLong clock = new AtomicLong(5_000);
        try (LogManager manager = manager(List.of(tmp), clock)) {
            manager.loadAll();
            PartitionLog small = manager.create("small", 0, null);
            PartitionLog big = manager.create("big", 0, null);
            for (int i = 0; i < 20; i++) {
                small.appendAsLeader(TestBatches.batch(1_000, 2, 100), 0, clock.get());
                big.appendAsLeader(TestBatches.batch(1_000, 2, 100), 0, clock.get());
            }
            assertEquals(0, small.config().retentionBytes());
            manager.enforceRetention();
            assertEquals(1, small.segmentCount());
            assertTrue(big.segmentCount() > 1);
            assertEquals(0, big.logStartOffset());
        }
    }

    @Test
    void shouldRecoverFullyWhenTheCheckpointIsGarbage() throws Exception {
        AtomicLong clock = new AtomicLong(0);
        try (LogManager manager = manager(List.of(tmp), clock)) {
            manager.loadAll();
            manager.create("t", 0, null).appendAsLeader(TestBatches.batch(1, "x"), 0, 0);
        }
        Files.writeString(tmp.resolve(OffsetCheckpointFile.RECOVERY_POINT_FILE), "0\n7\nnot a line\n");
        try (LogManager manager = manager(List.of(tmp), clock)) {
            manager.loadAll();
            assertTrue(
                    manager.recoveryReport().toString().contains("ignored corrupt checkpoint"),
                    manager.recoveryReport().toString());
            assertEquals(1, manager.get("t", 0).logEndOffset());
        }
    }

    @Test
    void shouldFlushLogsWhoseFlushIntervalPassedAndRolledSegmentsOfOthers() throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000);
        LogConfig timed =
                LogConfig.builder().segmentBytes(1024).flushIntervalMs(1_000L).build();
        LogConfig osManaged = LogConfig.builder().segmentBytes(1024).build();
        try (LogManager manager = new LogManager(
                List.of(tmp),
                osManaged,
                topic -> topic.equals("timed") ? timed : osManaged,
                LogManagerConfig.defaults(),
                clock::get,
                null)) {
            manager.loadAll();
            PartitionLog timedLog = manager.create("timed", 0, null);
            PartitionLog lazyLog = manager.create("lazy", 0, null);
            for (int i = 0; i < 20; i++) {
                timedLog.appendAsLeader(TestBatches.batch(1_000, 2, 100), 0, clock.get());
                lazyLog.appendAsLeader(TestBatches.batch(1_000, 2, 100), 0, clock.get());
            }
            assertEquals(0, timedLog.recoveryPoint());
            assertEquals(0, lazyLog.recoveryPoint());
            manager.flushDueLogs();
            long activeBase = lazyLog.segmentBaseOffsets()[lazyLog.segmentCount() - 1];
            assertEquals(activeBase, lazyLog.recoveryPoint(), "rolled segments are fsynced, the active one is not");
            assertTrue(timedLog.recoveryPoint() < timedLog.logEndOffset());
            clock.addAndGet(1_000);
            manager.flushDueLogs();
            assertEquals(timedLog.logEndOffset(), timedLog.recoveryPoint());
            assertEquals(activeBase, lazyLog.recoveryPoint());
        }
    }

    @Test
    void shouldTrustSegmentsBelowTheCheckpointedRecoveryPointAfterACrash() throws Exception {
        AtomicLong clock = new AtomicLong(0);
        Path live = tmp.resolve("live");
        long activeBase;
        try (LogManager manager = manager(List.of(live), clock)) {
            manager.loadAll();
            PartitionLog log = manager.create("orders", 0, null);
            for (int i = 0; i < 30; i++) {
                log.appendAsLeader(TestBatches.batch(1_000, 2, 100), 0, clock.get());
            }
            manager.flushDueLogs();
            manager.checkpointRecoveryPoints();
            activeBase = log.segmentBaseOffsets()[log.segmentCount() - 1];
            assertEquals(activeBase, log.recoveryPoint());
            copyTree(live, tmp.resolve("crashed"));
        }
        Path partition = tmp.resolve("crashed").resolve("orders-0");
        Path active = partition.resolve(String.format(Locale.ROOT, "%020d.log", activeBase));
        byte[] bytes = Files.readAllBytes(active);
        bytes[bytes.length - 5] ^= 0x40;
        Files.write(active, bytes);
        try (LogManager manager = manager(List.of(tmp.resolve("crashed")), clock)) {
            manager.loadAll();
            String report = manager.recoveryReport().toString();
            assertTrue(report.contains("CRC-32C mismatch"), report);
            assertTrue(report.contains(active.getFileName().toString()), report);
            assertEquals(1, manager.recoveryReport().lines().size(), "older segments were trusted: " + report);
            PartitionLog log = manager.get("orders", 0);
            assertEquals(58, log.logEndOffset(), "only the last batch was damaged");
        }
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : walk.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else if (!source.getFileName().toString().equals(LogManager.LOCK_FILE)) {
                    Files.copy(source, target);
                }
            }
        }
    }
}
