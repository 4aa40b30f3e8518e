package io.sluice.broker.group.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one-time import of the group files a broker kept before group state moved to {@code __consumer_offsets}
 * ({@link GroupLogDescriptor}; {@code <first log dir>/.sluice-metadata/consumer-offsets}). The files are read once
 * at start; each partition's live records are imported when this broker first loads that partition as its leader
 * and its log is still empty (a partition that already holds records is left as it is), and once no partition waits
 * any more the directory is renamed to {@code consumer-offsets.migrated}, so the import never runs twice. A crash
 * before the rename imports nothing twice either: imported partitions are no longer empty.
 *
 * <p>Thread-safe: synchronized; partitions are loaded on the coordinator's loader thread.
 */
public final class GroupStoreMigration {
    private static final Logger LOG = LoggerFactory.getLogger(GroupStoreMigration.class);
    public static final String MIGRATED_SUFFIX = ".migrated";

    private final Path dir;
    private final Map<Integer, List<GroupRecord>> pending;

    private GroupStoreMigration(Path dir, Map<Integer, List<GroupRecord>> pending) {
        this.dir = dir;
        this.pending = pending;
    }

    /** Nothing to import. */
    public static GroupStoreMigration none() {
        return new GroupStoreMigration(null, new HashMap<>());
    }

    /**
     * Reads the legacy files under {@code dir}, if it exists, and spreads their live records over the
     * {@code partitionCount} partitions of {@code __consumer_offsets} by group.
     *
     * @throws GroupStoreCorruptException when a legacy frame with a valid checksum cannot be decoded: the files are
     *                                    left alone and the broker does not start over them
     */
    public static GroupStoreMigration of(Path dir, int partitionCount) throws IOException {
        if (!Files.isDirectory(dir)) {
            return none();
        }
        Map<Integer, List<GroupRecord>> byPartition = new HashMap<>();
        List<GroupRecord> live = LegacyGroupLog.readLive(dir);
        for (GroupRecord record : live) {
            byPartition
                    .computeIfAbsent(
                            GroupPartitioner.partitionFor(record.groupId(), partitionCount), p -> new ArrayList<>())
                    .add(record);
        }
        GroupStoreMigration migration = new GroupStoreMigration(dir, byPartition);
        if (byPartition.isEmpty()) {
            migration.moveAside();
        } else {
            LOG.info(
                    "Group files {} hold {} live records for {} partitions of __consumer_offsets; each is imported "
                            + "when this broker first leads it",
                    dir,
                    live.size(),
                    byPartition.size());
        }
        return migration;
    }

    /** The records waiting to be imported into {@code partition}, or null when none do. */
    synchronized List<GroupRecord> pending(int partition) {
        return pending.get(partition);
    }

    /** Whether records still wait for any partition. */
    public synchronized boolean hasPending() {
        return !pending.isEmpty();
    }

    /** {@code partition} holds its share now (or had records of its own); moves the files aside after the last. */
    synchronized void done(int partition) throws IOException {
        if (pending.remove(partition) != null && pending.isEmpty()) {
            moveAside();
        }
    }

    private void moveAside() throws IOException {
        Path target = dir.resolveSibling(dir.getFileName() + MIGRATED_SUFFIX);
        if (Files.exists(target)) {
            target = dir.resolveSibling(dir.getFileName() + MIGRATED_SUFFIX + "-" + System.currentTimeMillis());
        }
        Files.move(dir, target);
        LOG.info("Group files imported into __consumer_offsets; {} moved to {}", dir, target);
    }
}
