package io.sluice.log.epoch;

import io.sluice.log.checkpoint.CheckpointText;
import io.sluice.log.checkpoint.CorruptCheckpointException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which leader epoch started at which offset in a partition (Kafka's leader epoch cache, KIP-101/279), kept in
 * {@code leader-epoch-checkpoint} in Kafka's text format:
 * <pre>
 * 0            version
 * 2            entry count
 * 0 0          epoch startOffset
 * 3 1200
 * </pre>
 * Every change is written at once (atomically: temporary file, fsync, rename): changes are rare, one per
 * leader change. Not thread-safe; guarded by the partition's append lock (readers copy under it).
 */
public final class LeaderEpochCache {
    public static final String FILE_NAME = "leader-epoch-checkpoint";
    private static final int VERSION = 0;
    private static final int MAX_LINE_CHARS = 64;
    /** More entries than this in a file is garbage: a partition does not see millions of leader changes. */
    private static final int MAX_ENTRIES = 1_000_000;

    private final Path file;
    private final List<EpochEntry> entries = new ArrayList<>();

    private LeaderEpochCache(Path file) {
        this.file = file;
    }

    /** An empty cache writing to {@code dir/leader-epoch-checkpoint}. */
    public static LeaderEpochCache empty(Path dir) {
        return new LeaderEpochCache(dir.resolve(FILE_NAME));
    }

    /**
     * Loads {@code dir/leader-epoch-checkpoint}.
     *
     * @return the cache, or null when the file does not exist
     * @throws CorruptCheckpointException when the file is not Kafka's format or its entries do not increase
     */
    public static LeaderEpochCache load(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return null;
        }
        LeaderEpochCache cache = new LeaderEpochCache(file);
        try (CheckpointText text = CheckpointText.open(file, MAX_LINE_CHARS)) {
            text.expectVersion(VERSION);
            long count = text.nonNegative(text.nextLine(), "entry count");
            if (count > MAX_ENTRIES) {
                throw text.corrupt("entry count " + count + " exceeds " + MAX_ENTRIES);
            }
            for (int i = 0; i < count; i++) {
                String line = text.nextLine();
                String[] parts = line == null ? new String[0] : line.split(" ");
                if (parts.length != 2) {
                    throw text.corrupt("expected 'epoch startOffset', got '" + line + "'");
                }
                long epoch = text.nonNegative(parts[0], "epoch");
                long startOffset = text.nonNegative(parts[1], "startOffset");
                if (epoch > Integer.MAX_VALUE) {
                    throw text.corrupt("epoch " + epoch + " is too large");
                }
                EpochEntry last = cache.latest();
                if (last != null && (epoch <= last.epoch() || startOffset < last.startOffset())) {
                    throw text.corrupt("entry (" + epoch + ", " + startOffset + ") does not follow (" + last.epoch()
                            + ", " + last.startOffset() + ")");
                }
                cache.entries.add(new EpochEntry((int) epoch, startOffset));
            }
            if (text.nextLine() != null) {
                throw text.corrupt("more lines than the entry count " + count);
            }
        }
        return cache;
    }

    public EpochEntry latest() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1);
    }

    public int latestEpoch() {
        return entries.isEmpty() ? EpochEndOffset.UNDEFINED_EPOCH : latest().epoch();
    }

    public List<EpochEntry> entries() {
        return List.copyOf(entries);
    }

    /**
     * Records that {@code epoch} starts at {@code startOffset}; an epoch not above the latest is ignored (it is
     * already recorded, or older than what the log holds).
     *
     * @return whether the cache changed (and was written)
     */
    public boolean assign(int epoch, long startOffset) throws IOException {
        if (epoch < 0) {
            return false;
        }
        EpochEntry last = latest();
        if (last != null && (epoch <= last.epoch() || startOffset < last.startOffset())) {
            return false;
        }
        entries.add(new EpochEntry(epoch, startOffset));
        write();
        return true;
    }

    /** Records without writing; for rebuilding from the log, followed by one {@link #write()}. */
    public void assignInMemory(int epoch, long startOffset) {
        EpochEntry last = latest();
        if (epoch >= 0 && (last == null || (epoch > last.epoch() && startOffset >= last.startOffset()))) {
            entries.add(new EpochEntry(epoch, startOffset));
        }
    }

    /** Forgets epochs starting at or after {@code endOffset} (the log was truncated there). */
    public void truncateFromEnd(long endOffset) throws IOException {
        boolean changed = false;
        while (!entries.isEmpty() && latest().startOffset() >= endOffset) {
            entries.remove(entries.size() - 1);
            changed = true;
        }
        if (changed) {
            write();
        }
    }

    /** Moves the start to {@code startOffset}: earlier epochs collapse into the one in force there. */
    public void truncateFromStart(long startOffset) throws IOException {
        int keepFrom = 0;
        while (keepFrom + 1 < entries.size() && entries.get(keepFrom + 1).startOffset() <= startOffset) {
            keepFrom++;
        }
        boolean changed = keepFrom > 0;
        if (keepFrom > 0) {
            entries.subList(0, keepFrom).clear();
        }
        if (!entries.isEmpty() && entries.get(0).startOffset() < startOffset) {
            entries.set(0, new EpochEntry(entries.get(0).epoch(), startOffset));
            changed = true;
        }
        if (changed) {
            write();
        }
    }

    public void clear() throws IOException {
        entries.clear();
        write();
    }

    /** Kafka's endOffsetForEpoch. */
    public EpochEndOffset endOffsetFor(int requestedEpoch, long logEndOffset) {
        if (requestedEpoch == EpochEndOffset.UNDEFINED_EPOCH || entries.isEmpty()) {
            return EpochEndOffset.UNDEFINED;
        }
        if (requestedEpoch == latestEpoch()) {
            return new EpochEndOffset(requestedEpoch, logEndOffset);
        }
        EpochEntry floor = null;
        EpochEntry higher = null;
        for (EpochEntry entry : entries) {
            if (entry.epoch() <= requestedEpoch) {
                floor = entry;
            } else {
                higher = entry;
                break;
            }
        }
        if (higher == null) {
            return EpochEndOffset.UNDEFINED;
        }
        return floor == null
                ? new EpochEndOffset(requestedEpoch, higher.startOffset())
                : new EpochEndOffset(floor.epoch(), higher.startOffset());
    }

    /** Writes the whole cache atomically. */
    public void write() throws IOException {
        StringBuilder text = new StringBuilder();
        text.append(VERSION).append('\n').append(entries.size()).append('\n');
        for (EpochEntry entry : entries) {
            text.append(entry.epoch()).append(' ').append(entry.startOffset()).append('\n');
        }
        CheckpointText.write(file, text);
    }
}
