package io.sluice.broker.topic;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.apache.kafka.common.Uuid;

/**
 * {@code partition.metadata} in a partition directory: the id of the topic the log belongs to, in
 * Kafka's text format ({@code version: 0} and {@code topic_id: <id>}), so a log left behind by a
 * deleted topic is never adopted by a new topic of the same name.
 *
 * <p>Stateless; callers serialize access to one directory.
 */
final class PartitionMetadataFile {
    static final String FILE_NAME = "partition.metadata";
    private static final String VERSION_LINE = "version: 0";
    private static final String TOPIC_ID_PREFIX = "topic_id: ";
    /** Far above the two short lines the file holds; a larger file is not ours. */
    private static final long MAX_BYTES = 1024;

    private PartitionMetadataFile() {}

    /** True when the directory records {@code id}, or records nothing yet (a log from before topic ids). */
    static boolean belongsTo(Path partitionDir, Uuid id) throws IOException {
        Path file = partitionDir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return true;
        }
        if (Files.size(file) > MAX_BYTES) {
            return false;
        }
        // Decoded leniently: bytes that are not UTF-8 are garbage to compare, not an error to raise.
        for (String line : new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith(TOPIC_ID_PREFIX)) {
                return line.substring(TOPIC_ID_PREFIX.length()).trim().equals(id.toString());
            }
        }
        return false;
    }

    /** Records {@code id} durably (write, fsync, atomic rename), unless it is already recorded. */
    static void write(Path partitionDir, Uuid id) throws IOException {
        Path file = partitionDir.resolve(FILE_NAME);
        String content = VERSION_LINE + "\n" + TOPIC_ID_PREFIX + id + "\n";
        if (Files.exists(file)
                && Files.size(file) <= MAX_BYTES
                && new String(Files.readAllBytes(file), StandardCharsets.UTF_8).equals(content)) {
            return;
        }
        Path tmp = partitionDir.resolve(FILE_NAME + ".tmp");
        try (FileChannel channel = FileChannel.open(
                tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(StandardCharsets.UTF_8.encode(content));
            channel.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
