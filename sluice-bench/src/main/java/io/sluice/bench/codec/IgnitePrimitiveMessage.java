package io.sluice.bench.codec;

import java.nio.ByteBuffer;
import org.apache.ignite.plugin.extensions.communication.Message;
import org.apache.ignite.plugin.extensions.communication.MessageReader;
import org.apache.ignite.plugin.extensions.communication.MessageWriter;

/**
 * {@link PrimitiveFields} as an Apache Ignite 2.17 direct message, written the way Ignite's generated serializers
 * do. Write-only (the benchmark measures writing). Mutable; not thread-safe.
 */
public final class IgnitePrimitiveMessage implements Message {
    private static final long serialVersionUID = 1L;

    public final PrimitiveFields f = new PrimitiveFields();

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(ByteBuffer buf, MessageWriter writer) {
        writer.setBuffer(buf);
        if (!writer.isHeaderWritten()) {
            if (!writer.writeHeader(directType(), fieldsCount())) {
                return false;
            }
            writer.onHeaderWritten();
        }
        switch (writer.state()) {
            case 0:
                if (!writer.writeInt("i0", f.i0)) {
                    return false;
                }
                writer.incrementState();
            case 1:
                if (!writer.writeInt("i1", f.i1)) {
                    return false;
                }
                writer.incrementState();
            case 2:
                if (!writer.writeInt("i2", f.i2)) {
                    return false;
                }
                writer.incrementState();
            case 3:
                if (!writer.writeInt("i3", f.i3)) {
                    return false;
                }
                writer.incrementState();
            case 4:
                if (!writer.writeInt("i4", f.i4)) {
                    return false;
                }
                writer.incrementState();
            case 5:
                if (!writer.writeInt("i5", f.i5)) {
                    return false;
                }
                writer.incrementState();
            case 6:
                if (!writer.writeInt("i6", f.i6)) {
                    return false;
                }
                writer.incrementState();
            case 7:
                if (!writer.writeInt("i7", f.i7)) {
                    return false;
                }
                writer.incrementState();
            case 8:
                if (!writer.writeInt("i8", f.i8)) {
                    return false;
                }
                writer.incrementState();
            case 9:
                if (!writer.writeInt("i9", f.i9)) {
                    return false;
                }
                writer.incrementState();
            case 10:
                if (!writer.writeLong("l0", f.l0)) {
                    return false;
                }
                writer.incrementState();
            case 11:
                if (!writer.writeLong("l1", f.l1)) {
                    return false;
                }
                writer.incrementState();
            case 12:
                if (!writer.writeLong("l2", f.l2)) {
                    return false;
                }
                writer.incrementState();
            case 13:
                if (!writer.writeLong("l3", f.l3)) {
                    return false;
                }
                writer.incrementState();
            case 14:
                if (!writer.writeLong("l4", f.l4)) {
                    return false;
                }
                writer.incrementState();
            case 15:
                if (!writer.writeLong("l5", f.l5)) {
                    return false;
                }
                writer.incrementState();
            case 16:
                if (!writer.writeLong("l6", f.l6)) {
                    return false;
                }
                writer.incrementState();
            case 17:
                if (!writer.writeLong("l7", f.l7)) {
                    return false;
                }
                writer.incrementState();
            case 18:
                if (!writer.writeLong("l8", f.l8)) {
                    return false;
                }
                writer.incrementState();
            case 19:
                if (!writer.writeLong("l9", f.l9)) {
                    return false;
                }
                writer.incrementState();
            case 20:
                if (!writer.writeBoolean("b0", f.b0)) {
                    return false;
                }
                writer.incrementState();
            case 21:
                if (!writer.writeBoolean("b1", f.b1)) {
                    return false;
                }
                writer.incrementState();
            case 22:
                if (!writer.writeBoolean("b2", f.b2)) {
                    return false;
                }
                writer.incrementState();
            case 23:
                if (!writer.writeBoolean("b3", f.b3)) {
                    return false;
                }
                writer.incrementState();
            case 24:
                if (!writer.writeBoolean("b4", f.b4)) {
                    return false;
                }
                writer.incrementState();
            case 25:
                if (!writer.writeShort("s0", f.s0)) {
                    return false;
                }
                writer.incrementState();
            case 26:
                if (!writer.writeShort("s1", f.s1)) {
                    return false;
                }
                writer.incrementState();
            case 27:
                if (!writer.writeShort("s2", f.s2)) {
                    return false;
                }
                writer.incrementState();
            case 28:
                if (!writer.writeShort("s3", f.s3)) {
                    return false;
                }
                writer.incrementState();
            case 29:
                if (!writer.writeShort("s4", f.s4)) {
                    return false;
                }
                writer.incrementState();
            case 30:
                if (!writer.writeDouble("d0", f.d0)) {
                    return false;
                }
                writer.incrementState();
            case 31:
                if (!writer.writeDouble("d1", f.d1)) {
                    return false;
                }
                writer.incrementState();
            case 32:
                if (!writer.writeDouble("d2", f.d2)) {
                    return false;
                }
                writer.incrementState();
            case 33:
                if (!writer.writeFloat("f0", f.f0)) {
                    return false;
                }
                writer.incrementState();
            case 34:
                if (!writer.writeFloat("f1", f.f1)) {
                    return false;
                }
                writer.incrementState();
            default:
                return true;
        }
    }

    @Override
    public boolean readFrom(ByteBuffer buf, MessageReader reader) {
        throw new UnsupportedOperationException("write-only benchmark message");
    }

    @Override
    public short directType() {
        return 30_000;
    }

    @Override
    public byte fieldsCount() {
        return 35;
    }

    @Override
    public void onAckReceived() {}
}
