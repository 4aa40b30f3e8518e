package io.sluice.log.checkpoint;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Marker a partition log writes when closed cleanly, deleted again when opened, so a standalone
 * {@code PartitionLog.open} knows without a per-directory checkpoint that everything up to the recorded log end
 * was flushed. One line: {@code <version 0> <recoveryPoint> <logStartOffset>}. Stateless; thread-safe.
 */
public final class CleanShutdownFile {
    public static final String FILE_NAME = "clean-shutdown-checkpoint";
    private static final long MAX_FILE_BYTES = 128;

    private CleanShutdownFile() {}

    /** Offsets recorded at clean shutdown. */
    public record Offsets(long recoveryPoint, long logStartOffset) {}

    public static void write(Path dir, Offsets offsets) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        Files.writeString(
                file,
                "0 " + offsets.recoveryPoint() + " " + offsets.logStartOffset() + "\n",
                StandardCharsets.US_ASCII);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /**
     * @return the offsets, or null when there is no marker
     * @throws CorruptCheckpointException when the marker is not one line of three non-negative numbers
     */
    public static Offsets read(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return null;
        }
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw new CorruptCheckpointException(file, 1, "size " + size + " exceeds " + MAX_FILE_BYTES);
        }
        String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
        String[] parts = text.split(" ");
        if (parts.length != 3 || !parts[0].equals("0")) {
            throw new CorruptCheckpointException(
                    file, 1, "expected '0 recoveryPoint logStartOffset', got '" + text + "'");
        }
        try {
            long recoveryPoint = Long.parseLong(parts[1]);
            long logStartOffset = Long.parseLong(parts[2]);
            if (recoveryPoint < 0 || logStartOffset < 0) {
                throw new CorruptCheckpointException(file, 1, "negative offsets in '" + text + "'");
            }
            return new Offsets(recoveryPoint, logStartOffset);
        } catch (NumberFormatException e) {
            throw new CorruptCheckpointException(file, 1, "offsets are not numbers in '" + text + "'");
        }
    }

    public static void delete(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(FILE_NAME));
    }
}
