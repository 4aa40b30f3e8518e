package io.sluice.codec.message;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Raw big-endian access to a {@link ByteBuffer}'s memory, heap or direct, read-only or not, addressed as
 * {@code (base, offset + index)} the way Agrona's UnsafeBuffer does: one bounds check by the caller per field instead
 * of one per byte, and no per-access scope checks. Falls back to absolute ByteBuffer access where
 * {@code sun.misc.Unsafe} is unavailable. Callers must check {@code index + length <= limit} before every access.
 * Stateless; safe to share.
 */
final class BufferAccess {
    private static final sun.misc.Unsafe UNSAFE;
    private static final long ADDRESS_FIELD;
    private static final long HB_FIELD;
    private static final long OFFSET_FIELD;
    private static final long BYTE_ARRAY_BASE;
    static final boolean RAW;
    private static final boolean SWAP = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    static {
        sun.misc.Unsafe unsafe = null;
        long address = -1;
        long hb = -1;
        long offset = -1;
        long arrayBase = -1;
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            unsafe = (sun.misc.Unsafe) f.get(null);
            address = unsafe.objectFieldOffset(Buffer.class.getDeclaredField("address"));
            hb = unsafe.objectFieldOffset(ByteBuffer.class.getDeclaredField("hb"));
            offset = unsafe.objectFieldOffset(ByteBuffer.class.getDeclaredField("offset"));
            arrayBase = unsafe.arrayBaseOffset(byte[].class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            unsafe = null;
        }
        UNSAFE = unsafe;
        ADDRESS_FIELD = address;
        HB_FIELD = hb;
        OFFSET_FIELD = offset;
        BYTE_ARRAY_BASE = arrayBase;
        RAW = unsafe != null;
    }

    private BufferAccess() {
    }

    /** The array behind a heap buffer (null for direct). */
    static Object base(ByteBuffer buf) {
        return RAW && !buf.isDirect() ? UNSAFE.getObject(buf, HB_FIELD) : null;
    }

    /** Raw offset of index 0 of {@code buf}. */
    static long offset(ByteBuffer buf) {
        if (!RAW) {
            return 0;
        }
        return buf.isDirect() ? UNSAFE.getLong(buf, ADDRESS_FIELD)
                : BYTE_ARRAY_BASE + UNSAFE.getInt(buf, OFFSET_FIELD);
    }

    static void putByte(ByteBuffer buf, Object base, long off, int i, byte v) {
        if (RAW) {
            UNSAFE.putByte(base, off + i, v);
        } else {
            buf.put(i, v);
        }
    }

    static byte getByte(ByteBuffer buf, Object base, long off, int i) {
        return RAW ? UNSAFE.getByte(base, off + i) : buf.get(i);
    }

    static void putShort(ByteBuffer buf, Object base, long off, int i, short v) {
        if (RAW) {
            UNSAFE.putShort(base, off + i, SWAP ? Short.reverseBytes(v) : v);
        } else {
            buf.putShort(i, v);
        }
    }

    static short getShort(ByteBuffer buf, Object base, long off, int i) {
        if (RAW) {
            short v = UNSAFE.getShort(base, off + i);
            return SWAP ? Short.reverseBytes(v) : v;
        }
        return buf.getShort(i);
    }

    static void putInt(ByteBuffer buf, Object base, long off, int i, int v) {
        if (RAW) {
            UNSAFE.putInt(base, off + i, SWAP ? Integer.reverseBytes(v) : v);
        } else {
            buf.putInt(i, v);
        }
    }

    static int getInt(ByteBuffer buf, Object base, long off, int i) {
        if (RAW) {
            int v = UNSAFE.getInt(base, off + i);
            return SWAP ? Integer.reverseBytes(v) : v;
        }
        return buf.getInt(i);
    }

    static void putLong(ByteBuffer buf, Object base, long off, int i, long v) {
        if (RAW) {
            UNSAFE.putLong(base, off + i, SWAP ? Long.reverseBytes(v) : v);
        } else {
            buf.putLong(i, v);
        }
    }

    static long getLong(ByteBuffer buf, Object base, long off, int i) {
        if (RAW) {
            long v = UNSAFE.getLong(base, off + i);
            return SWAP ? Long.reverseBytes(v) : v;
        }
        return buf.getLong(i);
    }

    /** Below this, a byte loop beats the fixed cost of a bulk copy. */
    private static final int LOOP_COPY_MAX = 16;

    static void putBytes(ByteBuffer buf, Object base, long off, int i, byte[] src, int srcOff, int len) {
        if (RAW && len <= LOOP_COPY_MAX) {
            for (int k = 0; k < len; k++) {
                UNSAFE.putByte(base, off + i + k, src[srcOff + k]);
            }
        } else if (RAW) {
            UNSAFE.copyMemory(src, BYTE_ARRAY_BASE + srcOff, base, off + i, len);
        } else {
            buf.put(i, src, srcOff, len);
        }
    }

    static void getBytes(ByteBuffer buf, Object base, long off, int i, byte[] dst, int dstOff, int len) {
        if (RAW && len <= LOOP_COPY_MAX) {
            for (int k = 0; k < len; k++) {
                dst[dstOff + k] = UNSAFE.getByte(base, off + i + k);
            }
        } else if (RAW) {
            UNSAFE.copyMemory(base, off + i, dst, BYTE_ARRAY_BASE + dstOff, len);
        } else {
            buf.get(i, dst, dstOff, len);
        }
    }
}
