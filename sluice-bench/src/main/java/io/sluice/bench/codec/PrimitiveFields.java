package io.sluice.bench.codec;

import java.util.Random;

/**
 * The ~35 primitive fields of the writer benchmark (10 ints, 10 longs, 5 booleans, 5 shorts, 3 doubles, 2 floats),
 * half small and half full-range so varints take every length. The fields are spelled out one by one on purpose: the
 * messages write them the way generated serializers write named fields, and an array or a loop here would change what
 * the benchmark measures; {@link #fill} draws them in this order so the seeded data stays the same. Mutable; not
 * thread-safe; one per benchmark state.
 */
public class PrimitiveFields {
    public int i0;
    public int i1;
    public int i2;
    public int i3;
    public int i4;
    public int i5;
    public int i6;
    public int i7;
    public int i8;
    public int i9;
    public long l0;
    public long l1;
    public long l2;
    public long l3;
    public long l4;
    public long l5;
    public long l6;
    public long l7;
    public long l8;
    public long l9;
    public boolean b0;
    public boolean b1;
    public boolean b2;
    public boolean b3;
    public boolean b4;
    public short s0;
    public short s1;
    public short s2;
    public short s3;
    public short s4;
    public double d0;
    public double d1;
    public double d2;
    public float f0;
    public float f1;

    /** Fills every field from {@code seed}. */
    public void fill(long seed) {
        Random rnd = new Random(seed);
        i0 = rnd.nextInt(100);
        i1 = rnd.nextInt();
        i2 = rnd.nextInt(100);
        i3 = rnd.nextInt();
        i4 = rnd.nextInt(100);
        i5 = rnd.nextInt();
        i6 = rnd.nextInt(100);
        i7 = rnd.nextInt();
        i8 = rnd.nextInt(100);
        i9 = rnd.nextInt();
        l0 = rnd.nextInt(100_000);
        l1 = rnd.nextLong();
        l2 = rnd.nextInt(100_000);
        l3 = rnd.nextLong();
        l4 = rnd.nextInt(100_000);
        l5 = rnd.nextLong();
        l6 = rnd.nextInt(100_000);
        l7 = rnd.nextLong();
        l8 = rnd.nextInt(100_000);
        l9 = rnd.nextLong();
        b0 = rnd.nextBoolean();
        b1 = rnd.nextBoolean();
        b2 = rnd.nextBoolean();
        b3 = rnd.nextBoolean();
        b4 = rnd.nextBoolean();
        s0 = (short) rnd.nextInt();
        s1 = (short) rnd.nextInt();
        s2 = (short) rnd.nextInt();
        s3 = (short) rnd.nextInt();
        s4 = (short) rnd.nextInt();
        d0 = rnd.nextDouble();
        d1 = rnd.nextDouble();
        d2 = rnd.nextDouble();
        f0 = rnd.nextFloat();
        f1 = rnd.nextFloat();
    }

    /** Copies every field from {@code o}. */
    public void copyFrom(PrimitiveFields o) {
        i0 = o.i0;
        i1 = o.i1;
        i2 = o.i2;
        i3 = o.i3;
        i4 = o.i4;
        i5 = o.i5;
        i6 = o.i6;
        i7 = o.i7;
        i8 = o.i8;
        i9 = o.i9;
        l0 = o.l0;
        l1 = o.l1;
        l2 = o.l2;
        l3 = o.l3;
        l4 = o.l4;
        l5 = o.l5;
        l6 = o.l6;
        l7 = o.l7;
        l8 = o.l8;
        l9 = o.l9;
        b0 = o.b0;
        b1 = o.b1;
        b2 = o.b2;
        b3 = o.b3;
        b4 = o.b4;
        s0 = o.s0;
        s1 = o.s1;
        s2 = o.s2;
        s3 = o.s3;
        s4 = o.s4;
        d0 = o.d0;
        d1 = o.d1;
        d2 = o.d2;
        f0 = o.f0;
        f1 = o.f1;
    }

    /** True when every field equals {@code o}'s. */
    public boolean sameAs(PrimitiveFields o) {
        return i0 == o.i0
                && i1 == o.i1
                && i2 == o.i2
                && i3 == o.i3
                && i4 == o.i4
                && i5 == o.i5
                && i6 == o.i6
                && i7 == o.i7
                && i8 == o.i8
                && i9 == o.i9
                && l0 == o.l0
                && l1 == o.l1
                && l2 == o.l2
                && l3 == o.l3
                && l4 == o.l4
                && l5 == o.l5
                && l6 == o.l6
                && l7 == o.l7
                && l8 == o.l8
                && l9 == o.l9
                && b0 == o.b0
                && b1 == o.b1
                && b2 == o.b2
                && b3 == o.b3
                && b4 == o.b4
                && s0 == o.s0
                && s1 == o.s1
                && s2 == o.s2
                && s3 == o.s3
                && s4 == o.s4
                && Double.compare(d0, o.d0) == 0
                && Double.compare(d1, o.d1) == 0
                && Double.compare(d2, o.d2) == 0
                && Double.compare(f0, o.f0) == 0
                && Double.compare(f1, o.f1) == 0;
    }
}
