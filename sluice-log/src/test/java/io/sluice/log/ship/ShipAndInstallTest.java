package io.sluice.log.ship;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.segment.BatchHeaderTable;
import io.sluice.log.segment.BatchHeaderTables;
import io.sluice.log.segment.BatchStreamCheck;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentFileNames;
import io.sluice.log.segment.SegmentIndexBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pins against retention, and installing staged files into an empty log, at the log's own level. */
class ShipAndInstallTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final long FAR_FUTURE = NOW + 365L * 24 * 3600 * 1000;

    @TempDir
    Path root;

    private static LogConfig config() {
        return LogConfig.builder()
                .segmentBytes(1024)
                .indexIntervalBytes(100)
                .fileDeleteDelayMs(0)
                .retentionMs(1)
                .build();
    }

    private PartitionLog log(String name) throws Exception {
        return PartitionLog.open(root.resolve(name), config(), new RecoveryReport(), 0, 0, () -> NOW);
    }

    private static ByteBuffer batch(int i) {
        return MemoryRecords.withRecords(
                        Compression.NONE,
                        new SimpleRecord(NOW, ("value-" + i + "-" + "x".repeat(200)).getBytes(StandardCharsets.UTF_8)))
                .buffer();
    }

    private static PartitionLog fill(PartitionLog log) throws Exception {
        for (int i = 0; i < 40; i++) {
            log.appendAsLeader(batch(i), i < 20 ? 0 : 1, NOW);
        }
        return log;
    }

    @Test
    void shouldHoldPinnedSegmentsAgainstRetentionUntilReleased() throws Exception {
        try (PartitionLog log = fill(log("source"))) {
            int segments = log.segmentCount();
            ShippableLog view = log.pinForShipping(Long.MAX_VALUE);
            assertEquals(segments - 1, view.segments().size());
            assertEquals(log.segmentBaseOffsets()[segments - 1], view.boundaryOffset());
            assertEquals(log.leaderEpochs(), view.epochs());

            assertEquals(0, log.enforceRetention(FAR_FUTURE));
            view.releaseBelow(view.segments().get(2).baseOffset());
            assertEquals(2, log.enforceRetention(FAR_FUTURE), "segments below the released offset may go");
            view.close();
            assertEquals(segments - 3, log.enforceRetention(FAR_FUTURE));
            assertEquals(1, log.segmentCount());
        }
    }

    @Test
    void shouldBoundTheBoundaryByTheGivenOffset() throws Exception {
        try (PartitionLog log = fill(log("source"))) {
            long[] bases = log.segmentBaseOffsets();
            try (ShippableLog view = log.pinForShipping(bases[3] + 1)) {
                assertEquals(bases[3], view.boundaryOffset());
                assertEquals(3, view.segments().size());
                assertTrue(view.epochs().stream().allMatch(e -> e.startOffset() < bases[3]));
            }
        }
    }

    @Test
    void shouldRollAFullEnoughActiveSegmentSoItShipsAsAFile() throws Exception {
        try (PartitionLog log = fill(log("source"))) {
            long end = log.logEndOffset();
            int segments = log.segmentCount();
            try (ShippableLog view = log.pinForShipping(end, 1)) {
                assertEquals(end, view.boundaryOffset(), "every record lies below the boundary");
                assertEquals(segments, view.segments().size(), "the active segment was rolled and is shipped");
                assertEquals(
                        end - 1, view.segments().get(view.segments().size() - 1).lastOffset());
                assertEquals(segments + 1, log.segmentCount());
            }
            log.appendAsLeader(batch(99), 1, NOW);
            assertEquals(end + 1, log.logEndOffset(), "the log goes on in its new active segment");
        }
    }

    @Test
    void shouldNotRollWhenTheActiveSegmentIsSmallOrHoldsRecordsPastTheBoundary() throws Exception {
        try (PartitionLog log = fill(log("source"))) {
            int segments = log.segmentCount();
            long activeBase = log.segmentBaseOffsets()[segments - 1];
            try (ShippableLog view = log.pinForShipping(log.logEndOffset(), Integer.MAX_VALUE)) {
                assertEquals(activeBase, view.boundaryOffset(), "too small to roll");
            }
            try (ShippableLog view = log.pinForShipping(log.logEndOffset() - 1, 1)) {
                assertEquals(activeBase, view.boundaryOffset(), "its last record is past the boundary");
            }
            assertEquals(segments, log.segmentCount());
        }
    }

    @Test
    void shouldInstallStagedCopiesAsTheLogAndRefuseANonEmptyLog() throws Exception {
        try (PartitionLog source = fill(log("source"));
                PartitionLog target = log("target");
                ShippableLog view = source.pinForShipping(Long.MAX_VALUE)) {
            Path staging = root.resolve("target").resolve("staging");
            target.installStaged(copyToStaging(source, view, staging));

            assertEquals(view.boundaryOffset(), target.logEndOffset());
            assertEquals(view.epochs(), target.leaderEpochs());
            assertEquals(view.segments().size() + 1, target.segmentCount());
            target.appendAsFollower(readAll(source, view.boundaryOffset()));
            assertEquals(source.logEndOffset(), target.logEndOffset());
            assertThrows(
                    IllegalStateException.class,
                    () -> target.installStaged(
                            new StagedLog(staging, new long[0], new long[0], 0, 0, List.of(), -1, false, true)));
        }
    }

    @Test
    void shouldKeepBatchHeadersForTheInstalledLogsNewActiveSegmentButNotForTheShippedOnes() throws Exception {
        BatchHeaderTables tables = new BatchHeaderTables(1 << 20);
        try (PartitionLog source = fill(log("source"));
                PartitionLog target = PartitionLog.open(
                        root.resolve("target"), config(), new RecoveryReport(), 0, 0, () -> NOW, tables);
                ShippableLog view = source.pinForShipping(Long.MAX_VALUE)) {
            target.installStaged(
                    copyToStaging(source, view, root.resolve("target").resolve("staging")));
            target.appendAsFollower(readAll(source, view.boundaryOffset()));

            LogSegment[] chain = target.segmentChain();
            LogSegment active = chain[chain.length - 1];
            BatchHeaderTable headers = active.batchHeaders();
            assertNotNull(headers, "the active segment created by the install keeps its batch headers");
            assertTrue(headers.count() > 0);
            assertEquals(active.size(), headers.end());
            for (int i = 0; i < chain.length - 1; i++) {
                // written by the move with O_DIRECT, so not in the page cache: a sender reads them back anyway
                assertNull(chain[i].batchHeaders(), "shipped segment " + chain[i].baseOffset());
            }
        }
    }

    private static StagedLog copyToStaging(PartitionLog source, ShippableLog view, Path staging) throws Exception {
        Files.createDirectories(staging);
        long[] bases = new long[view.segments().size()];
        long[] lasts = new long[bases.length];
        for (int i = 0; i < bases.length; i++) {
            bases[i] = view.segments().get(i).baseOffset();
            lasts[i] = view.segments().get(i).lastOffset();
            String name = String.format(Locale.ROOT, "%020d.log", bases[i]);
            Files.copy(source.dir().resolve(name), staging.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        return new StagedLog(
                staging, bases, lasts, view.logStartOffset(), view.boundaryOffset(), view.epochs(), -1, false, true);
    }

    @Test
    void shouldInstallIndexedStagedSegmentsAndRebuildAnIndexThatDoesNotHoldUp() throws Exception {
        try (PartitionLog source = fill(log("source"));
                PartitionLog target = log("target");
                ShippableLog view = source.pinForShipping(Long.MAX_VALUE)) {
            Path staging = Files.createDirectories(root.resolve("target").resolve("staging"));
            long[] bases = new long[view.segments().size()];
            long[] lasts = new long[bases.length];
            for (int i = 0; i < bases.length; i++) {
                bases[i] = view.segments().get(i).baseOffset();
                lasts[i] = view.segments().get(i).lastOffset();
                stageWithIndexes(source, staging, bases[i]);
            }
            assertTrue(bases.length >= 2, "the fill makes several segments");
            byte[] firstIndex = Files.readAllBytes(SegmentFileNames.indexFile(staging, bases[0]));
            Path damaged = SegmentFileNames.indexFile(staging, bases[1]);
            byte[] secondIndex = Files.readAllBytes(damaged);
            assertTrue(firstIndex.length > 0 && secondIndex.length > 0, "the segments have index entries");
            byte[] garbage = secondIndex.clone();
            java.util.Arrays.fill(garbage, (byte) 0x7F);
            Files.write(damaged, garbage);

            target.installStaged(new StagedLog(
                    staging,
                    bases,
                    lasts,
                    view.logStartOffset(),
                    view.boundaryOffset(),
                    view.epochs(),
                    -1,
                    true,
                    true));

            assertEquals(view.boundaryOffset(), target.logEndOffset());
            assertArrayEquals(
                    firstIndex,
                    Files.readAllBytes(SegmentFileNames.indexFile(target.dir(), bases[0])),
                    "an index that holds up is taken as staged");
            assertArrayEquals(
                    secondIndex,
                    Files.readAllBytes(SegmentFileNames.indexFile(target.dir(), bases[1])),
                    "a damaged index is rebuilt from the segment");
            assertEquals(readAll(source, 0), readAll(target, 0));
            for (long offset = 0; offset < view.boundaryOffset(); offset += 7) {
                assertEquals(
                        source.read(offset, 1, Long.MAX_VALUE).position(),
                        target.read(offset, 1, Long.MAX_VALUE).position(),
                        "offset " + offset + " is found at the same place");
            }
        }
    }

    @Test
    void shouldLeaveStagedFilesNotForcedAboveTheRecoveryPointUntilTheFlushForcesThem() throws Exception {
        try (PartitionLog source = fill(log("source"));
                PartitionLog target = log("target");
                ShippableLog view = source.pinForShipping(Long.MAX_VALUE)) {
            installNotForced(source, view, target);

            assertEquals(view.boundaryOffset(), target.logEndOffset());
            assertEquals(view.logStartOffset(), target.recoveryPoint(), "nothing installed is known to be on disk");
            target.flushRolledSegments();
            assertEquals(view.boundaryOffset(), target.recoveryPoint(), "the flush forced every installed segment");
        }
    }

    /**
     * A crash after installing files that were not forced, before the flush task ran: the bytes the disk never got
     * read back as garbage, and the next open finds them, since everything installed lies above the recovery point.
     */
    @Test
    void shouldRecoverStagedFilesNotForcedBatchByBatchAfterACrashBeforeTheFlush() throws Exception {
        try (PartitionLog source = fill(log("source"));
                ShippableLog view = source.pinForShipping(Long.MAX_VALUE)) {
            Path targetDir = root.resolve("target");
            PartitionLog crashed = log("target");
            long[] bases = installNotForced(source, view, crashed);
            long recoveryPoint = crashed.recoveryPoint();
            // the process dies here, no close, no flush; a page in the middle of the second segment never reached
            // the disk: its second batch reads back damaged while the segment's last batch and index look whole
            Path torn = SegmentFileNames.logFile(targetDir, bases[1]);
            byte[] bytes = Files.readAllBytes(torn);
            int keep = ByteBuffer.wrap(bytes).getInt(8) + 12; // the second batch starts after the first's length
            bytes[keep + 70] ^= 0x5A;
            Files.write(torn, bytes);

            RecoveryReport report = new RecoveryReport();
            try (PartitionLog reopened = PartitionLog.open(targetDir, config(), report, recoveryPoint, 0, () -> NOW)) {
                assertTrue(
                        reopened.logEndOffset() > bases[1] && reopened.logEndOffset() < bases[2],
                        "recovery truncated the second segment at its last whole batch, ending at "
                                + reopened.logEndOffset() + "; report: " + report);
                assertEquals(2, reopened.segmentCount(), "the segments after the torn one are gone; report: " + report);
                byte[] survived = Files.readAllBytes(torn);
                byte[] original = Files.readAllBytes(SegmentFileNames.logFile(source.dir(), bases[1]));
                assertEquals(keep, survived.length, "the segment ends before the damaged batch");
                assertArrayEquals(
                        java.util.Arrays.copyOf(original, survived.length), survived, "what survived is the source's");
                assertArrayEquals(
                        Files.readAllBytes(SegmentFileNames.logFile(source.dir(), bases[0])),
                        Files.readAllBytes(SegmentFileNames.logFile(targetDir, bases[0])));
            }
            crashed.close();
        }
    }

    /**
     * Stages every closed segment of {@code view} in {@code target}'s staging directory, indexed as a move's target
     * indexes them, and installs them as not forced to disk; returns their base offsets.
     */
    private static long[] installNotForced(PartitionLog source, ShippableLog view, PartitionLog target)
            throws Exception {
        Path staging = Files.createDirectories(target.dir().resolve("staging"));
        long[] bases = new long[view.segments().size()];
        for (int i = 0; i < bases.length; i++) {
            bases[i] = view.segments().get(i).baseOffset();
            stageWithIndexes(source, staging, bases[i]);
        }
        assertTrue(bases.length >= 3, "the fill makes several segments");
        long[] lasts = new long[bases.length];
        for (int i = 0; i < bases.length; i++) {
            lasts[i] = view.segments().get(i).lastOffset();
        }
        target.installStaged(new StagedLog(
                staging, bases, lasts, view.logStartOffset(), view.boundaryOffset(), view.epochs(), -1, true, false));
        return bases;
    }

    /** A staged segment cut 7 bytes short, with or without the indexes a move's target writes beside it. */
    @ParameterizedTest(name = "indexed staging: {0}")
    @ValueSource(booleans = {false, true})
    void shouldLeaveTheLogEmptyWhenAStagedSegmentEndsShort(boolean indexed) throws Exception {
        try (PartitionLog source = fill(log("source"));
                PartitionLog target = log("target");
                ShippableLog view = source.pinForShipping(Long.MAX_VALUE)) {
            Path staging = Files.createDirectories(root.resolve("target").resolve("staging"));
            ClosedSegment first = view.segments().get(0);
            Path log = SegmentFileNames.logFile(staging, first.baseOffset());
            if (indexed) {
                stageWithIndexes(source, staging, first.baseOffset());
            } else {
                Files.copy(SegmentFileNames.logFile(source.dir(), first.baseOffset()), log);
            }
            byte[] bytes = Files.readAllBytes(log);
            Files.write(log, java.util.Arrays.copyOf(bytes, bytes.length - 7));

            assertThrows(
                    java.io.IOException.class,
                    () -> target.installStaged(new StagedLog(
                            staging,
                            new long[] {first.baseOffset()},
                            new long[] {first.lastOffset()},
                            0,
                            first.lastOffset() + 1,
                            List.of(),
                            -1,
                            indexed,
                            true)));
            assertEquals(0, target.logEndOffset());
            assertEquals(1, target.segmentCount());
            target.appendAsLeader(batch(0), 0, NOW);
            assertEquals(1, target.logEndOffset());
        }
    }

    /**
     * Copies a closed segment's {@code .log} into {@code staging} and indexes it there as a move's target does: its
     * bytes through a {@link BatchStreamCheck} into a {@link SegmentIndexBuilder}.
     */
    private static void stageWithIndexes(PartitionLog source, Path staging, long base) throws Exception {
        Path log = Files.copy(
                SegmentFileNames.logFile(source.dir(), base),
                SegmentFileNames.logFile(staging, base),
                StandardCopyOption.REPLACE_EXISTING);
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(log));
        BatchStreamCheck check = new BatchStreamCheck(bytes.remaining(), Long.MAX_VALUE).restart(0, base);
        SegmentIndexBuilder indexes = SegmentIndexBuilder.start(
                staging,
                base,
                source.config().indexIntervalBytes(),
                source.config().maxIndexSizeBytes());
        check.accept(bytes);
        assertEquals(null, check.problem());
        check.drainChecked(indexes);
        indexes.persist();
    }

    private static ByteBuffer readAll(PartitionLog log, long from) throws Exception {
        var read = log.read(from, Integer.MAX_VALUE, Long.MAX_VALUE);
        ByteBuffer bytes = ByteBuffer.allocate(read.sizeInBytes());
        read.channel().read(bytes, read.position());
        return bytes.flip();
    }
}
