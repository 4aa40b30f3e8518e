package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Appenders and lock-free readers on one partition at once, across rolls and retention. */
class ConcurrencyTest {
    @TempDir
    Path tmp;

    @Test
    void shouldKeepOffsetsContiguousAndReadsConsistentUnderConcurrentAppendsAndReads() throws Exception {
        LogConfig config = LogConfig.builder()
                .segmentBytes(4096)
                .indexIntervalBytes(256)
                .retentionBytes(64 * 1024)
                .fileDeleteDelayMs(60_000)
                .build();
        int appenders = 3;
        int batchesEach = 300;
        try (PartitionLog log = PartitionLog.open(tmp.resolve("busy-0"), config, new RecoveryReport())) {
            ExecutorService pool = Executors.newFixedThreadPool(appenders + 2);
            AtomicBoolean done = new AtomicBoolean();
            List<Future<List<long[]>>> appends = new ArrayList<>();
            for (int a = 0; a < appenders; a++) {
                int id = a;
                appends.add(pool.submit(() -> {
                    List<long[]> ranges = new ArrayList<>();
                    for (int i = 0; i < batchesEach; i++) {
                        AppendResult r = log.appendAsLeader(
                                TestBatches.batch(1_000, "a" + id + "-" + i, "b" + id + "-" + i), 0, 5_000);
                        ranges.add(new long[] {r.firstOffset(), r.lastOffset()});
                        if (i % 50 == 0) {
                            log.enforceRetention(5_000);
                        }
                    }
                    return ranges;
                }));
            }
            List<Future<Integer>> reads = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                reads.add(pool.submit(() -> {
                    int checked = 0;
                    while (!done.get()) {
                        long start = log.logStartOffset();
                        long end = log.logEndOffset();
                        if (end == start) {
                            continue;
                        }
                        long offset = start + (checked * 7919L) % (end - start);
                        LogReadResult result;
                        try {
                            result = log.read(offset, 2048, Long.MAX_VALUE);
                        } catch (OffsetOutOfRangeException e) {
                            continue; // retention moved the start meanwhile
                        }
                        long expected = -1;
                        for (MutableRecordBatch batch : TestBatches.batchesOf(result)) {
                            assertTrue(batch.isValid());
                            if (expected >= 0) {
                                assertEquals(expected, batch.baseOffset(), "batches in a read are contiguous");
                            } else {
                                assertTrue(batch.baseOffset() <= offset && batch.lastOffset() >= offset);
                            }
                            expected = batch.lastOffset() + 1;
                        }
                        checked++;
                    }
                    return checked;
                }));
            }
            Set<Long> firstOffsets = new HashSet<>();
            long records = 0;
            for (Future<List<long[]>> f : appends) {
                for (long[] range : f.get()) {
                    assertEquals(1, range[1] - range[0]);
                    assertTrue(firstOffsets.add(range[0]), "offset " + range[0] + " assigned twice");
                    records += 2;
                }
            }
            done.set(true);
            for (Future<Integer> f : reads) {
                assertTrue(f.get() > 0);
            }
            pool.shutdown();
            assertEquals(records, log.logEndOffset());
            for (long first = 0; first < records; first += 2) {
                assertTrue(firstOffsets.contains(first), "gap at " + first);
            }
            List<TestBatches.Stored> survivors = TestBatches.readAll(log);
            assertEquals(log.logEndOffset() - log.logStartOffset(), survivors.size());
        }
    }
}
