package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdempotentProducerTest {
    private static final long PID = 1000;
    private static final short EPOCH = 3;

    @TempDir
    Path tmp;

    private PartitionLog log;
    private final List<PartitionLog> others = new ArrayList<>();

    @BeforeEach
    void open() throws IOException {
        log = PartitionLog.open(
                tmp.resolve("idem-0"), LogConfig.builder().segmentBytes(4096).build(), new RecoveryReport());
    }

    @AfterEach
    void close() throws IOException {
        log.close();
        for (PartitionLog other : others) {
            other.close();
        }
    }

    private AppendResult append(long pid, short epoch, int seq, int records) throws Exception {
        return log.appendAsLeader(TestBatches.idempotent(pid, epoch, seq, records), 0, 5_000);
    }

    private short errorOf(long pid, short epoch, int seq, int records) {
        return assertThrows(ProducerStateException.class, () -> append(pid, epoch, seq, records))
                .errorCode();
    }

    @Test
    void shouldAcceptInOrderSequences() throws Exception {
        assertEquals(0, append(PID, EPOCH, 0, 3).firstOffset());
        assertEquals(3, append(PID, EPOCH, 3, 2).firstOffset());
        assertEquals(5, append(PID, EPOCH, 5, 1).firstOffset());
        assertEquals(6, log.logEndOffset());
    }

    @Test
    void shouldAnswerARetryOfEachOfTheLastFiveBatchesWithItsOriginalOffsets() throws Exception {
        long[][] offsets = new long[6][];
        int seq = 0;
        for (int i = 0; i < 6; i++) {
            AppendResult result = append(PID, EPOCH, seq, 2);
            offsets[i] = new long[] {result.firstOffset(), result.lastOffset()};
            seq += 2;
        }
        long end = log.logEndOffset();
        for (int i = 1; i < 6; i++) {
            AppendResult retry = append(PID, EPOCH, 2 * i, 2);
            assertTrue(retry.duplicate(), "batch " + i);
            assertEquals(offsets[i][0], retry.firstOffset());
            assertEquals(offsets[i][1], retry.lastOffset());
        }
        assertEquals(end, log.logEndOffset(), "nothing appended");
        assertEquals(
                ProducerStateException.OUT_OF_ORDER_SEQUENCE_NUMBER,
                errorOf(PID, EPOCH, 0, 2),
                "the sixth-last batch is no longer cached: out of order, as in Kafka (never DUPLICATE_SEQUENCE_NUMBER)");
    }

    @Test
    void shouldRefuseASequenceGap() throws Exception {
        append(PID, EPOCH, 0, 3);
        ProducerStateException e = assertThrows(ProducerStateException.class, () -> append(PID, EPOCH, 4, 1));
        assertEquals(ProducerStateException.OUT_OF_ORDER_SEQUENCE_NUMBER, e.errorCode());
        assertTrue(
                e.getMessage().contains("4 (incoming seq. number), 2 (current end sequence number)"), e.getMessage());
        assertEquals(3, log.logEndOffset());
    }

    @Test
    void shouldRefuseAnOlderEpoch() throws Exception {
        append(PID, EPOCH, 0, 1);
        assertEquals(ProducerStateException.INVALID_PRODUCER_EPOCH, errorOf(PID, (short) (EPOCH - 1), 1, 1));
    }

    @Test
    void shouldRequireANewEpochToStartAtSequenceZero() throws Exception {
        append(PID, EPOCH, 0, 4);
        assertEquals(ProducerStateException.OUT_OF_ORDER_SEQUENCE_NUMBER, errorOf(PID, (short) (EPOCH + 1), 4, 1));
        assertEquals(4, append(PID, (short) (EPOCH + 1), 0, 1).firstOffset());
        assertEquals(
                ProducerStateException.INVALID_PRODUCER_EPOCH, errorOf(PID, EPOCH, 4, 1), "the old epoch is fenced");
    }

    @Test
    void shouldAcceptAnySequenceFromAnUnknownProducer() throws Exception {
        assertEquals(0, append(PID, EPOCH, 17, 2).firstOffset());
        assertEquals(2, append(PID, EPOCH, 19, 1).firstOffset());
        assertEquals(3, append(PID + 1, (short) 0, 123_456, 1).firstOffset());
    }

    @Test
    void shouldWrapSequencesPastIntegerMaxValue() throws Exception {
        append(PID, EPOCH, Integer.MAX_VALUE - 1, 2);
        assertEquals(2, append(PID, EPOCH, 0, 1).firstOffset());
    }

    @Test
    void shouldValidateSeveralBatchesOfOneRequestInOrderAndAppendNothingWhenOneFails() throws Exception {
        ByteBuffer two =
                TestBatches.concat(TestBatches.idempotent(PID, EPOCH, 0, 2), TestBatches.idempotent(PID, EPOCH, 2, 2));
        assertEquals(3, log.appendAsLeader(two, 0, 5_000).lastOffset());
        ByteBuffer gapInside =
                TestBatches.concat(TestBatches.idempotent(PID, EPOCH, 4, 1), TestBatches.idempotent(PID, EPOCH, 9, 1));
        assertThrows(ProducerStateException.class, () -> log.appendAsLeader(gapInside, 0, 5_000));
        assertEquals(4, log.logEndOffset());
        assertEquals(4, append(PID, EPOCH, 4, 1).firstOffset());
    }

    @Test
    void shouldRestoreProducerStateAfterACleanRestart() throws Exception {
        append(PID, EPOCH, 0, 2);
        append(PID, EPOCH, 2, 2);
        log.close();
        log = PartitionLog.open(
                tmp.resolve("idem-0"), LogConfig.builder().segmentBytes(4096).build(), new RecoveryReport());
        AppendResult retry = append(PID, EPOCH, 2, 2);
        assertTrue(retry.duplicate());
        assertEquals(2, retry.firstOffset());
        assertEquals(ProducerStateException.OUT_OF_ORDER_SEQUENCE_NUMBER, errorOf(PID, EPOCH, 7, 1));
        assertEquals(4, append(PID, EPOCH, 4, 1).firstOffset());
    }

    @Test
    void shouldRebuildProducerStateFromTheLogAfterACrash() throws Exception {
        int seq = 0;
        for (int i = 0; i < 80; i++) {
            append(PID, EPOCH, seq, 3);
            seq += 3;
        }
        assertTrue(log.segmentCount() > 2, "rolled, so snapshots exist");
        log.flush();
        Path crashed = copyWhileOpen(tmp.resolve("idem-0"), tmp.resolve("crashed-0"));
        PartitionLog recovered = PartitionLog.open(
                crashed, LogConfig.builder().segmentBytes(4096).build(), new RecoveryReport());
        others.add(recovered);
        AppendResult retry = recovered.appendAsLeader(TestBatches.idempotent(PID, EPOCH, seq - 3, 3), 0, 5_000);
        assertTrue(retry.duplicate());
        assertEquals(237, retry.firstOffset());
        assertEquals(
                240,
                recovered
                        .appendAsLeader(TestBatches.idempotent(PID, EPOCH, seq, 1), 0, 5_000)
                        .firstOffset());
    }

    @Test
    void shouldRebuildProducerStateWhenEverySnapshotIsCorrupt() throws Exception {
        int seq = 0;
        for (int i = 0; i < 40; i++) {
            append(PID, EPOCH, seq, 3);
            seq += 3;
        }
        log.close();
        try (Stream<Path> files = Files.list(tmp.resolve("idem-0"))) {
            for (Path snapshot :
                    files.filter(p -> p.toString().endsWith(".snapshot")).toList()) {
                Files.write(snapshot, new byte[] {0, 0, 1, 2, 3, 4, 0, 0, 0, 9});
            }
        }
        RecoveryReport report = new RecoveryReport();
        log = PartitionLog.open(
                tmp.resolve("idem-0"), LogConfig.builder().segmentBytes(4096).build(), report);
        assertTrue(report.toString().contains("ignored corrupt producer snapshot"), report.toString());
        assertTrue(append(PID, EPOCH, seq - 3, 3).duplicate());
        assertEquals(ProducerStateException.OUT_OF_ORDER_SEQUENCE_NUMBER, errorOf(PID, EPOCH, seq + 1, 1));
    }

    @Test
    void shouldForgetProducersWhoseBatchesRetentionRemoved() throws Exception {
        PartitionLog small = PartitionLog.open(
                tmp.resolve("ret-0"),
                LogConfig.builder()
                        .segmentBytes(1024)
                        .retentionBytes(0)
                        .fileDeleteDelayMs(0)
                        .build(),
                new RecoveryReport());
        others.add(small);
        small.appendAsLeader(TestBatches.idempotent(PID, EPOCH, 0, 2), 0, 5_000);
        for (int i = 0; i < 20; i++) {
            small.appendAsLeader(TestBatches.batch(1_000, 2, 100), 0, 5_000);
        }
        small.enforceRetention(5_000);
        assertTrue(small.logStartOffset() > 2);
        assertEquals(0, small.producerCount());
        assertFalse(
                small.appendAsLeader(TestBatches.idempotent(PID, EPOCH, 50, 1), 0, 5_000)
                        .duplicate(),
                "unknown again: any sequence");
    }

    @Test
    void shouldExpireIdleProducers() throws Exception {
        PartitionLog expiring = PartitionLog.open(
                tmp.resolve("exp-0"),
                LogConfig.builder().producerIdExpirationMs(10_000).build(),
                new RecoveryReport());
        others.add(expiring);
        expiring.appendAsLeader(TestBatches.idempotent(PID, EPOCH, 0, 1000L, "a"), 0, 1_000);
        expiring.enforceRetention(5_000);
        assertEquals(1, expiring.producerCount());
        expiring.enforceRetention(11_000);
        assertEquals(0, expiring.producerCount());
    }

    /** A crash image: the files as they are now, without the clean-shutdown marker a close writes. */
    static Path copyWhileOpen(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }
}
