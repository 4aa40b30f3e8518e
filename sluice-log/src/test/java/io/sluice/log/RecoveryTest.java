package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecoveryTest {
    private static final LogConfig CONFIG =
            LogConfig.builder().segmentBytes(2048).indexIntervalBytes(100).build();

    @TempDir
    Path tmp;

    private final List<PartitionLog> opened = new ArrayList<>();

    @AfterEach
    void closeLogs() throws IOException {
        for (PartitionLog log : opened) {
            log.close();
        }
    }

    private Path dir() {
        return tmp.resolve("orders-3");
    }

    /** Writes 100 batches of 2 records (offsets 0..199) over several segments. */
    private List<TestBatches.Stored> writeLog(boolean closeCleanly) throws Exception {
        PartitionLog log = PartitionLog.open(dir(), CONFIG, new RecoveryReport());
        for (int i = 0; i < 100; i++) {
            log.appendAsLeader(TestBatches.batch(1_000 + i, "k" + i, "v" + i), 1, 5_000);
        }
        List<TestBatches.Stored> all = TestBatches.readAll(log);
        if (closeCleanly) {
            log.close();
        } else {
            log.flush();
            IdempotentProducerTest.copyWhileOpen(dir(), tmp.resolve("crash-0"));
            log.close();
            deleteRecursively(dir());
            Files.move(tmp.resolve("crash-0"), dir());
        }
        return all;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    private List<Path> files(String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir())) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .sorted()
                    .toList();
        }
    }

    private PartitionLog reopen(RecoveryReport report) throws IOException {
        PartitionLog log = PartitionLog.open(dir(), CONFIG, report);
        opened.add(log);
        return log;
    }

    private static void appendBytes(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes, StandardOpenOption.APPEND);
    }

    private static void flipByte(Path file, long position) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x5A)).rewind();
            channel.write(one, position);
        }
    }

    private static void assertAcceptsAppends(PartitionLog log) throws Exception {
        long end = log.logEndOffset();
        assertEquals(
                end,
                log.appendAsLeader(TestBatches.batch(9_999, "after"), 1, 5_000).firstOffset());
        List<TestBatches.Stored> all = TestBatches.readAll(log);
        assertEquals("after", all.get(all.size() - 1).value());
    }

    @Test
    void shouldTruncateGarbageAppendedToTheTailAfterACleanClose() throws Exception {
        List<TestBatches.Stored> written = writeLog(true);
        Path last = files(".log").get(files(".log").size() - 1);
        long validSize = Files.size(last);
        byte[] garbage = new byte[37];
        new Random(7).nextBytes(garbage);
        appendBytes(last, garbage);

        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertTrue(
                report.toString()
                        .contains("truncated 37 bytes of torn or corrupt tail in orders-3/" + last.getFileName()
                                + " at position " + validSize + ": "),
                report.toString());
        assertEquals(validSize, Files.size(last));
        assertEquals(written, TestBatches.readAll(log));
        assertAcceptsAppends(log);
    }

    @Test
    void shouldTruncateABatchTornInTheMiddleByACrash() throws Exception {
        List<TestBatches.Stored> written = writeLog(false);
        Path last = files(".log").get(files(".log").size() - 1);
        long size = Files.size(last);
        try (FileChannel channel = FileChannel.open(last, StandardOpenOption.WRITE)) {
            channel.truncate(size - 10);
        }
        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertTrue(
                report.toString().contains("torn or corrupt tail in orders-3/" + last.getFileName()),
                report.toString());
        List<TestBatches.Stored> recovered = TestBatches.readAll(log);
        assertEquals(written.subList(0, written.size() - 2), recovered, "the torn batch (2 records) is gone");
        assertEquals(198, log.logEndOffset());
        assertAcceptsAppends(log);
    }

    @Test
    void shouldTruncateFromAFlippedByteAndDropLaterSegments() throws Exception {
        List<TestBatches.Stored> written = writeLog(false);
        List<Path> logs = files(".log");
        assertTrue(logs.size() >= 4, "segments: " + logs.size());
        Path middle = logs.get(1);
        long middleBase = Long.parseLong(middle.getFileName().toString().substring(0, 20));
        flipByte(middle, Files.size(middle) / 2);

        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertTrue(report.toString().contains("CRC-32C mismatch"), report.toString());
        for (Path later : logs.subList(2, logs.size())) {
            assertTrue(
                    report.toString().contains("deleted segment orders-3/" + later.getFileName()), report.toString());
            assertFalse(Files.exists(later));
        }
        assertEquals(2, log.segmentCount());
        long end = log.logEndOffset();
        assertTrue(end > middleBase && end < middleBase + 40, "log end " + end);
        assertEquals(written.subList(0, (int) end), TestBatches.readAll(log));
        assertAcceptsAppends(log);
    }

    @Test
    void shouldRebuildACorruptOffsetIndex() throws Exception {
        List<TestBatches.Stored> written = writeLog(true);
        Path index = files(".index").get(0);
        appendBytes(index, new byte[] {1, 2, 3});
        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertTrue(
                report.toString().contains("rebuilt offset and time index of orders-3/00000000000000000000.log"),
                report.toString());
        assertEquals(written, TestBatches.readAll(log, 0, 300));
        assertEquals(0, Files.size(index) % 8);
    }

    @Test
    void shouldRebuildAnIndexWhosePositionsDoNotMatchTheLog() throws Exception {
        List<TestBatches.Stored> written = writeLog(true);
        Path index = files(".index").get(1);
        byte[] bytes = Files.readAllBytes(index);
        assertTrue(bytes.length >= 16);
        bytes[bytes.length - 1] ^= 0x01;
        Files.write(index, bytes);
        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertTrue(
                report.toString()
                        .contains("rebuilt offset and time index of orders-3/"
                                + index.getFileName().toString().replace(".index", ".log")),
                report.toString());
        assertEquals(written, TestBatches.readAll(log, 0, 300));
    }

    @Test
    void shouldRebuildAMissingOrGarbageTimeIndex() throws Exception {
        writeLog(true);
        Files.delete(files(".timeindex").get(0));
        Files.write(files(".timeindex").get(1), new byte[] {(byte) 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertEquals(
                2, report.lines().stream().filter(l -> l.contains("time index")).count(), report.toString());
        assertEquals(new OffsetAndTimestamp(20, 1_010, 1), log.offsetForTimestamp(1_010));
        assertEquals(new OffsetAndTimestamp(198, 1_099, 1), log.offsetOfMaxTimestamp());
    }

    @Test
    void shouldReportASegmentDeletedFromTheMiddleOfTheChain() throws Exception {
        writeLog(true);
        List<Path> logs = files(".log");
        Path missing = logs.get(1);
        long missingBase = Long.parseLong(missing.getFileName().toString().substring(0, 20));
        long nextBase = Long.parseLong(logs.get(2).getFileName().toString().substring(0, 20));
        Files.delete(missing);
        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertTrue(
                report.toString().contains("offsets " + missingBase + ".." + (nextBase - 1) + " are missing"),
                report.toString());
        assertTrue(report.toString().contains("deleted orphan index file"), report.toString());
        LogReadResult read = log.read(missingBase, 10_000, Long.MAX_VALUE);
        assertEquals(nextBase, read.firstOffset(), "a read in the gap continues at the next segment");
    }

    @Test
    void shouldRecoverAnEmptyDirectoryAndAnEmptyLogFile() throws Exception {
        Files.createDirectories(dir());
        Files.createFile(dir().resolve("00000000000000000000.log"));
        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertEquals(0, log.logEndOffset());
        assertAcceptsAppends(log);
    }

    @Test
    void shouldRecoverALogFileThatIsPureGarbage() throws Exception {
        Files.createDirectories(dir());
        byte[] garbage = new byte[5000];
        new Random(3).nextBytes(garbage);
        Files.write(dir().resolve("00000000000000000000.log"), garbage);
        RecoveryReport report = new RecoveryReport();
        PartitionLog log = reopen(report);
        assertTrue(report.toString().contains("truncated 5000 bytes"), report.toString());
        assertEquals(0, log.logEndOffset());
        assertAcceptsAppends(log);
    }
}
