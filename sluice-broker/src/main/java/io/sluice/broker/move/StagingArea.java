package io.sluice.broker.move;

import io.sluice.log.LogConfig;
import io.sluice.log.checkpoint.AtomicFile;
import io.sluice.log.segment.SegmentFileNames;
import io.sluice.log.ship.StagedLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * The staging directory of one incoming move, {@code <partition dir>/move-staging}: the received files under their
 * segment names and a {@code manifest} holding the source's segment list and the transfer id. The files themselves
 * are the persisted progress: a restarted target keeps each file's prefix of whole, CRC-valid batches. The log
 * loader ignores the directory (it is not a segment file name); deleting the partition deletes it.
 *
 * <p>Not thread-safe; used by the transfer thread only.
 */
final class StagingArea implements AutoCloseable {
    static final String DIR_NAME = "move-staging";
    static final String MANIFEST_FILE = "manifest";
    private static final int REREAD_BUFFER_BYTES = 64 * 1024;

    private final Path dir;
    private final MoveCodec codec;
    /** The partition's configuration: staged segments are indexed as its installed segments are. */
    private final LogConfig logConfig;
    /** Staged files read their own verified bytes back through it (after a rejected chunk or a restart). */
    private final ByteBuffer rereadBuffer = ByteBuffer.allocateDirect(REREAD_BUFFER_BYTES);
    /**
     * Whether every file is forced to disk before the install: only when the partition's flush policy forces records
     * itself ({@link LogConfig#flushLeftToOs()} false); otherwise the installed files are flushed as appended records
     * are, by the log's flush task, and recovered batch by batch after a crash before it.
     */
    private final boolean durable;
    /** Whether staged segments take whole blocks with O_DIRECT ({@code sluice.move.direct.io.enable}). */
    private final boolean directIo;

    private final List<StagedFile> files = new ArrayList<>();
    private MoveSegmentList manifest;
    private long transferId;

    private StagingArea(Path dir, MoveCodec codec, LogConfig logConfig, boolean directIo) {
        this.dir = dir;
        this.codec = codec;
        this.logConfig = logConfig;
        this.durable = !logConfig.flushLeftToOs();
        this.directIo = directIo;
    }

    static Path dirOf(Path partitionDir) {
        return partitionDir.resolve(DIR_NAME);
    }

    /**
     * Opens (creating) the staging area of {@code partitionDir}, whose log has {@code logConfig}; an unreadable
     * manifest discards what is there. The partition directory itself is never created: when it is gone (the replica
     * was removed, its directory renamed for deletion, after the transfer checked for a cancel) this throws instead of
     * leaving an empty directory under the partition's name, which the next start would load as a log.
     *
     * @param directIo whether staged segments write whole blocks with O_DIRECT where the file system allows it
     * @throws java.nio.file.NoSuchFileException when {@code partitionDir} does not exist
     */
    static StagingArea open(Path partitionDir, MoveCodec codec, LogConfig logConfig, boolean directIo)
            throws IOException {
        StagingArea area = new StagingArea(dirOf(partitionDir), codec, logConfig, directIo);
        if (!Files.isDirectory(area.dir)) {
            Files.createDirectory(area.dir);
        }
        Path manifestFile = area.dir.resolve(MANIFEST_FILE);
        if (Files.exists(manifestFile)) {
            try {
                area.manifest = StagingManifest.read(manifestFile, codec);
                area.transferId = area.manifest.transferId;
            } catch (MoveProtocolException e) {
                deleteContents(area.dir);
            }
        }
        if (area.manifest == null) {
            area.transferId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        }
        return area;
    }

    long transferId() {
        return transferId;
    }

    /** Whether files are forced to disk before the install (see {@link #durable}). */
    boolean durable() {
        return durable;
    }

    List<StagedFile> files() {
        return files;
    }

    /**
     * Takes {@code listing} as what this transfer ships: staged files it still lists (same base offset, at most its
     * size) keep their verified prefix, which is a prefix of the source's file too, since replicas hold the same
     * batches; everything else is dropped. Everything is dropped when the listing's leader epochs disagree with the
     * last listing's ({@link EpochHistoryMatch}): the partition's history changed under the staged bytes. Writes the
     * manifest.
     *
     * @return the bytes already verified
     */
    long adopt(MoveSegmentList listing) throws IOException {
        List<StagedFile> previous = new ArrayList<>(files);
        files.clear();
        try {
            return adopt(listing, previous);
        } finally {
            // each waits for its writes: none may go on into a file the next listing opens again
            closeAll(previous);
        }
    }

