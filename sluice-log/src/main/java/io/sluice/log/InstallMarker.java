package io.sluice.log;

import io.sluice.log.checkpoint.AtomicFile;
import io.sluice.log.epoch.LeaderEpochCache;
import io.sluice.log.segment.SegmentFileNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;

/**
 * Makes an install of staged files into an empty log all or nothing across a crash. {@link #write} puts the marker
 * {@value #FILE_NAME} (the staging directory's path relative to the partition directory, UTF-8) on disk before the
 * install deletes the empty log's active segment; {@link #delete} takes it away once the installed log is whole (its
 * segments, new active segment, leader epochs and producer state). A marker still there means the install did not
 * finish, and {@link #rollBack} undoes it, at the next open ({@link LogLoader}) or when the install fails: every
 * segment and producer snapshot the install renamed in goes back into the staging directory (so a resumed transfer
 * keeps them), the rest of what it wrote (index files, the new active segment, the leader epoch checkpoint) is
 * deleted, and the log opens empty as it was. An unreadable marker, or one naming no staging directory inside the
 * partition directory, rolls back by deleting those files instead.
 *
 * <p>Stateless; thread-safe (callers own the directory: the partition's lock, or the log's open).
 */
final class InstallMarker {
    static final String FILE_NAME = "staged-install-in-progress";
    /** A staging directory's relative path is short; anything longer is not a marker this code wrote. */
    private static final long MAX_FILE_BYTES = 4096;

    private InstallMarker() {}

    /** Writes the marker of an install from {@code stagingDir} into {@code dir}, durably. */
    static void write(Path dir, Path stagingDir) throws IOException {
        byte[] relative = dir.relativize(stagingDir).toString().getBytes(StandardCharsets.UTF_8);
        AtomicFile.write(dir.resolve(FILE_NAME), ByteBuffer.wrap(relative));
        AtomicFile.fsyncDirectory(dir);
    }

    /** The install into {@code dir} is whole: removes the marker, durably. */
    static void delete(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(FILE_NAME));
        AtomicFile.fsyncDirectory(dir);
    }

    /**
     * Undoes the unfinished install into {@code dir}, if its marker is there (see the class comment); the partition
     * directory's segment files must all be closed.
     *
     * @param report receives one line saying what was undone
     * @return whether there was an install to undo
     */
    static boolean rollBack(Path dir, Consumer<String> report) throws IOException {
        Path marker = dir.resolve(FILE_NAME);
        if (!Files.exists(marker)) {
            return false;
        }
        Path stagingDir = stagingDirOf(dir, marker);
        int movedBack = 0;
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                boolean log = SegmentFileNames.parseOffset(name, SegmentFileNames.LOG_SUFFIX) >= 0;
                boolean snapshot = SegmentFileNames.parseOffset(name, SegmentFileNames.SNAPSHOT_SUFFIX) >= 0;
                if (stagingDir != null && ((log && Files.size(file) > 0) || snapshot)) {
                    Files.move(
                            file,
                            stagingDir.resolve(name),
                            StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                    movedBack++;
                } else if (log
                        || snapshot
                        || SegmentFileNames.parseOffset(name, SegmentFileNames.INDEX_SUFFIX) >= 0
                        || SegmentFileNames.parseOffset(name, SegmentFileNames.TIME_INDEX_SUFFIX) >= 0
                        || name.equals(LeaderEpochCache.FILE_NAME)) {
                    Files.delete(file);
                    deleted++;
                }
            }
        }
        if (stagingDir != null) {
            AtomicFile.fsyncDirectory(stagingDir);
        }
        delete(dir);
        report.accept("rolled back the unfinished install of staged files into " + dir.getFileName() + ": "
                + movedBack + " files back into " + (stagingDir == null ? "(no staging directory)" : stagingDir)
                + ", " + deleted + " deleted");
        return true;
    }

    /** The staging directory {@code marker} names, null when it is unreadable or names none inside {@code dir}. */
    private static Path stagingDirOf(Path dir, Path marker) throws IOException {
        if (Files.size(marker) > MAX_FILE_BYTES) {
            return null;
        }
        String relative;
        try {
            relative = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(marker)))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        Path stagingDir;
        try {
            stagingDir = dir.resolve(relative).normalize();
        } catch (InvalidPathException e) {
            return null;
        }
        boolean inside =
                !relative.isEmpty() && stagingDir.startsWith(dir.normalize()) && !stagingDir.equals(dir.normalize());
        return inside && Files.isDirectory(stagingDir) ? stagingDir : null;
    }
}
