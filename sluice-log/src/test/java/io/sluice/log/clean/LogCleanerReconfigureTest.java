package io.sluice.log.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.log.RecoveryReport;
import io.sluice.log.segment.CleanFaults;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LogCleaner#reconfigure}, as Kafka's LogCleaner.reconfigure: a new thread count or map size restarts the pool
 * with the new count (the old threads end first), a new I/O rate or backoff alone keeps the threads, and before
 * {@link LogCleaner#start()} only the settings change. The cleaner has no logs here: only its threads are looked at.
 */
class LogCleanerReconfigureTest {
    @TempDir
    Path dir;

    private static CleanerConfig config(int threads, long dedupeBytes, double ioBytesPerSecond) {
        return new CleanerConfig(true, threads, dedupeBytes, 0.9, 4096, ioBytesPerSecond, 10);
    }

    private LogCleaner cleaner(CleanerConfig config) {
        return new LogCleaner(
                config,
                Map::of,
                key -> dir,
                new CleanerCheckpoints(List.of(dir), new RecoveryReport()),
                System::currentTimeMillis,
                CleanFaults.NONE);
    }

    private static long threadsNamedLikeCleaners() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sluice-log-cleaner-"))
                .count();
    }

    @Test
    void shouldResizeThePoolAndKeepItForARateChange() {
        long before = threadsNamedLikeCleaners();
        try (LogCleaner cleaner = cleaner(config(1, 1 << 20, Double.MAX_VALUE))) {
            cleaner.reconfigure(config(2, 1 << 20, Double.MAX_VALUE));
            assertEquals(0, cleaner.liveThreads(), "not started: nothing runs");
            cleaner.start();
            assertEquals(2, cleaner.liveThreads());

            cleaner.reconfigure(config(4, 1 << 20, Double.MAX_VALUE));
            assertEquals(4, cleaner.liveThreads());
            assertEquals(before + 4, threadsNamedLikeCleaners(), "the two old threads ended before the new ones ran");

            cleaner.reconfigure(config(4, 1 << 20, 1_000_000));
            assertEquals(4, cleaner.liveThreads());
            assertEquals(1_000_000, cleaner.config().ioMaxBytesPerSecond());

            cleaner.reconfigure(config(2, 1 << 21, 1_000_000));
            assertEquals(2, cleaner.liveThreads());
            assertEquals(0, cleaner.deadThreadCount());
        }
        assertEquals(before, threadsNamedLikeCleaners(), "close ends every thread");
    }
}
