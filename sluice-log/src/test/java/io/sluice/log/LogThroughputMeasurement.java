package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rough numbers for the report (not a benchmark: no warm-up discipline, shared machine). Run with
 * {@code mvn -o -pl sluice-log test -Pslow -Dtest=LogThroughputMeasurement}. Asserts only that the data is right.
 */
@Tag("slow")
class LogThroughputMeasurement {
    @TempDir
    Path tmp;

    @Test
    void shouldMeasureAppendReadAndRecovery() throws Exception {
        ByteBuffer template = TestBatches.batch(1_000, 10, 100);
        int batchBytes = template.remaining();
        int batches = 100_000;
        LogConfig config = LogConfig.builder().segmentBytes(64 << 20).build();
        Path dir = tmp.resolve("measure-0");
        try (PartitionLog log = PartitionLog.open(dir, config, new RecoveryReport())) {
            ByteBuffer batch = ByteBuffer.allocate(batchBytes);
            long start = System.nanoTime();
            for (int i = 0; i < batches; i++) {
                batch.clear();
                batch.put(template.duplicate()).flip();
                log.appendAsLeader(batch, 0, 5_000);
            }
            long appendNanos = System.nanoTime() - start;
            assertEquals(10L * batches, log.logEndOffset());
            report("append (OS-managed flush)", batches, (long) batches * batchBytes, appendNanos);

            Random random = new Random(1);
            int reads = 20_000;
            long bytes = 0;
            start = System.nanoTime();
            for (int i = 0; i < reads; i++) {
                bytes += log.read(random.nextInt(batches * 10), 1 << 20, Long.MAX_VALUE)
                        .sizeInBytes();
            }
            report("read (region lookup, 1 MiB max)", reads, bytes, System.nanoTime() - start);
            log.flush();
            IdempotentProducerTest.copyWhileOpen(dir, tmp.resolve("crash-0"));
        }
        long start = System.nanoTime();
        RecoveryReport report = new RecoveryReport();
        try (PartitionLog recovered = PartitionLog.open(tmp.resolve("crash-0"), config, report)) {
            report(
                    "recovery (CRC scan of every batch)",
                    batches,
                    (long) batches * batchBytes,
                    System.nanoTime() - start);
            assertEquals(10L * batches, recovered.logEndOffset());
        }
        start = System.nanoTime();
        try (PartitionLog clean = PartitionLog.open(dir, config, new RecoveryReport())) {
            report("open after clean shutdown", batches, (long) batches * batchBytes, System.nanoTime() - start);
            assertEquals(10L * batches, clean.logEndOffset());
        }

        int synced = 2_000;
        try (PartitionLog log = PartitionLog.open(
                tmp.resolve("sync-0"),
                LogConfig.builder().flushIntervalMessages(1).build(),
                new RecoveryReport())) {
            start = System.nanoTime();
            for (int i = 0; i < synced; i++) {
                log.appendAsLeader(TestBatches.batch(1_000, 10, 100), 0, 5_000);
            }
            report("append with fsync per append", synced, (long) synced * batchBytes, System.nanoTime() - start);
            assertEquals(log.logEndOffset(), log.recoveryPoint());
        }
    }

    private static void report(String what, long operations, long bytes, long nanos) {
        double seconds = nanos / 1e9;
        System.out.printf(
                Locale.ROOT,
                "MEASURE %-40s %,10d ops in %6.2f s = %,12.0f ops/s, %8.1f MB/s%n",
                what,
                operations,
                seconds,
                operations / seconds,
                bytes / seconds / 1e6);
    }
}
