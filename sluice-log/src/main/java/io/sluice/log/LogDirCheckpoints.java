package io.sluice.log;

import io.sluice.log.checkpoint.CorruptCheckpointException;
import io.sluice.log.checkpoint.OffsetCheckpointFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The recovery-point and log-start-offset checkpoint files of each log directory: read at start (an unreadable one
 * is reported and ignored, so its partitions recover fully), written with the current offsets of the logs in the
 * directory. Thread-safe: the maps it reads are concurrent; each file has one writer at a time.
 */
final class LogDirCheckpoints {
    private final Map<Path, OffsetCheckpointFile> recoveryPoints;
    private final Map<Path, OffsetCheckpointFile> logStartOffsets;
    private final Map<TopicPartitionKey, PartitionLog> logs;
    private final Map<TopicPartitionKey, Path> logDirOf;
    private final RecoveryReport report;

    /** @param logs and {@code logDirOf}: the log manager's live, concurrent maps */
    LogDirCheckpoints(
            List<Path> logDirs,
            Map<TopicPartitionKey, PartitionLog> logs,
            Map<TopicPartitionKey, Path> logDirOf,
            RecoveryReport report) {
        this.recoveryPoints = checkpointFiles(logDirs, OffsetCheckpointFile.RECOVERY_POINT_FILE);
        this.logStartOffsets = checkpointFiles(logDirs, OffsetCheckpointFile.LOG_START_OFFSET_FILE);
        this.logs = logs;
        this.logDirOf = logDirOf;
        this.report = report;
    }

    private static Map<Path, OffsetCheckpointFile> checkpointFiles(List<Path> logDirs, String fileName) {
        Map<Path, OffsetCheckpointFile> files = new HashMap<>();
        for (Path dir : logDirs) {
            files.put(dir, new OffsetCheckpointFile(dir.resolve(fileName)));
        }
        return Map.copyOf(files);
    }

    /** The checkpointed recovery points of {@code logDir}; empty when the file is missing or unreadable. */
    Map<TopicPartitionKey, Long> readRecoveryPoints(Path logDir) {
        return read(recoveryPoints.get(logDir).file());
    }

    /** The checkpointed log start offsets of {@code logDir}; empty when the file is missing or unreadable. */
    Map<TopicPartitionKey, Long> readLogStartOffsets(Path logDir) {
        return read(logStartOffsets.get(logDir).file());
    }

    private Map<TopicPartitionKey, Long> read(Path file) {
        try {
            return OffsetCheckpointFile.read(file);
        } catch (CorruptCheckpointException e) {
            report.add("ignored corrupt checkpoint " + file + " (" + e.getMessage()
                    + "); recovering all its partitions fully");
        } catch (IOException e) {
            report.add("could not read checkpoint " + file + " (" + e + "); recovering all its partitions fully");
        }
        return Map.of();
    }

    /** Writes {@code recovery-point-offset-checkpoint} of {@code logDir}. */
    void writeRecoveryPoints(Path logDir) throws IOException {
        write(recoveryPoints.get(logDir), logDir, PartitionLog::recoveryPoint);
    }

    /** Writes {@code log-start-offset-checkpoint} of {@code logDir}. */
    void writeLogStartOffsets(Path logDir) throws IOException {
        write(logStartOffsets.get(logDir), logDir, PartitionLog::logStartOffset);
    }

    /** Writes {@code checkpoint} with the offset of every log in {@code dir}, gathered in the file's writer turn. */
    private void write(OffsetCheckpointFile checkpoint, Path dir, ToLongFunction<PartitionLog> offset)
            throws IOException {
        checkpoint.write(() -> {
            Map<TopicPartitionKey, Long> offsets = new HashMap<>();
            for (Map.Entry<TopicPartitionKey, PartitionLog> e : logs.entrySet()) {
                if (dir.equals(logDirOf.get(e.getKey()))) {
                    offsets.put(e.getKey(), offset.applyAsLong(e.getValue()));
                }
            }
            return offsets;
        });
    }
}
