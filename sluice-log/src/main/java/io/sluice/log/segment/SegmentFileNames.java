package io.sluice.log.segment;

import java.nio.file.Path;

/**
 * File names of a segment, as Kafka names them: the base offset as 20 zero-padded digits plus a suffix.
 * Stateless; thread-safe.
 */
public final class SegmentFileNames {
    private SegmentFileNames() {}

    public static final String LOG_SUFFIX = ".log";
    public static final String INDEX_SUFFIX = ".index";
    public static final String TIME_INDEX_SUFFIX = ".timeindex";
    public static final String SNAPSHOT_SUFFIX = ".snapshot";
    /** Appended to a segment's file names when retention or truncation removes it; deleted after the delay. */
    public static final String DELETED_SUFFIX = ".deleted";
    /** Appended to every file of a segment a clean is writing; such files are deleted at recovery. */
    public static final String CLEANED_SUFFIX = ".cleaned";
    /** Appended to every file of a cleaned segment being swapped in; recovery completes the swap. */
    public static final String SWAP_SUFFIX = ".swap";

    public static final int OFFSET_DIGITS = 20;

    /** {@code file} with {@code suffix} appended to its name. */
    public static Path withSuffix(Path file, String suffix) {
        return file.resolveSibling(file.getFileName() + suffix);
    }

    /** {@code file} with its name's ending {@code from} (possibly empty) replaced by {@code to}. */
    public static Path replaceSuffix(Path file, String from, String to) {
        String name = file.getFileName().toString();
        if (!name.endsWith(from)) {
            throw new IllegalArgumentException(file + " does not end with '" + from + "'");
        }
        return file.resolveSibling(name.substring(0, name.length() - from.length()) + to);
    }

    public static String filenamePrefix(long offset) {
        String digits = Long.toString(offset);
        return "0".repeat(Math.max(0, OFFSET_DIGITS - digits.length())) + digits;
    }

    public static Path logFile(Path dir, long baseOffset) {
        return dir.resolve(filenamePrefix(baseOffset) + LOG_SUFFIX);
    }

    public static Path indexFile(Path dir, long baseOffset) {
        return dir.resolve(filenamePrefix(baseOffset) + INDEX_SUFFIX);
    }

    public static Path timeIndexFile(Path dir, long baseOffset) {
        return dir.resolve(filenamePrefix(baseOffset) + TIME_INDEX_SUFFIX);
    }

    public static Path snapshotFile(Path dir, long offset) {
        return dir.resolve(filenamePrefix(offset) + SNAPSHOT_SUFFIX);
    }

    /**
     * The offset in a file name {@code <20 digits><suffix>}, or -1 when the name does not have that shape.
     */
    public static long parseOffset(String fileName, String suffix) {
        if (!fileName.endsWith(suffix) || fileName.length() != OFFSET_DIGITS + suffix.length()) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < OFFSET_DIGITS; i++) {
            char c = fileName.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (value > (Long.MAX_VALUE - (c - '0')) / 10) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
