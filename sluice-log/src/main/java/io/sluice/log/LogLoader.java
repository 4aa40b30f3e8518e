package io.sluice.log;

import io.sluice.log.checkpoint.AtomicFile;
import io.sluice.log.checkpoint.CleanShutdownFile;
import io.sluice.log.checkpoint.CorruptCheckpointException;
import io.sluice.log.epoch.LeaderEpochCache;
import io.sluice.log.producer.CorruptSnapshotException;
import io.sluice.log.producer.ProducerStateManager;
import io.sluice.log.segment.BatchHeaderTables;
import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentFileNames;
import io.sluice.log.segment.SwapRecovery;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Opens a partition directory: rolls back an install of staged files a crash interrupted ({@link InstallMarker}),
 * removes leftovers, loads segments (trusting those below the recovery point after an index sanity check,
 * CRC-scanning the rest), truncates a torn or corrupt tail, drops segments after it, and rebuilds producer state from
 * the newest readable snapshot plus the log after it.
 * Not thread-safe; one per opening log.
 */
final class LogLoader {
    /** What the loader found. */
    record Loaded(List<LogSegment> segments, long logStartOffset, long logEndOffset) {}

    private final Path dir;
    private final String name;
    private final LogConfig config;
    private final RecoveryReport report;
    private final BatchHeaderTables batchHeaders;
    private final BatchScanner scanner = new BatchScanner();

    LogLoader(Path dir, LogConfig config, RecoveryReport report) {
        this(dir, config, report, BatchHeaderTables.none());
    }

    /** @param batchHeaders where the first segment of a new log keeps its batch headers */
    LogLoader(Path dir, LogConfig config, RecoveryReport report, BatchHeaderTables batchHeaders) {
        this.dir = dir;
        this.name = dir.getFileName().toString();
        this.config = config;
        this.report = report;
        this.batchHeaders = batchHeaders;
    }

