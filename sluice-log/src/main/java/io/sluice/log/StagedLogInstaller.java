package io.sluice.log;

import io.sluice.log.checkpoint.AtomicFile;
import io.sluice.log.epoch.EpochEntry;
import io.sluice.log.epoch.LeaderEpochCache;
import io.sluice.log.producer.ProducerSnapshotFile;
import io.sluice.log.producer.ProducerStateManager;
import io.sluice.log.segment.BatchHeaderTables;
import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentFileNames;
import io.sluice.log.ship.InstallFaults;
import io.sluice.log.ship.StagedLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns verified staged files into the segments of an empty partition log: rebuilds each staged segment's indexes in
 * the staging directory unless they were written as its batches were checked (checking it ends where the source
 * said), renames index files then the {@code .log} into the partition directory, opens them (an index that does not
 * hold up is rebuilt there), and loads the shipped leader epochs and producer state at the boundary.
 * Everything that can find a problem runs before the empty log is touched. From then on the install is all or
 * nothing, across a crash too: an {@link InstallMarker} is on disk before the empty active segment goes and is
 * removed only once the installed log is whole; a failure rolls back at once, a crash at the next open (see
 * {@link #removedEmptyActive()}).
 * Not thread-safe; one per install, run under the partition's lock.
 */
final class StagedLogInstaller {
    record Installed(LogSegment[] segments, long logStartOffset, long logEndOffset) {}

    private static final String[] INDEX_SUFFIXES = {SegmentFileNames.INDEX_SUFFIX, SegmentFileNames.TIME_INDEX_SUFFIX};

    private final Path dir;
    private final LogConfig config;
    /** Where the installed log's new active segment keeps its batch headers, as every segment this process creates. */
    private final BatchHeaderTables batchHeaders;

    private final InstallFaults faults;

    private final BatchScanner scanner = new BatchScanner();
    private boolean removedEmptyActive;

    /** @param faults sees each file renamed in ({@link InstallFaults#NONE} outside crash tests) */
    StagedLogInstaller(Path dir, LogConfig config, BatchHeaderTables batchHeaders, InstallFaults faults) {
        this.dir = dir;
        this.config = config;
        this.batchHeaders = batchHeaders;
        this.faults = faults;
    }

    /** Whether the install got as far as deleting the empty log's active segment (the caller then recreates it). */
    boolean removedEmptyActive() {
        return removedEmptyActive;
    }

    Installed install(
            StagedLog staged,
            LogSegment emptyActive,
            long nowMs,
            ProducerStateManager producerState,
            LeaderEpochCache epochCache)
            throws IOException {
        long[] bases = staged.baseOffsets();
        long[] lasts = staged.lastOffsets();
        Path stage = staged.stagingDir();
        if (!staged.indexed()) {
            for (int i = 0; i < bases.length; i++) {
                rebuildIndexes(stage, bases[i], lasts[i], staged.durable());
            }
        }
        long snapshotOffset = staged.producerSnapshotOffset();
        if (snapshotOffset >= 0) {
            ProducerSnapshotFile.read(SegmentFileNames.snapshotFile(stage, snapshotOffset));
        }
        InstallMarker.write(dir, stage);
        removedEmptyActive = true;
        List<LogSegment> opened = new ArrayList<>();
        try {
            emptyActive.closeAndDelete();
            for (long base : bases) {
                for (String suffix : INDEX_SUFFIXES) {
                    moveIn(stage, SegmentFileNames.filenamePrefix(base) + suffix);
                }
                moveIn(stage, SegmentFileNames.filenamePrefix(base) + SegmentFileNames.LOG_SUFFIX);
            }
            if (snapshotOffset >= 0) {
                moveIn(stage, SegmentFileNames.filenamePrefix(snapshotOffset) + SegmentFileNames.SNAPSHOT_SUFFIX);
            }
            for (int i = 0; i < bases.length; i++) {
                LogSegment segment =
                        LogSegment.openExisting(dir, bases[i], config.indexIntervalBytes(), config.maxIndexSizeBytes());
                opened.add(segment);
                if (segment.loadTrusted(scanner) != null) {
                    segment.recover(scanner, true);
                }
                if (segment.nextOffset() != lasts[i] + 1) {
                    throw new IOException("staged segment " + SegmentFileNames.filenamePrefix(bases[i])
                            + " ends at offset " + (segment.nextOffset() - 1) + ", the source listed " + lasts[i]);
                }
                segment.onBecomeInactive();
                segment.mapIndexesReadOnly();
            }
            long boundary = staged.boundaryOffset();
            opened.add(LogSegment.create(
                    dir, boundary, config.indexIntervalBytes(), config.maxIndexSizeBytes(), nowMs, batchHeaders));
            AtomicFile.fsyncDirectory(dir);
            long logStart = bases.length == 0 ? boundary : Math.max(staged.logStartOffset(), bases[0]);
            epochCache.clear();
            for (EpochEntry entry : staged.epochs()) {
                epochCache.assignInMemory(entry.epoch(), entry.startOffset());
            }
            epochCache.truncateFromStart(logStart);
            epochCache.write();
            new LogLoader(dir, config, new RecoveryReport())
                    .loadProducerState(producerState, opened, logStart, boundary);
            InstallMarker.delete(dir); // the installed log is whole
            return new Installed(opened.toArray(new LogSegment[0]), logStart, boundary);
        } catch (IOException | RuntimeException e) {
            for (LogSegment segment : opened) {
                segment.close();
            }
            try {
                InstallMarker.rollBack(dir, line -> {});
            } catch (IOException | RuntimeException rollBack) {
                e.addSuppressed(rollBack); // the marker stays: the next open rolls back
            }
            throw e;
        }
    }

    private void rebuildIndexes(Path stage, long base, long last, boolean force) throws IOException {
        LogSegment segment =
                LogSegment.openExisting(stage, base, config.indexIntervalBytes(), config.maxIndexSizeBytes());
        try {
            // every batch CRC was checked as its chunk landed; this pass checks framing and offsets and indexes
            LogSegment.ScanOutcome outcome = segment.recover(scanner, false);
            if (outcome.problem() != null || outcome.truncatedBytes() > 0) {
                throw new IOException("staged segment " + SegmentFileNames.filenamePrefix(base) + " is not whole at "
                        + outcome.validBytes() + " of " + outcome.fileBytes() + " bytes: " + outcome.problem());
            }
            if (segment.nextOffset() != last + 1) {
                throw new IOException("staged segment " + SegmentFileNames.filenamePrefix(base) + " ends at offset "
                        + (segment.nextOffset() - 1) + ", the source listed " + last);
            }
            if (force) {
                segment.flush();
            }
        } finally {
            segment.close();
        }
    }

    private void moveIn(Path stage, String fileName) throws IOException {
        Path target = dir.resolve(fileName);
        Files.move(stage.resolve(fileName), target, StandardCopyOption.ATOMIC_MOVE);
        faults.movedIn(target);
    }
}
