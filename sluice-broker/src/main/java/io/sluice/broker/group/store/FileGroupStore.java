package io.sluice.broker.group.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.broker.group.store.GroupLogDescriptor.PARTITION_DIR_PREFIX;

/**
 * {@link GroupStore} as append-only files: one {@code __consumer_offsets-<n>/groups.log} per partition of the
 * group space (see {@link GroupPartitioner}), each frame length-prefixed and CRC-32C checked, fsynced before an
 * append returns, a torn tail truncated on load, and a partition's file rewritten as a snapshot of its live
 * records once at least {@code compactionMinRecords} records are in it and the dead fraction reaches
 * {@code compactionMinDeadRatio}. Thread-safe: appends to one partition are serialized by that partition's
 * monitor; partitions proceed in parallel.
 */
public final class FileGroupStore implements GroupStore {
    /** Default floor before compaction is considered: small files are cheap to replay. */
    public static final long DEFAULT_COMPACTION_MIN_RECORDS = 10_000;
    /** Default dead fraction that triggers compaction: rewriting costs about the live size, so wait for half dead. */
    public static final double DEFAULT_COMPACTION_MIN_DEAD_RATIO = 0.5;

    private final Path rootDir;
    private final GroupLogFile[] partitions;
    private final long compactionMinRecords;
    private final double compactionMinDeadRatio;
    /** Guarded by {@code partitions}: once closed, no partition file is opened again. */
    private boolean closed;

    public FileGroupStore(Path rootDir, int partitionCount) {
        this(rootDir, partitionCount, DEFAULT_COMPACTION_MIN_RECORDS, DEFAULT_COMPACTION_MIN_DEAD_RATIO);
    }

    public FileGroupStore(Path rootDir, int partitionCount, long compactionMinRecords, double compactionMinDeadRatio) {
        if (partitionCount <= 0) {
            throw new IllegalArgumentException("offsets.topic.num.partitions must be positive, was " + partitionCount);
        }
        this.rootDir = rootDir;
        this.partitions = new GroupLogFile[partitionCount];
        this.compactionMinRecords = compactionMinRecords;
        this.compactionMinDeadRatio = compactionMinDeadRatio;
    }

    @Override
    public List<GroupRecord> load() throws IOException {
        Files.createDirectories(rootDir);
        checkNoForeignPartitions();
        List<GroupRecord> loaded = new ArrayList<>();
        for (int p = 0; p < partitions.length; p++) {
            Path dir = partitionDir(p);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            GroupLogFile file = partition(p);
            synchronized (file) {
                loaded.addAll(file.liveRecords());
            }
        }
        return loaded;
    }

    private void checkNoForeignPartitions() throws IOException {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(rootDir, PARTITION_DIR_PREFIX + "*")) {
            for (Path dir : dirs) {
                String suffix = dir.getFileName().toString().substring(PARTITION_DIR_PREFIX.length());
                int index;
                try {
                    index = Integer.parseInt(suffix);
                } catch (NumberFormatException e) {
                    continue;
                }
                if (index < 0 || index >= partitions.length) {
                    throw new IOException("group store " + rootDir + " holds partition " + index
                            + " but offsets.topic.num.partitions is " + partitions.length
                            + "; the partition count of the group store cannot change");
                }
            }
        }
    }

    @Override
    public void append(String groupId, List<? extends GroupRecord> records) throws IOException {
        for (GroupRecord record : records) {
            if (!record.groupId().equals(groupId)) {
                throw new IllegalArgumentException("record of group " + record.groupId()
                        + " appended in a batch for group " + groupId);
            }
        }
        if (records.isEmpty()) {
            return;
        }
        GroupLogFile file = partition(GroupPartitioner.partitionFor(groupId, partitions.length));
        synchronized (file) {
            file.append(records);
        }
    }

    private GroupLogFile partition(int index) throws IOException {
        synchronized (partitions) {
            if (closed) {
                throw new IOException("group store " + rootDir + " is closed");
            }
            GroupLogFile file = partitions[index];
            if (file == null) {
                file = new GroupLogFile(partitionDir(index), compactionMinRecords, compactionMinDeadRatio);
                file.open();
                partitions[index] = file;
            }
            return file;
        }
    }

    /** Directory of one partition's log. */
    public Path partitionDir(int partition) {
        return rootDir.resolve(PARTITION_DIR_PREFIX + partition);
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        synchronized (partitions) {
            closed = true;
            for (int i = 0; i < partitions.length; i++) {
                GroupLogFile file = partitions[i];
                if (file == null) {
                    continue;
                }
                synchronized (file) {
                    try {
                        file.close();
                    } catch (IOException e) {
                        failure = e;
                    }
                }
                partitions[i] = null;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
