package io.sluice.broker.group.store;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import static io.sluice.broker.group.store.GroupLogDescriptor.CRC_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.CURRENT_VERSION;
import static io.sluice.broker.group.store.GroupLogDescriptor.FRAME_HEADER_LENGTH;
import static io.sluice.broker.group.store.GroupLogDescriptor.LENGTH_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.MAX_PAYLOAD_LENGTH;
import static io.sluice.broker.group.store.GroupLogDescriptor.RECORDS_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.RECORD_COUNT_OFFSET;
import static io.sluice.broker.group.store.GroupLogDescriptor.TYPE_GROUP_METADATA;
import static io.sluice.broker.group.store.GroupLogDescriptor.TYPE_GROUP_TOMBSTONE;
import static io.sluice.broker.group.store.GroupLogDescriptor.TYPE_OFFSET_COMMIT;
import static io.sluice.broker.group.store.GroupLogDescriptor.TYPE_OFFSET_TOMBSTONE;
import static io.sluice.broker.group.store.GroupLogDescriptor.VERSION_OFFSET;

/**
 * Encodes batches of {@link GroupRecord}s into frames and decodes frame payloads, following
 * {@link GroupLogDescriptor}. Decoding checks every length against the bytes left, so garbage ends in a
 * {@link GroupStoreCorruptException}, never a large allocation. Stateless; thread-safe.
 */
public final class GroupRecordCodec {
    /** Smallest possible encoded record; bounds the record count a payload can claim. */
    private static final int MIN_RECORD_LENGTH = Byte.BYTES + Short.BYTES;

    private GroupRecordCodec() {
    }

    /** Returns a complete frame (header and payload), positioned at 0 and ready to write. */
    public static ByteBuffer encodeFrame(List<? extends GroupRecord> records) {
        List<byte[]> pieces = new ArrayList<>();
        int payloadLength = RECORDS_OFFSET;
        for (GroupRecord record : records) {
            byte[] encoded = encodeRecord(record);
            pieces.add(encoded);
            payloadLength += encoded.length;
        }
        if (payloadLength > MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("group record batch of " + payloadLength
                    + " bytes exceeds the maximum frame payload of " + MAX_PAYLOAD_LENGTH);
        }
        ByteBuffer frame = ByteBuffer.allocate(FRAME_HEADER_LENGTH + payloadLength);
        frame.position(FRAME_HEADER_LENGTH + VERSION_OFFSET);
        frame.put(CURRENT_VERSION);
        frame.position(FRAME_HEADER_LENGTH + RECORD_COUNT_OFFSET);
        frame.putInt(records.size());
        for (byte[] piece : pieces) {
            frame.put(piece);
        }
        frame.putInt(LENGTH_OFFSET, payloadLength);
        frame.putInt(CRC_OFFSET, crcOf(frame.array(), FRAME_HEADER_LENGTH, payloadLength));
        frame.position(0);
        return frame;
    }

    /** CRC-32C of {@code length} bytes of {@code bytes} from {@code offset}, as stored in the frame header. */
    public static int crcOf(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /** Decodes a frame payload whose CRC has already been verified. */
    public static List<GroupRecord> decodePayload(ByteBuffer payload) throws GroupStoreCorruptException {
        ByteBuffer in = payload.slice();
        try {
            byte version = in.get(VERSION_OFFSET);
            if (version != CURRENT_VERSION) {
                throw new GroupStoreCorruptException("group log frame version " + version
                        + " is not supported (expected " + CURRENT_VERSION + ")");
            }
            int count = in.getInt(RECORD_COUNT_OFFSET);
            int maxCount = (in.limit() - RECORDS_OFFSET) / MIN_RECORD_LENGTH;
            if (count < 0 || count > maxCount) {
                throw new GroupStoreCorruptException("group log frame record count " + count
                        + " is outside 0.." + maxCount + " for a payload of " + in.limit() + " bytes");
            }
            in.position(RECORDS_OFFSET);
            List<GroupRecord> records = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                records.add(decodeRecord(in));
            }
            if (in.hasRemaining()) {
                throw new GroupStoreCorruptException("group log frame has " + in.remaining()
                        + " trailing bytes after " + count + " records");
            }
            return records;
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new GroupStoreCorruptException("group log frame payload of " + payload.remaining()
                    + " bytes is truncated: " + e);
        }
    }

