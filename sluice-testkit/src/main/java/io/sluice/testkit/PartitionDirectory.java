package io.sluice.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One partition's directory in a stopped broker's data directory, for fault tests that damage files on disk.
 * Layout (contract with sluice-log): {@code <data>/<topic>-<partition>/<20-digit base offset>.log|.index|.timeindex}.
 *
 * <p>Not thread-safe; use only while the broker owning the files is stopped.
 */
public final class PartitionDirectory {

    public static final String LOG_SUFFIX = ".log";
    public static final String INDEX_SUFFIX = ".index";
    public static final String TIME_INDEX_SUFFIX = ".timeindex";
    static final int BASE_OFFSET_DIGITS = 20;

    private final Path dir;

    public PartitionDirectory(Path dataDir, String topic, int partition) {
        this.dir = dataDir.resolve(topic + "-" + partition);
    }

    public Path dir() {
        return dir;
    }

    /** The segment files ({@code *.log}), oldest base offset first. */
    public List<Path> segments() throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(
                    "partition directory " + dir + " does not exist; data dir holds " + listing(dir.getParent()));
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> isSegmentName(file.getFileName().toString()))
                    .sorted(Comparator.comparing(file -> file.getFileName().toString()))
                    .toList();
        }
    }

    /** The segment with the highest base offset (the active one while the broker ran). */
    public Path newestSegment() throws IOException {
        List<Path> segments = segments();
        if (segments.isEmpty()) {
            throw new IOException("no *" + LOG_SUFFIX + " segment in " + dir + "; it holds " + listing(dir));
        }
        return segments.get(segments.size() - 1);
    }

    /** The sibling of {@code segment} with the same base offset and {@code suffix} (e.g. {@link #INDEX_SUFFIX}). */
    public static Path sibling(Path segment, String suffix) {
        String name = segment.getFileName().toString();
        return segment.resolveSibling(name.substring(0, name.length() - LOG_SUFFIX.length()) + suffix);
    }

    /** Appends {@code garbage} to {@code file}, creating it if missing. */
    public static void appendGarbage(Path file, byte[] garbage) throws IOException {
        Files.write(file, garbage, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static boolean isSegmentName(String name) {
        if (!name.endsWith(LOG_SUFFIX) || name.length() != BASE_OFFSET_DIGITS + LOG_SUFFIX.length()) {
            return false;
        }
        for (int i = 0; i < BASE_OFFSET_DIGITS; i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static String listing(Path directory) throws IOException {
        if (directory == null || !Files.isDirectory(directory)) {
            return "nothing (" + directory + " is not a directory)";
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString())
                    .sorted()
                    .toList()
                    .toString();
        }
    }
}
