package io.sluice.log.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.AppendResult;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.segment.CleanFaults;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CleanerTest {
    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_000_000);

    private PartitionLog fill(LogConfig config, int batches, Compression compression) throws Exception {
        PartitionLog log = CompactedLogs.open(dir.resolve("t-0"), config, clock);
        for (int i = 0; i < batches; i++) {
            log.appendAsLeader(
                    CompactedLogs.batch(
                            compression,
                            RecordBatch.NO_PRODUCER_ID,
                            RecordBatch.NO_PRODUCER_EPOCH,
                            RecordBatch.NO_SEQUENCE,
                            clock.get(),
                            new String[] {"k" + (i % 3)},
                            new String[] {"v" + i}),
                    0,
                    clock.get());
        }
        return log;
    }

    @Test
    void shouldRebuildCompressedBatchesWithTheirCodec() throws Exception {
        for (Compression compression : List.of(
                Compression.gzip().build(),
                Compression.lz4().build(),
                Compression.snappy().build(),
                Compression.zstd().build())) {
            PartitionLog log = CompactedLogs.open(
                    dir.resolve("c-" + compression.type().id),
                    CompactedLogs.compacted(400).build(),
                    clock);
            for (int i = 0; i < 40; i++) {
                log.appendAsLeader(
                        CompactedLogs.batch(
                                compression,
                                RecordBatch.NO_PRODUCER_ID,
                                RecordBatch.NO_PRODUCER_EPOCH,
                                RecordBatch.NO_SEQUENCE,
                                clock.get(),
                                new String[] {"a", "b" + i, "a"},
                                new String[] {"x" + i, "y", "z" + i}),
                        0,
                        clock.get());
            }
            Path checkpoints = java.nio.file.Files.createDirectories(dir.resolve("cp-" + compression.type().id));
            assertTrue(CompactedLogs.cleaner(log, checkpoints, clock, 1 << 20, CleanFaults.NONE)
                    .cleanDirtiestNow());
            List<CompactedLogs.Stored> read = CompactedLogs.readAll(log);
            long activeBase = log.segmentChain()[log.segmentCount() - 1].baseOffset();
            assertTrue(
                    read.stream()
                                    .filter(r -> r.key().equals("a") && r.offset() < activeBase)
                                    .count()
                            <= 1,
                    "at most one 'a' below the active segment, for " + compression.type());
            assertTrue(read.size() < 120, "records were removed: " + read.size());
            assertEquals(
                    "z39",
                    read.stream()
                            .filter(r -> r.key().equals("a"))
                            .reduce((x, y) -> y)
                            .orElseThrow()
                            .value());
            log.close();
        }
    }

    @Test
    void shouldNeverTouchTheActiveSegment() throws Exception {
        PartitionLog log = fill(CompactedLogs.compacted(1 << 20).build(), 50, Compression.NONE);
        assertEquals(1, log.segmentCount());
        assertFalse(CompactedLogs.cleaner(log, dir, clock, 1 << 20, CleanFaults.NONE)
                .cleanDirtiestNow());
        assertEquals(50, CompactedLogs.readAll(log).size());
        log.close();
    }

    @Test
    void shouldWaitForMinCompactionLagAndCleanWhenMaxCompactionLagPasses() throws Exception {
        PartitionLog log = fill(
                CompactedLogs.compacted(300)
                        .minCompactionLagMs(10_000)
                        .minCleanableDirtyRatio(0.99)
                        .build(),
                60,
                Compression.NONE);
        LogCleaner cleaner = CompactedLogs.cleaner(log, dir, clock, 1 << 20, CleanFaults.NONE);
        assertFalse(cleaner.cleanDirtiestNow(), "every segment is younger than min.compaction.lag.ms");
        clock.addAndGet(20_000);
        assertTrue(cleaner.cleanDirtiestNow(), "ratio 0.99 is reached by a log with only duplicates");
        log.updateConfig(log.config().toBuilder()
                .minCleanableDirtyRatio(1.0)
                .maxCompactionLagMs(5_000)
                .build());
        for (int i = 0; i < 40; i++) {
            log.appendAsLeader(
                    CompactedLogs.batch(clock.get(), new String[] {"k" + (i % 3)}, new String[] {"n" + i}),
                    0,
                    clock.get());
        }
        clock.addAndGet(20_000);
        assertTrue(cleaner.cleanDirtiestNow(), "max.compaction.lag.ms makes the log due whatever its ratio");
        log.close();
    }

    @Test
    void shouldKeepTheLastBatchOfEachIdempotentProducerSoDuplicatesAreStillFound() throws Exception {
        LogConfig config = CompactedLogs.compacted(300).build();
        PartitionLog log = CompactedLogs.open(dir.resolve("t-0"), config, clock);
        AppendResult last = null;
        for (int seq = 0; seq < 30; seq++) {
            last = log.appendAsLeader(
                    CompactedLogs.batch(
                            Compression.NONE, 7L, (short) 0, seq, clock.get(), new String[] {"k"}, new String[] {
                                "v" + seq
                            }),
                    0,
                    clock.get());
        }
        for (int i = 0; i < 30; i++) {
            log.appendAsLeader(
                    CompactedLogs.batch(clock.get(), new String[] {"k"}, new String[] {"other" + i}), 0, clock.get());
        }
        assertTrue(CompactedLogs.cleaner(log, dir, clock, 1 << 20, CleanFaults.NONE)
                .cleanDirtiestNow());
        assertFalse(
                CompactedLogs.readAll(log).stream().anyMatch(r -> r.value().startsWith("v")),
                "every record of the producer is superseded");
        log.close();
        PartitionLog reopened = PartitionLog.open(dir.resolve("t-0"), config, new RecoveryReport(), 0L, 0L, clock::get);
        AppendResult retried = reopened.appendAsLeader(
                CompactedLogs.batch(
                        Compression.NONE, 7L, (short) 0, 29, clock.get(), new String[] {"k"}, new String[] {"v29"}),
                0,
                clock.get());
        assertTrue(retried.duplicate(), "the retried last batch is recognised as a duplicate");
        assertEquals(last.firstOffset(), retried.firstOffset());
        reopened.close();
    }

    @Test
    void shouldCleanInSeveralPassesWhenTheMapIsSmall() throws Exception {
        PartitionLog log = CompactedLogs.open(
                dir.resolve("t-0"), CompactedLogs.compacted(4096).build(), clock);
        for (int i = 0; i < 3000; i++) {
            log.appendAsLeader(
                    CompactedLogs.batch(clock.get(), new String[] {"k" + (i % 1500)}, new String[] {"v" + i}),
                    0,
                    clock.get());
        }
        LogCleaner cleaner = CompactedLogs.cleaner(log, dir, clock, OffsetMap.ENTRY_BYTES * 1024L, CleanFaults.NONE);
        int passes = 0;
        while (cleaner.cleanDirtiestNow()) {
            passes++;
        }
        assertTrue(passes > 1, "a map of about 900 keys needs several passes over 1500 keys: " + passes);
        long activeBase = log.segmentChain()[log.segmentCount() - 1].baseOffset();
        List<CompactedLogs.Stored> below = CompactedLogs.readAll(log).stream()
                .filter(r -> r.offset() < activeBase)
                .toList();
        assertEquals(
                below.size(),
                below.stream().map(CompactedLogs.Stored::key).distinct().count(),
                "one record per key");
        log.close();
    }
}
