package io.sluice.bench.codec;

import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageRegistry;
import io.sluice.codec.message.MessageWriter;

/**
 * {@link PrimitiveFields} as a Sluice message. Mutable; not thread-safe.
 */
public final class SluicePrimitiveMessage implements Message {
    public static final int TYPE_ID = 900;
    public static final MessageRegistry REGISTRY = MessageRegistry.builder()
            .register(TYPE_ID, "SluicePrimitiveMessage", 0, SluicePrimitiveMessage::new)
            .build();

    public final PrimitiveFields f = new PrimitiveFields();

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeInt(f.i0)) {
                    return w.stopAt(0);
                }
            case 1:
                if (!w.writeInt(f.i1)) {
                    return w.stopAt(1);
                }
            case 2:
                if (!w.writeInt(f.i2)) {
                    return w.stopAt(2);
                }
            case 3:
                if (!w.writeInt(f.i3)) {
                    return w.stopAt(3);
                }
            case 4:
                if (!w.writeInt(f.i4)) {
                    return w.stopAt(4);
                }
            case 5:
                if (!w.writeInt(f.i5)) {
                    return w.stopAt(5);
                }
            case 6:
                if (!w.writeInt(f.i6)) {
                    return w.stopAt(6);
                }
            case 7:
                if (!w.writeInt(f.i7)) {
                    return w.stopAt(7);
                }
            case 8:
                if (!w.writeInt(f.i8)) {
                    return w.stopAt(8);
                }
            case 9:
                if (!w.writeInt(f.i9)) {
                    return w.stopAt(9);
                }
            case 10:
                if (!w.writeLong(f.l0)) {
                    return w.stopAt(10);
                }
            case 11:
                if (!w.writeLong(f.l1)) {
                    return w.stopAt(11);
                }
            case 12:
                if (!w.writeLong(f.l2)) {
                    return w.stopAt(12);
                }
            case 13:
                if (!w.writeLong(f.l3)) {
                    return w.stopAt(13);
                }
            case 14:
                if (!w.writeLong(f.l4)) {
                    return w.stopAt(14);
                }
            case 15:
                if (!w.writeLong(f.l5)) {
                    return w.stopAt(15);
                }
            case 16:
                if (!w.writeLong(f.l6)) {
                    return w.stopAt(16);
                }
            case 17:
                if (!w.writeLong(f.l7)) {
                    return w.stopAt(17);
                }
            case 18:
                if (!w.writeLong(f.l8)) {
                    return w.stopAt(18);
                }
            case 19:
                if (!w.writeLong(f.l9)) {
                    return w.stopAt(19);
                }
            case 20:
                if (!w.writeBoolean(f.b0)) {
                    return w.stopAt(20);
                }
            case 21:
                if (!w.writeBoolean(f.b1)) {
                    return w.stopAt(21);
                }
            case 22:
                if (!w.writeBoolean(f.b2)) {
                    return w.stopAt(22);
                }
            case 23:
                if (!w.writeBoolean(f.b3)) {
                    return w.stopAt(23);
                }
            case 24:
                if (!w.writeBoolean(f.b4)) {
                    return w.stopAt(24);
                }
            case 25:
                if (!w.writeShort(f.s0)) {
                    return w.stopAt(25);
                }
            case 26:
                if (!w.writeShort(f.s1)) {
                    return w.stopAt(26);
                }
            case 27:
                if (!w.writeShort(f.s2)) {
                    return w.stopAt(27);
                }
            case 28:
                if (!w.writeShort(f.s3)) {
                    return w.stopAt(28);
                }
            case 29:
                if (!w.writeShort(f.s4)) {
                    return w.stopAt(29);
                }
            case 30:
                if (!w.writeDouble(f.d0)) {
                    return w.stopAt(30);
                }
            case 31:
                if (!w.writeDouble(f.d1)) {
                    return w.stopAt(31);
                }
            case 32:
                if (!w.writeDouble(f.d2)) {
                    return w.stopAt(32);
                }
            case 33:
                if (!w.writeFloat(f.f0)) {
                    return w.stopAt(33);
                }
            case 34:
                if (!w.writeFloat(f.f1)) {
                    return w.stopAt(34);
                }
            default:
                return true;
        }
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean readFrom(MessageReader r) {
        switch (r.state()) {
            case 0:
                f.i0 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                f.i1 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                f.i2 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                f.i3 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                f.i4 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 5:
                f.i5 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 6:
                f.i6 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 7:
                f.i7 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 8:
                f.i8 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 9:
                f.i9 = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 10:
                f.l0 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 11:
                f.l1 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 12:
                f.l2 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 13:
                f.l3 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 14:
                f.l4 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 15:
                f.l5 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 16:
                f.l6 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 17:
                f.l7 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 18:
                f.l8 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 19:
                f.l9 = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 20:
                f.b0 = r.readBoolean();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 21:
                f.b1 = r.readBoolean();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 22:
                f.b2 = r.readBoolean();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 23:
                f.b3 = r.readBoolean();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 24:
                f.b4 = r.readBoolean();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 25:
                f.s0 = r.readShort();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 26:
                f.s1 = r.readShort();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 27:
                f.s2 = r.readShort();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 28:
                f.s3 = r.readShort();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 29:
                f.s4 = r.readShort();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 30:
                f.d0 = r.readDouble();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 31:
                f.d1 = r.readDouble();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 32:
                f.d2 = r.readDouble();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 33:
                f.f0 = r.readFloat();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 34:
                f.f1 = r.readFloat();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            default:
                return true;
        }
    }
}