    private static byte[] encodeRecord(GroupRecord record) {
        RecordWriter out = new RecordWriter();
        if (record instanceof GroupRecord.OffsetCommit c) {
            out.putByte(TYPE_OFFSET_COMMIT);
            out.putString(c.groupId());
            out.putString(c.topic());
            out.putInt(c.partition());
            out.putLong(c.offset());
            out.putInt(c.leaderEpoch());
            out.putString(c.metadata());
            out.putLong(c.commitTimestampMs());
            out.putLong(c.expireTimestampMs());
        } else if (record instanceof GroupRecord.OffsetTombstone t) {
            out.putByte(TYPE_OFFSET_TOMBSTONE);
            out.putString(t.groupId());
            out.putString(t.topic());
            out.putInt(t.partition());
        } else if (record instanceof GroupRecord.GroupMetadata g) {
            out.putByte(TYPE_GROUP_METADATA);
            out.putString(g.groupId());
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
        } else if (record instanceof GroupRecord.GroupTombstone t) {
            out.putByte(TYPE_GROUP_TOMBSTONE);
            out.putString(t.groupId());
        } else {
            throw new IllegalArgumentException("unknown group record " + record);
        }
        return out.toByteArray();
    }

    private static GroupRecord decodeRecord(ByteBuffer in) throws GroupStoreCorruptException {
        byte type = in.get();
        switch (type) {
            case TYPE_OFFSET_COMMIT:
                return new GroupRecord.OffsetCommit(readString(in, "groupId"), readString(in, "topic"),
                        in.getInt(), in.getLong(), in.getInt(), readNullableString(in),
                        in.getLong(), in.getLong());
            case TYPE_OFFSET_TOMBSTONE:
                return new GroupRecord.OffsetTombstone(readString(in, "groupId"), readString(in, "topic"), in.getInt());
            case TYPE_GROUP_METADATA:
                return decodeGroupMetadata(in);
            case TYPE_GROUP_TOMBSTONE:
                return new GroupRecord.GroupTombstone(readString(in, "groupId"));
            default:
                throw new GroupStoreCorruptException("unknown group record type " + type + " at payload position "
                        + (in.position() - 1));
        }
    }

    private static GroupRecord decodeGroupMetadata(ByteBuffer in) throws GroupStoreCorruptException {
        String groupId = readString(in, "groupId");
        String protocolType = readNullableString(in);
        int generation = in.getInt();
        String protocolName = readNullableString(in);
        String leader = readNullableString(in);
        long stateTimestamp = in.getLong();
        int memberCount = in.getInt();
        if (memberCount < 0 || memberCount > in.remaining()) {
            throw new GroupStoreCorruptException("group " + groupId + " member count " + memberCount
                    + " is outside 0.." + in.remaining());
        }
        List<GroupRecord.Member> members = new ArrayList<>(memberCount);
        for (int i = 0; i < memberCount; i++) {
            members.add(new GroupRecord.Member(readString(in, "memberId"), readNullableString(in),
                    readString(in, "clientId"), readString(in, "clientHost"), in.getInt(), in.getInt(),
                    readBytes(in, "subscription"), readBytes(in, "assignment")));
        }
        return new GroupRecord.GroupMetadata(groupId, protocolType, generation, protocolName, leader,
                stateTimestamp, members);
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
                    + in.remaining() + " at payload position " + (in.position() - Short.BYTES));
        }
        String value = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return value;
    }

    private static byte[] readBytes(ByteBuffer in, String field) throws GroupStoreCorruptException {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new GroupStoreCorruptException("group record " + field + " length " + length + " is outside 0.."
                    + in.remaining() + " at payload position " + (in.position() - Integer.BYTES));
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    /** Growable big-endian writer for one record. Not thread-safe; one per record. */
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
                throw new IllegalArgumentException("group record string of " + utf8.length
                        + " UTF-8 bytes exceeds " + Short.MAX_VALUE);
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
