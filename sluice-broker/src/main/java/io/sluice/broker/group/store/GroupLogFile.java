package io.sluice.broker.group.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.broker.group.store.GroupLogDescriptor.COMPACTION_FILE_NAME;
import static io.sluice.broker.group.store.GroupLogDescriptor.CRC_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.FRAME_HEADER_LENGTH;
import static io.sluice.broker.group.store.GroupLogDescriptor.LENGTH_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.LOG_FILE_NAME;
import static io.sluice.broker.group.store.GroupLogDescriptor.MAX_PAYLOAD_LENGTH;

/**
 * One partition's append-only group log: frames appended and fsynced, the latest record per key kept in memory
 * so the file can be rewritten as a snapshot when most of it is dead. Not thread-safe; {@link FileGroupStore}
 * guards each instance with its monitor.
 */
final class GroupLogFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupLogFile.class);
    /** Records per frame when writing a compacted snapshot; keeps snapshot frames far below the frame limit. */
    private static final int SNAPSHOT_RECORDS_PER_FRAME = 256;

    private final Path dir;
    private final long compactionMinRecords;
    private final double compactionMinDeadRatio;
    private final Map<GroupRecord.RecordKey, GroupRecord> live = new HashMap<>();
    private FileChannel channel;
    private long recordsInFile;

    GroupLogFile(Path dir, long compactionMinRecords, double compactionMinDeadRatio) {
        this.dir = dir;
        this.compactionMinRecords = compactionMinRecords;
        this.compactionMinDeadRatio = compactionMinDeadRatio;
    }

    /** Opens (creating if needed) the file, reads every intact frame and truncates a torn or corrupt tail. */
    void open() throws IOException {
        Files.createDirectories(dir);
        Files.deleteIfExists(dir.resolve(COMPACTION_FILE_NAME));
        Path file = dir.resolve(LOG_FILE_NAME);
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        long validEnd = readAll();
        long size = channel.size();
        if (validEnd < size) {
            LOG.warn("Truncating group log {} from {} to {} bytes: torn or corrupt tail", file, size, validEnd);
            channel.truncate(validEnd);
            channel.force(true);
        }
        channel.position(validEnd);
    }

    private long readAll() throws IOException {
        long size = channel.size();
        long position = 0;
        ByteBuffer header = ByteBuffer.allocate(FRAME_HEADER_LENGTH);
        while (size - position >= FRAME_HEADER_LENGTH) {
            header.clear();
            readFully(header, position);
            int length = header.getInt(LENGTH_OFFSET);
            int storedCrc = header.getInt(CRC_OFFSET);
            if (length < 0 || length > MAX_PAYLOAD_LENGTH || length > size - position - FRAME_HEADER_LENGTH) {
                return position;
            }
            ByteBuffer payload = ByteBuffer.allocate(length);
            readFully(payload, position + FRAME_HEADER_LENGTH);
            if (GroupRecordCodec.crcOf(payload.array(), 0, length) != storedCrc) {
                return position;
            }
            payload.flip();
            List<GroupRecord> records;
            try {
                records = GroupRecordCodec.decodePayload(payload);
            } catch (GroupStoreCorruptException e) {
                throw new GroupStoreCorruptException("group log " + dir.resolve(LOG_FILE_NAME) + " at position "
                        + position + ": " + e.getMessage());
            }
            apply(records);
            position += FRAME_HEADER_LENGTH + length;
        }
        return position;
    }

    private void readFully(ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, at);
            if (read < 0) {
                throw new IOException("unexpected end of group log " + dir + " at " + at);
            }
            at += read;
        }
    }

    Collection<GroupRecord> liveRecords() {
        return live.values();
    }

    /** Appends one atomic batch and forces it to disk; compacts afterwards if most of the file is dead. */
    void append(List<? extends GroupRecord> records) throws IOException {
        ByteBuffer frame = GroupRecordCodec.encodeFrame(records);
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
        channel.force(false);
        apply(records);
        maybeCompact();
    }

    private void apply(List<? extends GroupRecord> records) {
        for (GroupRecord record : records) {
            if (record.isTombstone()) {
                live.remove(record.key());
            } else {
                live.put(record.key(), record);
            }
        }
        recordsInFile += records.size();
    }

    private void maybeCompact() throws IOException {
        if (recordsInFile < compactionMinRecords) {
            return;
        }
        double deadRatio = 1.0 - (double) live.size() / recordsInFile;
        if (deadRatio < compactionMinDeadRatio) {
            return;
        }
        compact();
    }

    /** Rewrites the live records into a fresh file and atomically replaces the log with it. */
    void compact() throws IOException {
        Path snapshot = dir.resolve(COMPACTION_FILE_NAME);
        List<GroupRecord> batch = new ArrayList<>(SNAPSHOT_RECORDS_PER_FRAME);
        try (FileChannel out = FileChannel.open(snapshot, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            for (GroupRecord record : live.values()) {
                batch.add(record);
                if (batch.size() == SNAPSHOT_RECORDS_PER_FRAME) {
                    writeFrame(out, batch);
                }
            }
            writeFrame(out, batch);
            out.force(true);
        }
        channel.close();
        Files.move(snapshot, dir.resolve(LOG_FILE_NAME), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        forceDirectory();
        channel = FileChannel.open(dir.resolve(LOG_FILE_NAME), StandardOpenOption.READ, StandardOpenOption.WRITE);
        channel.position(channel.size());
        LOG.debug("Compacted group log {}: {} records in file became {}", dir, recordsInFile, live.size());
        recordsInFile = live.size();
    }

    private static void writeFrame(FileChannel out, List<GroupRecord> batch) throws IOException {
        if (batch.isEmpty()) {
            return;
        }
        ByteBuffer frame = GroupRecordCodec.encodeFrame(batch);
        while (frame.hasRemaining()) {
            out.write(frame);
        }
        batch.clear();
    }

    private void forceDirectory() {
        try (FileChannel dirChannel = FileChannel.open(dir, StandardOpenOption.READ)) {
            dirChannel.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a directory for fsync; the rename is still atomic there.
            LOG.debug("Could not fsync directory {}: {}", dir, e.toString());
        }
    }

    long recordsInFile() {
        return recordsInFile;
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
