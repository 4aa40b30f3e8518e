package io.sluice.log.checkpoint;

import io.sluice.log.TopicPartitionKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
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
    /** Held from gathering the offsets to the rename: writers of this file take turns on its one temporary file. */
    private final Object writerTurn = new Object();

    public OffsetCheckpointFile(Path file) {
        this.file = file;
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
            CheckpointText.write(file, text);
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
        try (CheckpointText text = CheckpointText.open(file, MAX_LINE_CHARS)) {
            text.expectVersion(VERSION);
            long expected = text.nonNegative(text.nextLine(), "entry count");
            String line;
            while ((line = text.nextLine()) != null) {
                String[] parts = line.split(" ");
                if (parts.length != 3 || parts[0].isEmpty()) {
                    throw text.corrupt("expected 'topic partition offset', got '" + line + "'");
                }
                long partition = text.nonNegative(parts[1], "partition");
                if (partition > Integer.MAX_VALUE) {
                    throw text.corrupt("partition " + partition + " is too large");
                }
                long offset = text.nonNegative(parts[2], "offset");
                offsets.put(new TopicPartitionKey(parts[0], (int) partition), offset);
                if (offsets.size() > expected) {
                    break;
                }
            }
            if (offsets.size() != expected) {
                throw text.corrupt("entry count " + expected + " but " + offsets.size() + " entries found");
            }
        }
        return offsets;
    }
}