    Loaded load(long recoveryPointHint, long logStartOffsetHint, long nowMs) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            // a new partition must survive power loss once its first append is acknowledged
            AtomicFile.fsyncDirectory(dir.getParent());
        }
        long recoveryPoint = recoveryPointHint;
        long logStartOffset = logStartOffsetHint;
        try {
            CleanShutdownFile.Offsets clean = CleanShutdownFile.read(dir);
            if (clean != null) {
                recoveryPoint = Math.max(recoveryPoint, clean.recoveryPoint());
                logStartOffset = Math.max(logStartOffset, clean.logStartOffset());
            }
        } catch (CorruptCheckpointException e) {
            report.add("ignored unreadable clean-shutdown marker of " + name + ": " + e.getMessage());
        }
        InstallMarker.rollBack(dir, report::add);
        SwapRecovery.run(dir, report::add);
        TreeSet<Long> logOffsets = new TreeSet<>();
        List<Path> indexFiles = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String fileName = file.getFileName().toString();
                if (fileName.endsWith(SegmentFileNames.DELETED_SUFFIX) || fileName.endsWith(".tmp")) {
                    Files.deleteIfExists(file);
                } else if (SegmentFileNames.parseOffset(fileName, SegmentFileNames.LOG_SUFFIX) >= 0) {
                    logOffsets.add(SegmentFileNames.parseOffset(fileName, SegmentFileNames.LOG_SUFFIX));
                } else if (fileName.endsWith(SegmentFileNames.INDEX_SUFFIX)
                        || fileName.endsWith(SegmentFileNames.TIME_INDEX_SUFFIX)) {
                    indexFiles.add(file);
                }
            }
        }
        for (Path index : indexFiles) {
            String fileName = index.getFileName().toString();
            long offset = Math.max(
                    SegmentFileNames.parseOffset(fileName, SegmentFileNames.INDEX_SUFFIX),
                    SegmentFileNames.parseOffset(fileName, SegmentFileNames.TIME_INDEX_SUFFIX));
            if (offset < 0 || !logOffsets.contains(offset)) {
                Files.deleteIfExists(index);
                report.add("deleted orphan index file " + name + "/" + fileName + " (no matching .log)");
            }
        }
        List<LogSegment> segments = loadSegments(new ArrayList<>(logOffsets), recoveryPoint);
        for (int i = 0; i < segments.size() - 1; i++) {
            segments.get(i).onBecomeInactive();
            segments.get(i).mapIndexesReadOnly();
        }
        if (segments.isEmpty()) {
            segments.add(LogSegment.create(
                    dir, logStartOffset, config.indexIntervalBytes(), config.maxIndexSizeBytes(), nowMs, batchHeaders));
            AtomicFile.fsyncDirectory(dir);
        }
        long logEndOffset = segments.get(segments.size() - 1).nextOffset();
        long start = Math.max(logStartOffset, segments.get(0).baseOffset());
        if (start > logEndOffset) {
            report.add("log start offset " + start + " of " + name + " is beyond the recovered log end offset "
                    + logEndOffset + "; using the log end offset");
            start = logEndOffset;
        }
        CleanShutdownFile.delete(dir);
        return new Loaded(segments, start, logEndOffset);
    }

    private List<LogSegment> loadSegments(List<Long> baseOffsets, long recoveryPoint) throws IOException {
        List<LogSegment> segments = new ArrayList<>();
        boolean dropRest = false;
        for (int i = 0; i < baseOffsets.size(); i++) {
            long base = baseOffsets.get(i);
            LogSegment segment =
                    LogSegment.openExisting(dir, base, config.indexIntervalBytes(), config.maxIndexSizeBytes());
            if (dropRest) {
                segment.closeAndDelete();
                report.add("deleted segment " + name + "/" + SegmentFileNames.filenamePrefix(base)
                        + ".log after the truncated tail");
                continue;
            }
            boolean belowRecoveryPoint =
                    i + 1 < baseOffsets.size() ? baseOffsets.get(i + 1) <= recoveryPoint : base < recoveryPoint;
            String problem = belowRecoveryPoint ? segment.loadTrusted(scanner) : "above the recovery point";
            if (problem == null && segment.nextOffset() > recoveryPoint) {
                problem = "above the recovery point";
            }
            if (problem != null) {
                if (belowRecoveryPoint) {
                    report.add("rebuilt offset and time index of " + segment + ": " + problem);
                }
                LogSegment.ScanOutcome outcome = segment.recover(scanner, true);
                if (outcome.truncatedBytes() > 0) {
                    report.add("truncated " + outcome.truncatedBytes() + " bytes of torn or corrupt tail in " + segment
                            + " at position " + outcome.validBytes() + ": " + outcome.problem());
                    dropRest = true;
                }
                segment.flush();
            }
            if (!segments.isEmpty()) {
                LogSegment previous = segments.get(segments.size() - 1);
                if (previous.nextOffset() < base && previous.size() > 0 && !config.compact()) {
                    // in a compacted log such gaps are normal: the cleaner drops superseded records
                    report.add("offsets " + previous.nextOffset() + ".." + (base - 1) + " are missing between "
                            + previous + " and " + segment + " (segment file deleted?)");
                } else if (previous.nextOffset() > base) {
                    report.add("segment " + segment + " starts at " + base + " inside " + previous + " which ends at "
                            + (previous.nextOffset() - 1) + "; deleting it and later segments");
                    segment.closeAndDelete();
                    dropRest = true;
                    continue;
                }
            }
            segments.add(segment);
        }
        return segments;
    }

    /**
     * Restores producer state: newest snapshot at or below the log end offset, then replays batches after it.
     */
    void loadProducerState(
            ProducerStateManager state, List<LogSegment> segments, long logStartOffset, long logEndOffset)
            throws IOException {
        TreeSet<Long> snapshots = new TreeSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SegmentFileNames.SNAPSHOT_SUFFIX)) {
            for (Path file : files) {
                long offset =
                        SegmentFileNames.parseOffset(file.getFileName().toString(), SegmentFileNames.SNAPSHOT_SUFFIX);
                if (offset > logEndOffset) {
                    Files.deleteIfExists(file);
                } else if (offset >= 0) {
                    snapshots.add(offset);
                }
            }
        }
        long replayFrom = logStartOffset;
        state.clear();
        for (Long offset : snapshots.descendingSet()) {
            Path file = SegmentFileNames.snapshotFile(dir, offset);
            try {
                state.loadSnapshot(file);
                replayFrom = Math.max(offset, logStartOffset);
                break;
            } catch (CorruptSnapshotException e) {
                report.add(
                        "ignored corrupt producer snapshot " + name + "/" + file.getFileName() + ": " + e.getMessage());
                Files.deleteIfExists(file);
                state.clear();
            }
        }
        replay(state, segments, replayFrom);
        state.onLogStartOffsetIncremented(logStartOffset);
    }

    /**
     * Loads the leader epoch cache, or rebuilds it from the batches' partitionLeaderEpoch fields when it is
     * missing or corrupt; then trims it to the log's offsets.
     */
    LeaderEpochCache loadEpochs(List<LogSegment> segments, long logStartOffset, long logEndOffset) throws IOException {
        LeaderEpochCache cache;
        try {
            cache = LeaderEpochCache.load(dir);
        } catch (CorruptCheckpointException e) {
            report.add("rebuilding the leader epoch cache of " + name + ": " + e.getMessage());
            cache = null;
        }
        if (cache == null) {
            LeaderEpochCache rebuilt = LeaderEpochCache.empty(dir);
            for (LogSegment segment : segments) {
                if (segment.nextOffset() > logStartOffset) {
                    forEachBatch(
                            segment,
                            logStartOffset,
                            scanner,
                            batch -> rebuilt.assignInMemory(
                                    batch.partitionLeaderEpoch(), Math.max(batch.baseOffset(), logStartOffset)));
                }
            }
            if (logEndOffset > logStartOffset && !rebuilt.entries().isEmpty()) {
                report.add("rebuilt the leader epoch cache of " + name + " from the log: "
                        + rebuilt.entries().size() + " epochs");
            }
            rebuilt.write();
            return rebuilt;
        }
        cache.truncateFromEnd(logEndOffset);
        cache.truncateFromStart(logStartOffset);
        return cache;
    }

    void replay(ProducerStateManager state, List<LogSegment> segments, long fromOffset) throws IOException {
        for (int i = 0; i < segments.size(); i++) {
            LogSegment segment = segments.get(i);
            if (segment.nextOffset() <= fromOffset) {
                continue;
            }
            forEachBatch(segment, fromOffset, scanner, state::replay);
        }
    }

    /** Calls {@code action} for each batch of {@code segment} whose last offset is at least {@code fromOffset}, in order. */
    private static void forEachBatch(
            LogSegment segment, long fromOffset, BatchScanner scanner, Consumer<RecordBatchView> action)
            throws IOException {
        int limit = segment.size();
        long position = segment.findBatchPosition(fromOffset, scanner);
        if (position < 0) {
            return;
        }
        while (position < limit) {
            RecordBatchView batch = scanner.readHeader(segment.channel(), position, limit);
            if (batch == null) {
                return;
            }
            int batchSize = batch.sizeInBytes();
            action.accept(batch);
            position += batchSize;
        }
    }
}
