package io.sluice.codec.message;

import io.sluice.codec.endpoint.Endpoint;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** Test message carrying every field kind, nested. Mutable; not thread-safe. */
final class AllTypes implements Message {
    static final int TYPE_ID = 100;
    static final MessageRegistry REGISTRY = MessageRegistry.builder()
            .register(TYPE_ID, "AllTypes", 0, AllTypes::new)
            .build();

    boolean flag;
    byte b;
    short s;
    int i;
    long l;
    float f;
    double d;
    UUID uuid = new UUID(0, 0);
    byte[] bytes;
    int[] ints;
    long[] longs;
    String str;
    Endpoint endpoint;
    List<String> strings;
    List<Message> children;
    Map<String, Long> map;
    Map<Endpoint, Message> endpointMap;
    Message child;

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        // CHECKSTYLE.OFF: RightCurly - one line per state of the resumable writer, a table to read down
        switch (w.state()) {
            case 0:
                if (!w.writeBoolean(flag)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeByte(b)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeShort(s)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeInt(i)) {
                    return false;
                }
                w.incrementState();
            case 4:
                if (!w.writeLong(l)) {
                    return false;
                }
                w.incrementState();
            case 5:
                if (!w.writeFloat(f)) {
                    return false;
                }
                w.incrementState();
            case 6:
                if (!w.writeDouble(d)) {
                    return false;
                }
                w.incrementState();
            case 7:
                if (!w.writeUuid(uuid)) {
                    return false;
                }
                w.incrementState();
            case 8:
                if (!w.writeByteArray(bytes)) {
                    return false;
                }
                w.incrementState();
            case 9:
                if (!w.writeIntArray(ints)) {
                    return false;
                }
                w.incrementState();
            case 10:
                if (!w.writeLongArray(longs)) {
                    return false;
                }
                w.incrementState();
            case 11:
                if (!w.writeString(str)) {
                    return false;
                }
                w.incrementState();
            case 12:
                if (!w.writeEndpoint(endpoint)) {
                    return false;
                }
                w.incrementState();
            case 13:
                if (!w.writeList(strings, ElementType.STRING)) {
                    return false;
                }
                w.incrementState();
            case 14:
                if (!w.writeList(children, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
            case 15:
                if (!w.writeMap(map, ElementType.STRING, ElementType.LONG)) {
                    return false;
                }
                w.incrementState();
            case 16:
                if (!w.writeMap(endpointMap, ElementType.ENDPOINT, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
            case 17:
                if (!w.writeMessage(child)) {
                    return false;
                }
                w.incrementState();
            default:
                return true;
        }
        // CHECKSTYLE.ON: RightCurly
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean readFrom(MessageReader r) {
        // CHECKSTYLE.OFF: RightCurly - one line per state of the resumable reader, a table to read down
        switch (r.state()) {
            case 0:
                flag = r.readBoolean();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                b = r.readByte();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                s = r.readShort();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                i = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                l = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 5:
                f = r.readFloat();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 6:
                d = r.readDouble();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 7:
                uuid = r.readUuid();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 8:
                bytes = r.readByteArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 9:
                ints = r.readIntArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 10:
                longs = r.readLongArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 11:
                str = r.readString();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 12:
                endpoint = r.readEndpoint();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 13:
                strings = r.readList(ElementType.STRING);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 14:
                children = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 15:
                map = r.readMap(ElementType.STRING, ElementType.LONG);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 16:
                endpointMap = r.readMap(ElementType.ENDPOINT, ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 17:
                child = r.readMessage();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            default:
                return true;
        }
        // CHECKSTYLE.ON: RightCurly
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AllTypes a
                && flag == a.flag
                && b == a.b
                && s == a.s
                && i == a.i
                && l == a.l
                && Float.compare(f, a.f) == 0
                && Double.compare(d, a.d) == 0
                && Objects.equals(uuid, a.uuid)
                && Arrays.equals(bytes, a.bytes)
                && Arrays.equals(ints, a.ints)
                && Arrays.equals(longs, a.longs)
                && Objects.equals(str, a.str)
                && Objects.equals(endpoint, a.endpoint)
                && Objects.equals(strings, a.strings)
                && Objects.equals(children, a.children)
                && Objects.equals(map, a.map)
                && Objects.equals(endpointMap, a.endpointMap)
                && Objects.equals(child, a.child);
    }

    @Override
    public int hashCode() {
        return Objects.hash(i, l, str);
    }

    @Override
    public String toString() {
        return "AllTypes{" + flag + "," + b + "," + s + "," + i + "," + l + "," + f + "," + d + "," + uuid + ","
                + Arrays.toString(bytes) + "," + Arrays.toString(ints) + "," + Arrays.toString(longs) + "," + str
                + "," + endpoint + "," + strings + "," + children + "," + map + "," + endpointMap + "," + child + "}";
    }
}
