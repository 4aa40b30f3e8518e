package io.sluice.log.checkpoint;

import io.sluice.log.TopicPartitionKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A per-log-directory checkpoint of one offset per partition, in Kafka's text format
 * ({@code recovery-point-offset-checkpoint}, {@code log-start-offset-checkpoint}):
 * <pre>
 * 0                      version
 * 2                      entry count
 * orders 0 1234          topic partition offset
 * orders 1 99
 * </pre>
 * Written atomically (temporary file, fsync, rename, directory fsync), so a reader sees the old or the new file whole.
 *
 * <p>Thread-safe: one instance per file, whose writers take turns (the scheduled checkpoint, a topic deletion and
 * shutdown all write the same files); {@link #read(Path)} needs no lock.
 */
public final class OffsetCheckpointFile {
    public static final String RECOVERY_POINT_FILE = "recovery-point-offset-checkpoint";
    public static final String LOG_START_OFFSET_FILE = "log-start-offset-checkpoint";
    private static final int VERSION = 0;
    /** Lines longer than this are garbage (topic names are at most 249 characters). */
    private static final int MAX_LINE_CHARS = 400;

    private final Path file;
    private final Path tmp;
    /** Held from gathering the offsets to the rename: writers of this file take turns on its one temporary file. */
    private final Object writerTurn = new Object();

    public OffsetCheckpointFile(Path file) {
        this.file = file;
        this.tmp = file.resolveSibling(file.getFileName() + ".tmp");
    }

    public Path file() {
        return file;
    }

    /**
     * Replaces the file with the offsets {@code gather} returns. {@code gather} runs in this writer's turn, so the
     * writer that renames last also gathered last: the file never goes back to an older state than one written.
     */
    public void write(Supplier<Map<TopicPartitionKey, Long>> gather) throws IOException {
        synchronized (writerTurn) {
            Map<TopicPartitionKey, Long> offsets = gather.get();
            StringBuilder text = new StringBuilder();
            text.append(VERSION).append('\n').append(offsets.size()).append('\n');
            for (Map.Entry<TopicPartitionKey, Long> e : offsets.entrySet()) {
                text.append(e.getKey().topic())
                        .append(' ')
                        .append(e.getKey().partition())
                        .append(' ')
                        .append(e.getValue())
                        .append('\n');
            }
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            fsyncDirectory(file.getParent());
        }
    }

    /** Makes a rename or file creation in {@code dir} durable. */
    public static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some platforms cannot open directories; the rename is then only as durable as the OS makes it
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win")) {
                throw e;
            }
        }
    }

    /**
     * Reads a checkpoint; a missing file is an empty map.
     *
     * @throws CorruptCheckpointException naming the line and what was wrong with it
     */
    public static Map<TopicPartitionKey, Long> read(Path file) throws IOException {
        Map<TopicPartitionKey, Long> offsets = new HashMap<>();
        if (!Files.exists(file)) {
            return offsets;
        }
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()))) {
            String versionLine = readLine(reader, file, 1);
            if (versionLine == null || !versionLine.equals(Integer.toString(VERSION))) {
                throw new CorruptCheckpointException(file, 1, "version '" + versionLine + "' is not " + VERSION);
            }
            String countLine = readLine(reader, file, 2);
            long expected = parseNonNegative(countLine, file, 2, "entry count");
            int lineNumber = 2;
            String line;
            while ((line = readLine(reader, file, ++lineNumber)) != null) {
                String[] parts = line.split(" ");
                if (parts.length != 3 || parts[0].isEmpty()) {
                    throw new CorruptCheckpointException(
                            file, lineNumber, "expected 'topic partition offset', got '" + line + "'");
                }
                long partition = parseNonNegative(parts[1], file, lineNumber, "partition");
                if (partition > Integer.MAX_VALUE) {
                    throw new CorruptCheckpointException(file, lineNumber, "partition " + partition + " is too large");
                }
                long offset = parseNonNegative(parts[2], file, lineNumber, "offset");
                offsets.put(new TopicPartitionKey(parts[0], (int) partition), offset);
                if (offsets.size() > expected) {
                    break;
                }
            }
            if (offsets.size() != expected) {
                throw new CorruptCheckpointException(
                        file, lineNumber, "entry count " + expected + " but " + offsets.size() + " entries found");
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new CorruptCheckpointException(file, 0, "not UTF-8 text");
        }
        return offsets;
    }

    private static String readLine(BufferedReader reader, Path file, int lineNumber) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = reader.read()) >= 0) {
            if (c == '\n') {
                return line.toString();
            }
            if (line.length() >= MAX_LINE_CHARS) {
                throw new CorruptCheckpointException(
                        file, lineNumber, "line longer than " + MAX_LINE_CHARS + " characters");
            }
            line.append((char) c);
        }
        if (line.length() > 0) {
            // every line is written with its line end, and the file replaced whole: a line without one was cut off
            // (a cut number would otherwise read as a smaller, valid offset)
            throw new CorruptCheckpointException(file, lineNumber, "line cut off before its line end: '" + line + "'");
        }
        return null;
    }

    private static long parseNonNegative(String text, Path file, int lineNumber, String field)
            throws CorruptCheckpointException {
        try {
            long value = Long.parseLong(text);
            if (value < 0) {
                throw new CorruptCheckpointException(file, lineNumber, field + " " + value + " is negative");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new CorruptCheckpointException(file, lineNumber, field + " '" + text + "' is not a number");
        }
    }
}
