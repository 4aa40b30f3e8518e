package io.sluice.broker.group.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Writes group log files as the file store that preceded {@code __consumer_offsets} did ({@link GroupLogDescriptor}),
 * for tests of reading and importing them. Stateless; thread-safe.
 */
public final class LegacyGroupFiles {
    private LegacyGroupFiles() {}

    /** The file of {@code partition} under {@code rootDir}. */
    static Path logOf(Path rootDir, int partition) {
        return rootDir.resolve(GroupLogDescriptor.PARTITION_DIR_PREFIX + partition)
                .resolve(GroupLogDescriptor.LOG_FILE_NAME);
    }

    /** Appends one frame holding {@code records} to the partition file of their group. */
    public static void append(Path rootDir, int partitionCount, List<? extends GroupRecord> records)
            throws IOException {
        Path file = logOf(rootDir, GroupPartitioner.partitionFor(records.get(0).groupId(), partitionCount));
        Files.createDirectories(file.getParent());
        Files.write(file, frame(records).array(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** A whole frame: header (length, CRC-32C) and payload (version, count, records). */
    static ByteBuffer frame(List<? extends GroupRecord> records) {
        byte[][] encoded = new byte[records.size()][];
        int payloadLength = GroupLogDescriptor.RECORDS_OFFSET;
        for (int i = 0; i < encoded.length; i++) {
            encoded[i] = record(records.get(i));
            payloadLength += encoded[i].length;
        }
        ByteBuffer frame = ByteBuffer.allocate(GroupLogDescriptor.FRAME_HEADER_LENGTH + payloadLength);
        frame.putInt(payloadLength)
                .putInt(0)
                .put(GroupLogDescriptor.CURRENT_VERSION)
                .putInt(records.size());
        for (byte[] r : encoded) {
            frame.put(r);
        }
        frame.putInt(
                GroupLogDescriptor.CRC_OFFSET,
                LegacyGroupLog.crcOf(frame.array(), GroupLogDescriptor.FRAME_HEADER_LENGTH, payloadLength));
        return frame.flip();
    }

    /** A frame around a payload given as bytes, with a valid CRC. */
    static ByteBuffer frame(byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(GroupLogDescriptor.FRAME_HEADER_LENGTH + payload.length);
        frame.putInt(payload.length)
                .putInt(LegacyGroupLog.crcOf(payload, 0, payload.length))
                .put(payload);
        return frame.flip();
    }

    /** One legacy record: its type, then the key fields and value fields of the current layout. */
    private static byte[] record(GroupRecord record) {
        byte[] key = GroupRecordCodec.key(record);
        byte[] value = GroupRecordCodec.value(record);
        int keyFields = key.length - GroupRecordDescriptor.KEY_FIELDS_OFFSET;
        int valueFields = value == null ? 0 : value.length - GroupRecordDescriptor.VALUE_FIELDS_OFFSET;
        ByteBuffer out = ByteBuffer.allocate(1 + keyFields + valueFields);
        out.put(typeOf(record)).put(key, GroupRecordDescriptor.KEY_FIELDS_OFFSET, keyFields);
        if (value != null) {
            out.put(value, GroupRecordDescriptor.VALUE_FIELDS_OFFSET, valueFields);
        }
        return out.array();
    }

    private static byte typeOf(GroupRecord record) {
        if (record instanceof GroupRecord.OffsetCommit) {
            return GroupLogDescriptor.TYPE_OFFSET_COMMIT;
        }
        if (record instanceof GroupRecord.OffsetTombstone) {
            return GroupLogDescriptor.TYPE_OFFSET_TOMBSTONE;
        }
        if (record instanceof GroupRecord.GroupMetadata) {
            return GroupLogDescriptor.TYPE_GROUP_METADATA;
        }
        return GroupLogDescriptor.TYPE_GROUP_TOMBSTONE;
    }
}
