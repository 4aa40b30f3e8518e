package io.sluice.bench.codec;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;

/**
 * {@link PrimitiveFields} encoded the way protobuf-java's generated {@code writeTo} does for the equivalent message
 * (sint32 for ints and shorts, sint64, bool, double, float; field numbers 1..35): straight calls on
 * {@link CodedOutputStream}, without the generated class (no protoc here). Stateless.
 */
public final class ProtobufPrimitiveMessage {
    private ProtobufPrimitiveMessage() {}

    public static void writeTo(PrimitiveFields f, CodedOutputStream out) throws IOException {
        out.writeSInt32(1, f.i0);
        out.writeSInt32(2, f.i1);
        out.writeSInt32(3, f.i2);
        out.writeSInt32(4, f.i3);
        out.writeSInt32(5, f.i4);
        out.writeSInt32(6, f.i5);
        out.writeSInt32(7, f.i6);
        out.writeSInt32(8, f.i7);
        out.writeSInt32(9, f.i8);
        out.writeSInt32(10, f.i9);
        out.writeSInt64(11, f.l0);
        out.writeSInt64(12, f.l1);
        out.writeSInt64(13, f.l2);
        out.writeSInt64(14, f.l3);
        out.writeSInt64(15, f.l4);
        out.writeSInt64(16, f.l5);
        out.writeSInt64(17, f.l6);
        out.writeSInt64(18, f.l7);
        out.writeSInt64(19, f.l8);
        out.writeSInt64(20, f.l9);
        out.writeBool(21, f.b0);
        out.writeBool(22, f.b1);
        out.writeBool(23, f.b2);
        out.writeBool(24, f.b3);
        out.writeBool(25, f.b4);
        out.writeSInt32(26, f.s0);
        out.writeSInt32(27, f.s1);
        out.writeSInt32(28, f.s2);
        out.writeSInt32(29, f.s3);
        out.writeSInt32(30, f.s4);
        out.writeDouble(31, f.d0);
        out.writeDouble(32, f.d1);
        out.writeDouble(33, f.d2);
        out.writeFloat(34, f.f0);
        out.writeFloat(35, f.f1);
    }
}
