package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import io.sluice.log.epoch.EpochEndOffset;
import io.sluice.log.epoch.EpochEntry;
import io.sluice.log.epoch.LeaderEpochCache;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The partition log keeps its leader epoch history through appends, truncation, retention and restarts. */
class LeaderEpochTest {
    private static final LogConfig CONFIG = LogConfig.builder()
            .segmentBytes(1024)
            .retentionBytes(-1)
            .fileDeleteDelayMs(0)
            .build();

    @TempDir
    Path tmp;

    private PartitionLog writeEpochs() throws Exception {
        PartitionLog log = PartitionLog.open(tmp.resolve("epochs-0"), CONFIG, new RecoveryReport());
        int[] epochs = {0, 0, 3, 3, 3, 5, 5};
        for (int epoch : epochs) {
            log.appendAsLeader(TestBatches.batch(1_000, "a", "b"), epoch, 5_000);
        }
        return log;
    }

    @Test
    void shouldRecordWhereEachLeaderEpochStarted() throws Exception {
        try (PartitionLog log = writeEpochs()) {
            assertEquals(
                    List.of(new EpochEntry(0, 0), new EpochEntry(3, 4), new EpochEntry(5, 10)), log.leaderEpochs());
            assertEquals(5, log.latestEpoch());
            assertEquals(new EpochEndOffset(3, 10), log.endOffsetForEpoch(3));
            assertEquals(new EpochEndOffset(3, 10), log.endOffsetForEpoch(4));
            assertEquals(new EpochEndOffset(5, 14), log.endOffsetForEpoch(5));
            assertEquals(EpochEndOffset.UNDEFINED, log.endOffsetForEpoch(6));
        }
    }

    @Test
    void shouldForgetEpochsTruncatedAwayAndRestoreTheRestAfterARestart() throws Exception {
        try (PartitionLog log = writeEpochs()) {
            log.truncateTo(8);
            assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(3, 4)), log.leaderEpochs());
            assertEquals(new EpochEndOffset(3, 8), log.endOffsetForEpoch(3));
            log.appendAsLeader(TestBatches.batch(1_000, "c"), 7, 5_000);
        }
        RecoveryReport report = new RecoveryReport();
        try (PartitionLog log = PartitionLog.open(tmp.resolve("epochs-0"), CONFIG, report)) {
            assertTrue(report.isEmpty(), report.toString());
            assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(3, 4), new EpochEntry(7, 8)), log.leaderEpochs());
        }
    }

    @Test
    void shouldMoveTheFirstEpochWithTheLogStart() throws Exception {
        try (PartitionLog log = writeEpochs()) {
            log.deleteRecordsBefore(6);
            assertEquals(List.of(new EpochEntry(3, 6), new EpochEntry(5, 10)), log.leaderEpochs());
        }
    }

    @Test
    void shouldRebuildAMissingOrCorruptEpochFileFromTheBatches() throws Exception {
        writeEpochs().close();
        Path file = tmp.resolve("epochs-0").resolve(LeaderEpochCache.FILE_NAME);
        Files.delete(file);
        RecoveryReport report = new RecoveryReport();
        try (PartitionLog log = PartitionLog.open(tmp.resolve("epochs-0"), CONFIG, report)) {
            assertTrue(
                    report.toString().contains("rebuilt the leader epoch cache of epochs-0 from the log: 3 epochs"),
                    report.toString());
            assertEquals(
                    List.of(new EpochEntry(0, 0), new EpochEntry(3, 4), new EpochEntry(5, 10)), log.leaderEpochs());
        }
        Files.writeString(file, "0\n3\nbanana\n");
        report = new RecoveryReport();
        try (PartitionLog log = PartitionLog.open(tmp.resolve("epochs-0"), CONFIG, report)) {
            assertTrue(report.toString().contains("rebuilding the leader epoch cache of epochs-0"), report.toString());
            assertEquals(3, log.leaderEpochs().size());
        }
        // the file torn inside its last entry ("5 10\n" cut to "5 1"): rebuilt from the batches, not read as (5, 1)
        Files.writeString(file, "0\n3\n0 0\n3 4\n5 1");
        report = new RecoveryReport();
        try (PartitionLog log = PartitionLog.open(tmp.resolve("epochs-0"), CONFIG, report)) {
            assertTrue(report.toString().contains("rebuilding the leader epoch cache of epochs-0"), report.toString());
            assertEquals(
                    List.of(new EpochEntry(0, 0), new EpochEntry(3, 4), new EpochEntry(5, 10)), log.leaderEpochs());
        }
    }

    @Test
    void shouldTakeEpochsFromFollowerBatches() throws Exception {
        try (PartitionLog leader = writeEpochs();
                PartitionLog follower = PartitionLog.open(tmp.resolve("follower-0"), CONFIG, new RecoveryReport())) {
            long next = 0;
            while (next < leader.logEndOffset()) {
                LogReadResult read = leader.read(next, 100_000, Long.MAX_VALUE);
                follower.appendAsFollower(TestBatches.bytesOf(read));
                next = follower.logEndOffset();
            }
            assertEquals(leader.leaderEpochs(), follower.leaderEpochs());
            assertEquals(TestBatches.readAll(leader), TestBatches.readAll(follower));
        }
    }

    @Test
    void shouldAcceptFollowerBatchesThatStartBeyondTheLogEnd() throws Exception {
        try (PartitionLog follower = PartitionLog.open(tmp.resolve("gap-0"), CONFIG, new RecoveryReport())) {
            ByteBuffer first = TestBatches.batch(1_000, "a", "b");
            new io.sluice.record.batch.RecordBatchView().wrap(first, 0).baseOffset(0);
            follower.appendAsFollower(first);
            ByteBuffer later = TestBatches.batch(1_000, "k", "l");
            new io.sluice.record.batch.RecordBatchView().wrap(later, 0).baseOffset(10);
            AppendResult result = follower.appendAsFollower(later);
            assertEquals(10, result.firstOffset());
            assertEquals(12, follower.logEndOffset());
            assertEquals(10, follower.read(2, 10_000, Long.MAX_VALUE).firstOffset(), "a read in the gap moves on");
            ByteBuffer behind = TestBatches.batch(1_000, "x");
            new io.sluice.record.batch.RecordBatchView().wrap(behind, 0).baseOffset(11);
            assertThrows(IllegalArgumentException.class, () -> follower.appendAsFollower(behind));
        }
    }
}
