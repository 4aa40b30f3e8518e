package io.sluice.log.producer;

import io.sluice.log.segment.SegmentFileNames;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * The producer snapshot files of one partition directory ({@code <offset>.snapshot}): listing, rotation and
 * deletion. Stateless; callers serialize writers (the partition's lock).
 */
public final class ProducerSnapshotFiles {
    private ProducerSnapshotFiles() {}

    /** Offsets of the snapshot files in {@code dir}, ascending. */
    public static TreeSet<Long> offsets(Path dir) throws IOException {
        TreeSet<Long> offsets = new TreeSet<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SegmentFileNames.SNAPSHOT_SUFFIX)) {
            for (Path file : files) {
                long offset =
                        SegmentFileNames.parseOffset(file.getFileName().toString(), SegmentFileNames.SNAPSHOT_SUFFIX);
                if (offset >= 0) {
                    offsets.add(offset);
                }
            }
        }
        return offsets;
    }

    /** Writes a snapshot of {@code state} at {@code offset} and deletes the oldest beyond {@code retained}. */
    public static void writeRotating(ProducerStateManager state, Path dir, long offset, int retained)
            throws IOException {
        state.writeSnapshot(SegmentFileNames.snapshotFile(dir, offset));
        TreeSet<Long> offsets = offsets(dir);
        while (offsets.size() > retained) {
            Files.deleteIfExists(SegmentFileNames.snapshotFile(dir, offsets.pollFirst()));
        }
    }

    /** Deletes the snapshots above {@code offset} (the log was truncated there). */
    public static void deleteAbove(Path dir, long offset) throws IOException {
        for (Long snapshot : offsets(dir).tailSet(offset, false)) {
            Files.deleteIfExists(SegmentFileNames.snapshotFile(dir, snapshot));
        }
    }

    /** Deletes every snapshot. */
    public static void deleteAll(Path dir) throws IOException {
        for (Long snapshot : offsets(dir)) {
            Files.deleteIfExists(SegmentFileNames.snapshotFile(dir, snapshot));
        }
    }
}
