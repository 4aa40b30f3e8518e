package io.sluice.log.clean;

import io.sluice.log.RecoveryReport;
import io.sluice.log.TopicPartitionKey;
import io.sluice.log.checkpoint.CorruptCheckpointException;
import io.sluice.log.checkpoint.OffsetCheckpointFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each compacted log's dirty section starts, per log directory in Kafka's {@code cleaner-offset-checkpoint} (the
 * text format of {@link OffsetCheckpointFile}, written atomically). An unreadable file is reported and ignored: those
 * logs are cleaned again from their start, which removes nothing a first clean would keep. Thread-safe.
 */
public final class CleanerCheckpoints {
    public static final String FILE_NAME = "cleaner-offset-checkpoint";

    private final Map<Path, OffsetCheckpointFile> files = new HashMap<>();
    private final Map<Path, Map<TopicPartitionKey, Long>> offsets = new HashMap<>();

    /** Reads the checkpoint of every directory; problems go to {@code report}. */
    public CleanerCheckpoints(List<Path> logDirs, RecoveryReport report) {
        for (Path dir : logDirs) {
            OffsetCheckpointFile file = new OffsetCheckpointFile(dir.resolve(FILE_NAME));
            files.put(dir, file);
            Map<TopicPartitionKey, Long> read = new HashMap<>();
            try {
                read.putAll(OffsetCheckpointFile.read(file.file()));
            } catch (CorruptCheckpointException e) {
                report.add("ignored corrupt cleaner checkpoint " + file.file() + " (" + e.getMessage()
                        + "); its compacted logs are cleaned from their start");
            } catch (IOException e) {
                report.add("could not read cleaner checkpoint " + file.file() + " (" + e + ")");
            }
            offsets.put(dir, read);
        }
    }

    /** The checkpointed first dirty offset of a partition, or null. */
    public synchronized Long get(Path dir, TopicPartitionKey key) {
        Map<TopicPartitionKey, Long> inDir = offsets.get(dir);
        return inDir == null ? null : inDir.get(key);
    }

    /** Records {@code offset} for a partition and rewrites its directory's file. */
    public void update(Path dir, TopicPartitionKey key, long offset) throws IOException {
        change(dir, key, offset);
    }

    /** Forgets a partition (deleted, or no longer compacted) and rewrites its directory's file. */
    public void remove(Path dir, TopicPartitionKey key) throws IOException {
        change(dir, key, null);
    }

    private void change(Path dir, TopicPartitionKey key, Long offset) throws IOException {
        OffsetCheckpointFile file = files.get(dir);
        if (file == null) {
            return;
        }
        synchronized (this) {
            Map<TopicPartitionKey, Long> inDir = offsets.get(dir);
            if (offset == null ? inDir.remove(key) == null : offset.equals(inDir.put(key, offset))) {
                return;
            }
        }
        file.write(() -> {
            synchronized (this) {
                return Map.copyOf(offsets.get(dir));
            }
        });
    }
}
