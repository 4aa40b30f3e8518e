package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionLogTest {
    @TempDir
    Path tmp;

    private final List<PartitionLog> opened = new ArrayList<>();

    @AfterEach
    void closeLogs() throws IOException {
        for (PartitionLog log : opened) {
            log.close();
        }
    }

    private PartitionLog open(LogConfig config) throws IOException {
        PartitionLog log = PartitionLog.open(tmp.resolve("orders-3"), config, new RecoveryReport());
        opened.add(log);
        return log;
    }

    private static LogConfig small() {
        return LogConfig.builder()
                .segmentBytes(1024)
                .indexIntervalBytes(128)
                .fileDeleteDelayMs(0)
                .build();
    }

    @Test
    void shouldAssignOffsetsAndReadEverythingBackAcrossRolls() throws Exception {
        PartitionLog log = open(small());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String[] values = {"a" + i, "b" + i, "c" + i};
            AppendResult result = log.appendAsLeader(TestBatches.batch(1_000 + i, values), 7, 5_000);
            assertEquals(3L * i, result.firstOffset());
            assertEquals(3L * i + 2, result.lastOffset());
            assertFalse(result.duplicate());
            expected.addAll(List.of(values));
        }
        assertTrue(log.segmentCount() > 3, "segments: " + log.segmentCount());
        assertEquals(180, log.logEndOffset());
        List<TestBatches.Stored> read = TestBatches.readAll(log);
        assertEquals(expected, read.stream().map(TestBatches.Stored::value).toList());
        for (int i = 0; i < read.size(); i++) {
            assertEquals(i, read.get(i).offset());
        }
    }

    @Test
    void shouldStampLeaderEpochAndKeepCrcValid() throws Exception {
        PartitionLog log = open(small());
        log.appendAsLeader(TestBatches.batch(1_000, "x"), 42, 5_000);
        List<MutableRecordBatch> batches = TestBatches.batchesOf(log.read(0, 1000, Long.MAX_VALUE));
        assertEquals(1, batches.size());
        assertEquals(42, batches.get(0).partitionLeaderEpoch());
        assertTrue(batches.get(0).isValid());
    }

    @Test
    void shouldReadFromTheBatchContainingAMiddleOffset() throws Exception {
        PartitionLog log = open(small());
        log.appendAsLeader(TestBatches.batch(1, "a", "b", "c"), 0, 5_000);
        log.appendAsLeader(TestBatches.batch(1, "d", "e", "f"), 0, 5_000);
        LogReadResult result = log.read(4, 10_000, Long.MAX_VALUE);
        assertEquals(3, result.firstOffset());
        assertEquals(3, TestBatches.batchesOf(result).get(0).baseOffset());
    }

    @Test
    void shouldReturnTheFirstBatchWholeEvenAboveMaxBytes() throws Exception {
        PartitionLog log = open(LogConfig.builder().segmentBytes(1 << 20).build());
        ByteBuffer big = TestBatches.batch(1, 4, 200);
        int batchSize = big.remaining();
        log.appendAsLeader(big, 0, 5_000);
        log.appendAsLeader(TestBatches.batch(1, 4, 200), 0, 5_000);
        log.appendAsLeader(TestBatches.batch(1, 4, 200), 0, 5_000);

        LogReadResult oneWhole = log.read(0, 10, Long.MAX_VALUE);
        assertEquals(batchSize, oneWhole.sizeInBytes());
        assertTrue(log.read(0, 10, Long.MAX_VALUE, false).isEmpty());

        LogReadResult two = log.read(0, batchSize * 2 + batchSize / 2, Long.MAX_VALUE);
        assertEquals(2, TestBatches.batchesOf(two).size());
        assertEquals(2 * batchSize, two.sizeInBytes());
    }

    @Test
    void shouldNotReturnBatchesAtOrAboveTheHighWatermark() throws Exception {
        PartitionLog log = open(small());
        log.appendAsLeader(TestBatches.batch(1, "a", "b"), 0, 5_000);
        log.appendAsLeader(TestBatches.batch(1, "c", "d"), 0, 5_000);
        List<MutableRecordBatch> batches = TestBatches.batchesOf(log.read(0, 10_000, 2));
        assertEquals(1, batches.size());
        assertEquals(1, batches.get(0).lastOffset());
        assertTrue(log.read(2, 10_000, 2).isEmpty());
    }

    @Test
    void shouldRefuseOffsetsOutsideTheLog() throws Exception {
        PartitionLog log = open(small());
        log.appendAsLeader(TestBatches.batch(1, "a", "b"), 0, 5_000);
        OffsetOutOfRangeException e =
                assertThrows(OffsetOutOfRangeException.class, () -> log.read(3, 100, Long.MAX_VALUE));
        assertEquals(3, e.requestedOffset());
        assertEquals(2, e.logEndOffset());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(-1, 100, Long.MAX_VALUE));
        LogReadResult atEnd = log.read(2, 100, Long.MAX_VALUE);
        assertTrue(atEnd.isEmpty());
        assertNull(atEnd.channel());
    }

    @Test
    void shouldDeleteOldSegmentsBySizeButNeverTheActiveOne() throws Exception {
        PartitionLog log = open(LogConfig.builder()
                .segmentBytes(1024)
                .retentionBytes(2048)
                .fileDeleteDelayMs(0)
                .build());
        for (int i = 0; i < 40; i++) {
            log.appendAsLeader(TestBatches.batch(1_000, 2, 100), 0, 5_000);
        }
        int before = log.segmentCount();
        int deleted = log.enforceRetention(6_000);
        assertTrue(deleted > 0);
        assertEquals(before - deleted, log.segmentCount());
        assertTrue(log.sizeInBytes() >= 2048 - 1024 && log.sizeInBytes() < 2048 + 1024, "size " + log.sizeInBytes());
        assertEquals(log.segmentBaseOffsets()[0], log.logStartOffset());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(0, 100, Long.MAX_VALUE));
        assertEquals(log.logStartOffset(), TestBatches.readAll(log).get(0).offset());

        PartitionLog tiny = PartitionLog.open(
                tmp.resolve("tiny-0"),
                LogConfig.builder().segmentBytes(1024).retentionBytes(0).build(),
                new RecoveryReport());
        opened.add(tiny);
        tiny.appendAsLeader(TestBatches.batch(1, "only"), 0, 5_000);
        assertEquals(0, tiny.enforceRetention(6_000));
        assertEquals(1, tiny.segmentCount());
    }

    @Test
    void shouldDeleteSegmentsByAgeOfTheirNewestBatch() throws Exception {
        PartitionLog log = open(LogConfig.builder()
                .segmentBytes(1024)
                .retentionMs(10_000)
                .fileDeleteDelayMs(0)
                .build());
        for (int i = 0; i < 20; i++) {
            log.appendAsLeader(TestBatches.batch(1_000, 2, 100), 0, 5_000);
        }
        long firstNew = log.logEndOffset();
        log.appendAsLeader(TestBatches.batch(100_000, 2, 1000), 0, 100_000);
        log.appendAsLeader(TestBatches.batch(100_000, 2, 1000), 0, 100_000);
        assertEquals(0, log.enforceRetention(10_999), "nothing is older than 10 s yet");
        log.enforceRetention(50_000);
        assertEquals(firstNew, log.logStartOffset());
        assertEquals(2, log.segmentCount());
    }

    @Test
    void shouldKeepDeletedSegmentsReadableUntilTheDeleteDelayPasses() throws Exception {
        PartitionLog log = open(LogConfig.builder()
                .segmentBytes(1024)
                .retentionBytes(0)
                .fileDeleteDelayMs(60_000)
                .build());
        for (int i = 0; i < 10; i++) {
            log.appendAsLeader(TestBatches.batch(1_000, 2, 200), 0, 5_000);
        }
        LogReadResult inFlight = log.read(0, 100_000, Long.MAX_VALUE);
        log.enforceRetention(10_000);
        assertTrue(log.logStartOffset() > 0);
        assertTrue(Files.exists(tmp.resolve("orders-3").resolve("00000000000000000000.log.deleted")));
        assertEquals(0, TestBatches.batchesOf(inFlight).get(0).baseOffset(), "the channel is still open");
        log.deleteExpiredFiles(10_000 + 60_000);
        assertFalse(Files.exists(tmp.resolve("orders-3").resolve("00000000000000000000.log.deleted")));
        assertFalse(inFlight.channel().isOpen());
    }

    @Test
    void shouldFindOffsetsByTimestamp() throws Exception {
        PartitionLog log = open(
                LogConfig.builder().segmentBytes(1024).indexIntervalBytes(0).build());
        for (int i = 0; i < 30; i++) {
            log.appendAsLeader(TestBatches.batch(1_000L * (i + 1), "a" + i, "b" + i), 0, 5_000);
        }
        assertEquals(new OffsetAndTimestamp(0, 1_000, 0), log.offsetForTimestamp(0));
        assertEquals(new OffsetAndTimestamp(0, 1_000, 0), log.offsetForTimestamp(1_000));
        assertEquals(new OffsetAndTimestamp(2, 2_000, 0), log.offsetForTimestamp(1_001));
        assertEquals(new OffsetAndTimestamp(40, 21_000, 0), log.offsetForTimestamp(20_500));
        assertEquals(new OffsetAndTimestamp(58, 30_000, 0), log.offsetForTimestamp(30_000));
        assertNull(log.offsetForTimestamp(30_001));
        assertEquals(
                new OffsetAndTimestamp(58, 30_000, 0),
                log.offsetOfMaxTimestamp(),
                "first record with the max timestamp");
    }

    @Test
    void shouldFindOffsetsByTimestampWhenTimestampsGoBackwards() throws Exception {
        PartitionLog log = open(
                LogConfig.builder().segmentBytes(1 << 20).indexIntervalBytes(0).build());
        long[] timestamps = {5_000, 1_000, 7_000, 2_000, 9_000};
        for (long ts : timestamps) {
            log.appendAsLeader(TestBatches.batch(ts, "v"), 0, 5_000);
        }
        assertEquals(new OffsetAndTimestamp(0, 5_000, 0), log.offsetForTimestamp(4_000));
        assertEquals(new OffsetAndTimestamp(2, 7_000, 0), log.offsetForTimestamp(6_000));
        assertEquals(new OffsetAndTimestamp(4, 9_000, 0), log.offsetForTimestamp(8_000));
    }

    @Test
    void shouldRollByAgeOfTheFirstBatch() throws Exception {
        PartitionLog log = open(LogConfig.builder().segmentMs(1_000).build());
        log.appendAsLeader(TestBatches.batch(10_000, "a"), 0, 10_000);
        log.appendAsLeader(TestBatches.batch(10_500, "b"), 0, 10_500);
        assertEquals(1, log.segmentCount());
        log.appendAsLeader(TestBatches.batch(11_500, "c"), 0, 11_500);
        assertEquals(2, log.segmentCount());
        assertArrayEquals(new long[] {0, 2}, log.segmentBaseOffsets());
    }

    @Test
    void shouldAgeASegmentByTheRecordsTimestampsNotTheWallClock() throws Exception {
        // Records written a day ago (mirrored or replayed) arrive now: as in Kafka, the segment ages by the
        // records' own timestamps, so they share segments instead of rolling one per append.
        PartitionLog log = open(LogConfig.builder().segmentMs(1_000).build());
        long now = 86_400_000L;
        for (int i = 0; i < 5; i++) {
            log.appendAsLeader(TestBatches.batch(10_000 + i * 100, "old-" + i), 0, now + i);
        }
        assertEquals(1, log.segmentCount());
        log.appendAsLeader(TestBatches.batch(11_500, "older-than-a-segment-ms-after-the-first"), 0, now + 10);
        assertEquals(2, log.segmentCount());
    }

    @Test
    void shouldTruncateToAnOffsetAndAcceptNewAppends() throws Exception {
        PartitionLog log = open(small());
        for (int i = 0; i < 30; i++) {
            log.appendAsLeader(TestBatches.batch(1_000, "a" + i, "b" + i), 0, 5_000);
        }
        log.truncateTo(21);
        assertEquals(20, log.logEndOffset(), "the batch containing 21 goes whole");
        log.appendAsLeader(TestBatches.batch(1_000, "new"), 0, 5_000);
        List<TestBatches.Stored> all = TestBatches.readAll(log);
        assertEquals(21, all.size());
        assertEquals("new", all.get(20).value());
        assertEquals(20, all.get(20).offset());
    }

    @Test
    void shouldDeleteRecordsBeforeAnOffset() throws Exception {
        PartitionLog log = open(small());
        for (int i = 0; i < 30; i++) {
            log.appendAsLeader(TestBatches.batch(1_000, "a" + i, "b" + i), 0, 5_000);
        }
        log.deleteRecordsBefore(33);
        assertEquals(33, log.logStartOffset());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(32, 100, Long.MAX_VALUE));
        assertEquals(33, TestBatches.readAll(log).get(0).offset());
        assertTrue(log.segmentBaseOffsets()[0] <= 33);
        assertThrows(OffsetOutOfRangeException.class, () -> log.deleteRecordsBefore(61));
    }

    @Test
    void shouldFsyncBeforeReturningWhenFlushingEveryMessage() throws Exception {
        PartitionLog perAppend =
                open(LogConfig.builder().flushIntervalMessages(1).build());
        perAppend.appendAsLeader(TestBatches.batch(1, "a", "b"), 0, 5_000);
        assertEquals(2, perAppend.recoveryPoint());

        PartitionLog osManaged = PartitionLog.open(tmp.resolve("lazy-0"), LogConfig.defaults(), new RecoveryReport());
        opened.add(osManaged);
        osManaged.appendAsLeader(TestBatches.batch(1, "a", "b"), 0, 5_000);
        assertEquals(0, osManaged.recoveryPoint());
        osManaged.flush();
        assertEquals(2, osManaged.recoveryPoint());

        PartitionLog everyThree = PartitionLog.open(
                tmp.resolve("three-0"),
                LogConfig.builder().flushIntervalMessages(3).build(),
                new RecoveryReport());
        opened.add(everyThree);
        everyThree.appendAsLeader(TestBatches.batch(1, "a", "b"), 0, 5_000);
        assertEquals(0, everyThree.recoveryPoint());
        everyThree.appendAsLeader(TestBatches.batch(1, "c"), 0, 5_000);
        assertEquals(3, everyThree.recoveryPoint());
    }

    @Test
    void shouldReopenWithEverythingAfterACleanClose() throws Exception {
        PartitionLog log = open(small());
        for (int i = 0; i < 40; i++) {
            log.appendAsLeader(TestBatches.batch(1_000 + i, "a" + i), 0, 5_000);
        }
        List<TestBatches.Stored> before = TestBatches.readAll(log);
        log.close();
        RecoveryReport report = new RecoveryReport();
        PartitionLog reopened = PartitionLog.open(tmp.resolve("orders-3"), small(), report);
        opened.add(reopened);
        assertTrue(report.isEmpty(), report.toString());
        assertEquals(40, reopened.logEndOffset());
        assertEquals(before, TestBatches.readAll(reopened));
        assertEquals(new OffsetAndTimestamp(39, 1_039, 0), reopened.offsetOfMaxTimestamp());
        assertEquals(new OffsetAndTimestamp(10, 1_010, 0), reopened.offsetForTimestamp(1_010));
        reopened.appendAsLeader(TestBatches.batch(1, "after"), 0, 5_000);
        assertEquals(41, reopened.logEndOffset());
    }

    @Test
    void shouldRefuseBytesThatAreNotWholeBatches() throws Exception {
        PartitionLog log = open(small());
        ByteBuffer batch = TestBatches.batch(1, "a");
        ByteBuffer torn = batch.duplicate().limit(batch.limit() - 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> log.appendAsLeader(torn, 0, 1));
        assertTrue(e.getMessage().contains("batchLength"), e.getMessage());
        assertEquals(0, log.logEndOffset());
    }

    @Test
    void shouldTruncateIntoAnOldSegmentAfterARestartAndReopenCleanly() throws Exception {
        PartitionLog log = open(small());
        for (int i = 0; i < 60; i++) {
            log.appendAsLeader(TestBatches.batch(1_000 + i, "a" + i), 0, 5_000);
        }
        log.close();
        PartitionLog reopened = PartitionLog.open(tmp.resolve("orders-3"), small(), new RecoveryReport());
        long secondBase = reopened.segmentBaseOffsets()[1];
        reopened.truncateTo(secondBase + 2);
        assertEquals(secondBase + 2, reopened.logEndOffset());
        assertEquals(2, reopened.segmentCount());
        reopened.appendAsLeader(TestBatches.batch(9_000, "x"), 0, 5_000);
        reopened.close();
        RecoveryReport report = new RecoveryReport();
        PartitionLog again = PartitionLog.open(tmp.resolve("orders-3"), small(), report);
        opened.add(again);
        assertTrue(report.isEmpty(), report.toString());
        List<TestBatches.Stored> all = TestBatches.readAll(again);
        assertEquals(secondBase + 3, all.size());
        assertEquals("x", all.get(all.size() - 1).value());
        assertEquals(new OffsetAndTimestamp(secondBase + 2, 9_000, 0), again.offsetOfMaxTimestamp());
    }
}
