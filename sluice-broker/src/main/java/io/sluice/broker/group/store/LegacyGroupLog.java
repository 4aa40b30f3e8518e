package io.sluice.broker.group.store;

import static io.sluice.broker.group.store.GroupLogDescriptor.CRC_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.CURRENT_VERSION;
import static io.sluice.broker.group.store.GroupLogDescriptor.FRAME_HEADER_LENGTH;
import static io.sluice.broker.group.store.GroupLogDescriptor.LENGTH_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.LOG_FILE_NAME;
import static io.sluice.broker.group.store.GroupLogDescriptor.MAX_PAYLOAD_LENGTH;
import static io.sluice.broker.group.store.GroupLogDescriptor.PARTITION_DIR_PREFIX;
import static io.sluice.broker.group.store.GroupLogDescriptor.RECORDS_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.RECORD_COUNT_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.VERSION_OFFSET;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Reads the group log files of the file store that preceded {@code __consumer_offsets} ({@link GroupLogDescriptor}):
 * every intact frame in order, latest record per key, tombstoned keys dropped. A torn or corrupt tail (length out of
 * range, CRC mismatch) ends a file where the last intact frame ends, as the file store's own recovery did; a frame
 * whose CRC holds but whose content cannot be decoded is an error. Nothing is written. Stateless; thread-safe.
 */
final class LegacyGroupLog {
    private LegacyGroupLog() {}

    /** The live records of every {@code __consumer_offsets-<n>/groups.log} under {@code rootDir}, file by file. */
    static List<GroupRecord> readLive(Path rootDir) throws IOException {
        Map<GroupRecord.RecordKey, GroupRecord> live = new LinkedHashMap<>();
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(rootDir, PARTITION_DIR_PREFIX + "*")) {
            for (Path dir : dirs) {
                Path file = dir.resolve(LOG_FILE_NAME);
                if (Files.isRegularFile(file)) {
                    files.add(file);
                }
            }
        }
        files.sort(null);
        for (Path file : files) {
            readFile(file, live);
        }
        return new ArrayList<>(live.values());
    }

    private static void readFile(Path file, Map<GroupRecord.RecordKey, GroupRecord> live) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            long position = 0;
            ByteBuffer header = ByteBuffer.allocate(FRAME_HEADER_LENGTH);
            while (size - position >= FRAME_HEADER_LENGTH) {
                header.clear();
                GroupPartitionReader.readFully(channel, header, position);
                int length = header.getInt(LENGTH_OFFSET);
                if (length < 0 || length > MAX_PAYLOAD_LENGTH || length > size - position - FRAME_HEADER_LENGTH) {
                    return;
                }
                ByteBuffer payload = ByteBuffer.allocate(length);
                GroupPartitionReader.readFully(channel, payload, position + FRAME_HEADER_LENGTH);
                if (crcOf(payload.array(), 0, length) != header.getInt(CRC_OFFSET)) {
                    return;
                }
                payload.flip();
                try {
                    for (GroupRecord record : decodePayload(payload)) {
                        if (record.isTombstone()) {
                            live.remove(record.key());
                        } else {
                            live.put(record.key(), record);
                        }
                    }
                } catch (GroupStoreCorruptException e) {
                    throw new GroupStoreCorruptException(
                            "group log " + file + " at position " + position + ": " + e.getMessage());
                }
                position += FRAME_HEADER_LENGTH + length;
            }
        }
    }

    /** CRC-32C of {@code length} bytes of {@code bytes} from {@code offset}, as stored in the frame header. */
    static int crcOf(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /** Decodes a frame payload whose CRC has already been verified. */
    static List<GroupRecord> decodePayload(ByteBuffer payload) throws GroupStoreCorruptException {
        ByteBuffer in = payload.slice();
        try {
            byte version = in.get(VERSION_OFFSET);
            if (version != CURRENT_VERSION) {
                throw new GroupStoreCorruptException(
                        "group log frame version " + version + " is not supported (expected " + CURRENT_VERSION + ")");
            }
            int count = in.getInt(RECORD_COUNT_OFFSET);
            int maxCount = (in.limit() - RECORDS_OFFSET) / (Byte.BYTES + Short.BYTES);
            if (count < 0 || count > maxCount) {
                throw new GroupStoreCorruptException("group log frame record count " + count + " is outside 0.."
                        + maxCount + " for a payload of " + in.limit() + " bytes");
            }
            in.position(RECORDS_OFFSET);
            List<GroupRecord> records = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                records.add(GroupRecordCodec.decodeLegacy(in));
            }
            if (in.hasRemaining()) {
                throw new GroupStoreCorruptException(
                        "group log frame has " + in.remaining() + " trailing bytes after " + count + " records");
            }
            return records;
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new GroupStoreCorruptException(
                    "group log frame payload of " + payload.remaining() + " bytes is truncated: " + e);
        }
    }
}
