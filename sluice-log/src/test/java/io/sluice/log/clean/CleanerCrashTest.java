package io.sluice.log.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.segment.CleanFaults;
import io.sluice.log.segment.CleanStep;
import io.sluice.log.segment.LogSegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A crash at each step of a clean (an injected fault that, like a crash, skips every clean-up) followed by reopening the
 * directory without a clean shutdown: the log is valid, reads the same latest value for every key, keeps no
 * {@code .cleaned} or {@code .swap} file, and cleans again.
 */
class CleanerCrashTest {
    /** Thrown at the chosen step: an Error, so the cleaner's own clean-up (which catches exceptions) does not run. */
    static final class Crash extends Error {
        private static final long serialVersionUID = 1L;

        Crash(CleanStep step) {
            super("crash at " + step, null, false, false);
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(CleanStep.class)
    void crashAtEveryStepLeavesAValidLogWithTheSameKeys(CleanStep crashAt) throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000);
        Path partition = dir.resolve("t-0");
        var config = CompactedLogs.compacted(2048).build();
        PartitionLog log = CompactedLogs.open(partition, config, clock);
        for (int i = 0; i < 300; i++) {
            log.appendAsLeader(
                    CompactedLogs.batch(
                            clock.get(), new String[] {"k" + (i % 17), "k" + (i % 5)}, new String[] {"v" + i, "w" + i}),
                    0,
                    clock.get());
        }
        Map<String, String> expected = latest(CompactedLogs.readAll(log));
        assertTrue(log.segmentCount() > 4, "several segments to group");
        LogCleaner crashing = CompactedLogs.cleaner(log, dir, clock, 1 << 20, step -> {
            if (step == crashAt) {
                throw new Crash(step);
            }
        });
        assertThrows(Crash.class, crashing::cleanDirtiestNow);
        for (LogSegment segment : log.segmentChain()) {
            segment.close(); // the process is gone: no flush, no clean-shutdown marker
        }

        RecoveryReport report = new RecoveryReport();
        PartitionLog reopened = PartitionLog.open(partition, config, report, 0L, 0L, clock::get);
        try {
            assertEquals(expected, latest(CompactedLogs.readAll(reopened)), "keys after recovery from " + crashAt);
            try (Stream<Path> files = Files.list(partition)) {
                assertFalse(
                        files.anyMatch(f -> f.toString().endsWith(".cleaned")
                                || f.toString().endsWith(".swap")),
                        "no leftovers of the clean");
            }
            LogCleaner again = CompactedLogs.cleaner(reopened, dir, clock, 1 << 20, CleanFaults.NONE);
            again.cleanDirtiestNow();
            assertEquals(expected, latest(CompactedLogs.readAll(reopened)), "keys after cleaning again");
            long activeBase = reopened.segmentChain()[reopened.segmentCount() - 1].baseOffset();
            long belowActive = CompactedLogs.readAll(reopened).stream()
                    .filter(r -> r.offset() < activeBase)
                    .count();
            assertTrue(
                    belowActive <= expected.size(),
                    "at most one record per key below the active segment: " + belowActive);
        } finally {
            reopened.close();
        }
    }

    static Map<String, String> latest(List<CompactedLogs.Stored> records) {
        Map<String, String> latest = new HashMap<>();
        for (CompactedLogs.Stored r : records) {
            latest.put(r.key(), r.value());
        }
        return latest;
    }
}