    /** {@link #adopt(MoveSegmentList)}, taking from {@code previous} the files it keeps; closes none of the others. */
    private long adopt(MoveSegmentList listing, List<StagedFile> previous) throws IOException {
        if (manifest != null && !EpochHistoryMatch.agree(manifest, listing)) {
            // another history (an unclean election since): what was staged is no prefix of the listed files
            closeAll(previous);
            deleteContents(dir);
            manifest = null;
        }
        List<Path> keep = new ArrayList<>();
        for (int i = 0; i < listing.segmentCount(); i++) {
            long base = listing.segmentBaseOffsets[i];
            Path path = SegmentFileNames.logFile(dir, base);
            StagedFile open = take(previous, path, listing.segmentSizes[i], listing.segmentLastOffsets[i]);
            if (open == null) {
                if (Files.exists(path)
                        && (Files.size(path) > listing.segmentSizes[i]
                                || !stagedBytesContinue(
                                        base, listing.segmentSizes[i], listing.segmentLastOffsets[i]))) {
                    Files.delete(path);
                }
                open = StagedFile.segment(
                        path,
                        base,
                        listing.segmentLastOffsets[i],
                        listing.segmentSizes[i],
                        rereadBuffer,
                        logConfig,
                        directIo);
            }
            files.add(open);
            keep.add(path);
            keep.add(SegmentFileNames.indexFile(dir, base));
            keep.add(SegmentFileNames.timeIndexFile(dir, base));
        }
        if (listing.producerSnapshotOffset >= 0) {
            Path path = SegmentFileNames.snapshotFile(dir, listing.producerSnapshotOffset);
            StagedFile open = take(previous, path, listing.producerSnapshotSize, -1);
            files.add(
                    open != null
                            ? open
                            : StagedFile.producerSnapshot(
                                    path, listing.producerSnapshotOffset, listing.producerSnapshotSize));
            keep.add(path);
        }
        closeAll(previous);
        keep.add(dir.resolve(MANIFEST_FILE));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                if (!keep.contains(entry)) {
                    Files.deleteIfExists(entry);
                }
            }
        }
        listing.transferId = transferId;
        StagingManifest.write(dir.resolve(MANIFEST_FILE), listing, codec);
        manifest = listing;
        long verified = 0;
        for (StagedFile file : files) {
            verified += file.verified();
        }
        return verified;
    }

    /**
     * Whether the bytes staged for the segment at {@code base} are a prefix of the file now listed with {@code size}
     * and {@code lastOffset}. Replicas append the same batches in the same order, so another replica's copy of a
     * segment (rolled elsewhere, so of another size) starts with the same bytes; a compacted log's copies do not (each
     * replica's cleaner rewrites its own, at its own time), and its staged bytes are kept only for the same file as
     * the last listing described it. Prefix and rest from two cleanings would be rejected chunk after chunk, or, where
     * a batch boundary happened to line up, install a file missing the records the rest's cleaning kept.
     */
    private boolean stagedBytesContinue(long base, int size, long lastOffset) {
        if (!logConfig.compact()) {
            return true;
        }
        if (manifest == null) {
            return false;
        }
        for (int i = 0; i < manifest.segmentCount(); i++) {
            if (manifest.segmentBaseOffsets[i] == base) {
                return manifest.segmentSizes[i] == size && manifest.segmentLastOffsets[i] == lastOffset;
            }
        }
        return false;
    }

    /**
     * The file of this process's earlier attempt at {@code path} when the new listing describes it the same way
     * (kept as it is: its verified bytes and what was received are known exactly), else null.
     */
    private static StagedFile take(List<StagedFile> previous, Path path, long size, long lastOffset)
            throws IOException {
        for (int i = 0; i < previous.size(); i++) {
            StagedFile file = previous.get(i);
            if (file.path().equals(path)) {
                previous.remove(i);
                if (file.expectedSize() == size && file.lastOffset() == lastOffset) {
                    try {
                        file.rollBack();
                    } catch (IOException | RuntimeException e) {
                        file.close(); // neither kept nor left open
                        throw e;
                    }
                    return file;
                }
                file.close();
                return null;
            }
        }
        return null;
    }

    /**
     * The verified files as a log to install; every file must be complete. Each file not yet finished by the transfer
     * (the producer snapshot, a segment already complete when its staging was reopened) is finished here: its
     * indexes written, and for a durable install forced to disk with the staging directory.
     *
     * @param faults sees each file before it is finished here (tests)
     */
    StagedLog staged(ChunkFaultHook faults) throws IOException {
        for (StagedFile file : files) {
            if (!file.isComplete()) {
                throw new IllegalStateException("staged file " + file.path() + " holds " + file.verified() + " of "
                        + file.expectedSize() + " bytes");
            }
            if (!file.isFinished()) {
                faults.beforeFinish(file.path());
                file.finish(durable);
            }
        }
        closeFiles();
        if (durable) {
            AtomicFile.fsyncDirectory(dir);
        }
        return new StagedLog(
                dir,
                manifest.segmentBaseOffsets,
                manifest.segmentLastOffsets,
                manifest.logStartOffset,
                manifest.boundaryOffset,
                manifest.epochEntries(),
                manifest.producerSnapshotOffset,
                true,
                durable);
    }

    private void closeFiles() throws IOException {
        closeAll(files);
    }

    /** Closes every file of {@code open} and empties it, even when closing one fails (the first failure is thrown). */
    private static void closeAll(List<StagedFile> open) throws IOException {
        IOException failed = null;
        for (StagedFile file : open) {
            try {
                file.close();
            } catch (IOException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        open.clear();
        if (failed != null) {
            throw failed;
        }
    }

    @Override
    public void close() throws IOException {
        closeFiles();
    }

    /** Deletes the staging directory of {@code partitionDir} with everything in it; returns whether it existed. */
    static boolean delete(Path partitionDir) throws IOException {
        Path dir = dirOf(partitionDir);
        if (!Files.exists(dir)) {
            return false;
        }
        deleteContents(dir);
        Files.deleteIfExists(dir);
        return true;
    }

    private static void deleteContents(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                if (!path.equals(dir)) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }
}
