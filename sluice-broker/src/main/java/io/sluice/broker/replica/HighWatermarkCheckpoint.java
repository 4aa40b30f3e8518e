package io.sluice.broker.replica;

import io.sluice.log.TopicPartitionKey;
import io.sluice.log.checkpoint.CorruptCheckpointException;
import io.sluice.log.checkpoint.OffsetCheckpointFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The high watermarks of the partitions in each log directory, in Kafka's {@code replication-offset-checkpoint}
 * (same text format as the other offset checkpoints): written periodically and at shutdown, read once at start so a
 * restarted broker neither exposes uncommitted records to consumers nor hides committed ones.
 *
 * <p>Thread-safe: writes are serialized on this object.
 */
public final class HighWatermarkCheckpoint {
    private static final Logger LOG = LoggerFactory.getLogger(HighWatermarkCheckpoint.class);
    public static final String FILE_NAME = "replication-offset-checkpoint";

    private final List<Path> logDirs;
    private final Map<Path, OffsetCheckpointFile> files = new HashMap<>();

    public HighWatermarkCheckpoint(List<Path> logDirs) {
        this.logDirs = List.copyOf(logDirs);
        for (Path dir : logDirs) {
            files.put(dir, new OffsetCheckpointFile(dir.resolve(FILE_NAME)));
        }
    }

    /** Every checkpointed high watermark; a missing or corrupt file counts as empty (logged). */
    public Map<TopicPartitionKey, Long> readAll() {
        Map<TopicPartitionKey, Long> all = new HashMap<>();
        for (Path dir : logDirs) {
            Path file = dir.resolve(FILE_NAME);
            try {
                all.putAll(OffsetCheckpointFile.read(file));
            } catch (CorruptCheckpointException e) {
                LOG.error(
                        "ignoring corrupt {} ({}); high watermarks there restart at the log start",
                        file,
                        e.getMessage());
            } catch (IOException e) {
                LOG.error("cannot read {}; high watermarks there restart at the log start", file, e);
            }
        }
        return all;
    }

    /** Writes one file per log directory with the high watermarks of the partitions it holds. */
    public synchronized void write(Map<Path, Map<TopicPartitionKey, Long>> byDir) throws IOException {
        for (Path dir : logDirs) {
            files.get(dir).write(() -> byDir.getOrDefault(dir, Map.of()));
        }
    }
}
