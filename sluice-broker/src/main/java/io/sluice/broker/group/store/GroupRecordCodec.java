package io.sluice.broker.group.store;

import static io.sluice.broker.group.store.GroupRecordDescriptor.CURRENT_VALUE_VERSION;
import static io.sluice.broker.group.store.GroupRecordDescriptor.GROUP_KEY;
import static io.sluice.broker.group.store.GroupRecordDescriptor.OFFSET_KEY;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.TimestampType;

/**
 * Encodes {@link GroupRecord}s as Kafka record keys and values ({@link GroupRecordDescriptor}), builds the v2 batch
 * of one atomic append, and decodes records back, also from the legacy group log frames ({@link GroupLogDescriptor}).
 * Decoding checks every length against the bytes left, so garbage ends in a {@link GroupStoreCorruptException},
 * never a large allocation. Stateless; thread-safe.
 */
public final class GroupRecordCodec {
    /** Room for the batch header and a little more; the builder grows its buffer as records arrive. */
    private static final int INITIAL_BATCH_BYTES = 512;

    private GroupRecordCodec() {}

    /**
     * One uncompressed v2 batch holding {@code records} in order, all stamped {@code timestampMs}; base offset and
     * leader epoch are left for the log to assign.
     */
    public static ByteBuffer batch(List<? extends GroupRecord> records, long timestampMs) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(INITIAL_BATCH_BYTES), Compression.NONE, TimestampType.CREATE_TIME, 0L);
        for (GroupRecord record : records) {
            builder.append(timestampMs, key(record), value(record));
        }
        return builder.build().buffer();
    }

    /** The compaction key: equal for every record that replaces or removes the same state. */
    public static byte[] key(GroupRecord record) {
        RecordWriter out = new RecordWriter();
        if (record instanceof GroupRecord.OffsetCommit c) {
            writeOffsetKey(out, c.groupId(), c.topic(), c.partition());
        } else if (record instanceof GroupRecord.OffsetTombstone t) {
            writeOffsetKey(out, t.groupId(), t.topic(), t.partition());
        } else {
            out.putByte(GROUP_KEY);
            out.putString(record.groupId());
        }
        return out.toByteArray();
    }

    private static void writeOffsetKey(RecordWriter out, String groupId, String topic, int partition) {
        out.putByte(OFFSET_KEY);
        out.putString(groupId);
        out.putString(topic);
        out.putInt(partition);
    }

    /** The content, or null for a tombstone. */
    public static byte[] value(GroupRecord record) {
        if (record.isTombstone()) {
            return null;
        }
        RecordWriter out = new RecordWriter();
        out.putByte(CURRENT_VALUE_VERSION);
        if (record instanceof GroupRecord.OffsetCommit c) {
            writeOffsetValue(out, c);
        } else {
            writeGroupValue(out, (GroupRecord.GroupMetadata) record);
        }
        return out.toByteArray();
    }

    private static void writeOffsetValue(RecordWriter out, GroupRecord.OffsetCommit c) {
        out.putLong(c.offset());
        out.putInt(c.leaderEpoch());
        out.putString(c.metadata());
        out.putLong(c.commitTimestampMs());
        out.putLong(c.expireTimestampMs());
    }

    private static void writeGroupValue(RecordWriter out, GroupRecord.GroupMetadata g) {
        out.putString(g.protocolType());
        out.putInt(g.generationId());
        out.putString(g.protocolName());
        out.putString(g.leaderId());
        out.putLong(g.stateTimestampMs());
        out.putInt(g.members().size());
        for (GroupRecord.Member m : g.members()) {
            out.putString(m.memberId());
            out.putString(m.groupInstanceId());
            out.putString(m.clientId());
            out.putString(m.clientHost());
            out.putInt(m.rebalanceTimeoutMs());
            out.putInt(m.sessionTimeoutMs());
            out.putBytes(m.subscription());
            out.putBytes(m.assignment());
        }
    }

    /**
     * Decodes one Kafka record of the group store.
     *
     * @param key   the record key (read from its position to its limit); null is corrupt
     * @param value the record value, null for a tombstone
     */
    public static GroupRecord decode(ByteBuffer key, ByteBuffer value) throws GroupStoreCorruptException {
        if (key == null) {
            throw new GroupStoreCorruptException("group record without a key");
        }
        ByteBuffer k = key.slice();
        ByteBuffer v = value == null ? null : value.slice();
        try {
            byte type = k.get();
            GroupRecord record;
            if (type == OFFSET_KEY) {
                String groupId = readString(k, "groupId");
                String topic = readString(k, "topic");
                int partition = k.getInt();
                record = v == null
                        ? new GroupRecord.OffsetTombstone(groupId, topic, partition)
                        : readOffsetValue(checkVersion(v), groupId, topic, partition);
            } else if (type == GROUP_KEY) {
                String groupId = readString(k, "groupId");
                record = v == null ? new GroupRecord.GroupTombstone(groupId) : readGroupValue(checkVersion(v), groupId);
            } else {
                throw new GroupStoreCorruptException("unknown group record key type " + type);
            }
            requireConsumed(k, "key");
            if (v != null) {
                requireConsumed(v, "value");
            }
            return record;
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new GroupStoreCorruptException("group record of " + key.remaining() + " key bytes and "
                    + (value == null ? "no" : String.valueOf(value.remaining())) + " value bytes is truncated: " + e);
        }
    }

    private static ByteBuffer checkVersion(ByteBuffer value) throws GroupStoreCorruptException {
        byte version = value.get();
        if (version != CURRENT_VALUE_VERSION) {
            throw new GroupStoreCorruptException("group record value version " + version
                    + " is not supported (expected " + CURRENT_VALUE_VERSION + ")");
        }
        return value;
    }

    private static void requireConsumed(ByteBuffer in, String part) throws GroupStoreCorruptException {
        if (in.hasRemaining()) {
            throw new GroupStoreCorruptException("group record " + part + " has " + in.remaining() + " trailing bytes");
        }
    }

    /**
     * Decodes one record of a legacy group log frame ({@link GroupLogDescriptor}) from {@code in}'s position, which it
     * advances. Runs of a frame's payload are checked by the caller; a short buffer throws BufferUnderflowException.
     */
    static GroupRecord decodeLegacy(ByteBuffer in) throws GroupStoreCorruptException {
        byte type = in.get();
        switch (type) {
            case GroupLogDescriptor.TYPE_OFFSET_COMMIT:
                return readOffsetValue(in, readString(in, "groupId"), readString(in, "topic"), in.getInt());
            case GroupLogDescriptor.TYPE_OFFSET_TOMBSTONE:
                return new GroupRecord.OffsetTombstone(readString(in, "groupId"), readString(in, "topic"), in.getInt());
            case GroupLogDescriptor.TYPE_GROUP_METADATA:
                return readGroupValue(in, readString(in, "groupId"));
            case GroupLogDescriptor.TYPE_GROUP_TOMBSTONE:
                return new GroupRecord.GroupTombstone(readString(in, "groupId"));
            default:
                throw new GroupStoreCorruptException(
                        "unknown group record type " + type + " at payload position " + (in.position() - 1));
        }
    }

    private static GroupRecord readOffsetValue(ByteBuffer in, String groupId, String topic, int partition)
            throws GroupStoreCorruptException {
        return new GroupRecord.OffsetCommit(
                groupId,
                topic,
                partition,
                in.getLong(),
                in.getInt(),
                readNullableString(in),
                in.getLong(),
                in.getLong());
    }

    private static GroupRecord readGroupValue(ByteBuffer in, String groupId) throws GroupStoreCorruptException {
        String protocolType = readNullableString(in);
        int generation = in.getInt();
        String protocolName = readNullableString(in);
        String leader = readNullableString(in);
        long stateTimestamp = in.getLong();
        int memberCount = in.getInt();
        if (memberCount < 0 || memberCount > in.remaining()) {
            throw new GroupStoreCorruptException(
                    "group " + groupId + " member count " + memberCount + " is outside 0.." + in.remaining());
        }
        List<GroupRecord.Member> members = new ArrayList<>(memberCount);
        for (int i = 0; i < memberCount; i++) {
            members.add(new GroupRecord.Member(
                    readString(in, "memberId"),
                    readNullableString(in),
                    readString(in, "clientId"),
                    readString(in, "clientHost"),
                    in.getInt(),
                    in.getInt(),
                    readBytes(in, "subscription"),
                    readBytes(in, "assignment")));
        }
        return new GroupRecord.GroupMetadata(
                groupId, protocolType, generation, protocolName, leader, stateTimestamp, members);
    }

    private static String readString(ByteBuffer in, String field) throws GroupStoreCorruptException {
        String value = readNullableString(in);
        if (value == null) {
            throw new GroupStoreCorruptException("group record field " + field + " is null");
        }
        return value;
    }

    private static String readNullableString(ByteBuffer in) throws GroupStoreCorruptException {
        short length = in.getShort();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.remaining()) {
            throw new GroupStoreCorruptException("group record string length " + length + " is outside 0.."
                    + in.remaining() + " at position " + (in.position() - Short.BYTES));
        }
        byte[] utf8 = new byte[length];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(ByteBuffer in, String field) throws GroupStoreCorruptException {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new GroupStoreCorruptException("group record " + field + " length " + length + " is outside 0.."
                    + in.remaining() + " at position " + (in.position() - Integer.BYTES));
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    /** Growable big-endian writer for one key or value. Not thread-safe; one per record part. */
    private static final class RecordWriter {
        private ByteBuffer buffer = ByteBuffer.allocate(128);

        void putByte(byte value) {
            ensure(Byte.BYTES).put(value);
        }

        void putInt(int value) {
            ensure(Integer.BYTES).putInt(value);
        }

        void putLong(long value) {
            ensure(Long.BYTES).putLong(value);
        }

        void putString(String value) {
            if (value == null) {
                ensure(Short.BYTES).putShort((short) -1);
                return;
            }
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            if (utf8.length > Short.MAX_VALUE) {
                throw new IllegalArgumentException(
                        "group record string of " + utf8.length + " UTF-8 bytes exceeds " + Short.MAX_VALUE);
            }
            ensure(Short.BYTES + utf8.length).putShort((short) utf8.length).put(utf8);
        }

        void putBytes(byte[] value) {
            ensure(Integer.BYTES + value.length).putInt(value.length).put(value);
        }

        byte[] toByteArray() {
            byte[] out = new byte[buffer.position()];
            System.arraycopy(buffer.array(), 0, out, 0, out.length);
            return out;
        }

        private ByteBuffer ensure(int bytes) {
            if (buffer.remaining() < bytes) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + bytes));
                buffer.flip();
                bigger.put(buffer);
                buffer = bigger;
            }
            return buffer;
        }
    }
}
