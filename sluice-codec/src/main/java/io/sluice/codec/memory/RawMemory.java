package io.sluice.codec.memory;

import io.sluice.codec.SuppressForbidden;
import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * The one place Sluice obtains {@code sun.misc.Unsafe} and the offsets that address a
 * {@link ByteBuffer}'s memory as {@code (array, address + index)}, the way Agrona's UnsafeBuffer
 * does: an absolute address for a direct buffer, an offset into its array for a heap one. Callers
 * prove every access inside the buffer themselves (one bounds check per field or per run, not per
 * byte) and fall back to checked {@link ByteBuffer} access when {@link #AVAILABLE} is false.
 *
 * <p>Stateless; thread-safe.
 */
@SuppressForbidden(reason = "Unsafe addresses buffers with one bounds check per run; checked access where absent")
public final class RawMemory {

    /** The JDK's Unsafe, or null where it cannot be had (then {@link #AVAILABLE} is false). */
    public static final sun.misc.Unsafe UNSAFE;

    public static final boolean AVAILABLE;
    private static final long ADDRESS_FIELD;
    private static final long ARRAY_FIELD;
    private static final long ARRAY_OFFSET_FIELD;
    /** Offset of a byte[]'s first element from the array's base. */
    public static final long BYTE_ARRAY_BASE;

    static {
        sun.misc.Unsafe unsafe = null;
        long address = -1;
        long array = -1;
        long arrayOffset = -1;
        long arrayBase = -1;
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            unsafe = (sun.misc.Unsafe) f.get(null);
            address = unsafe.objectFieldOffset(Buffer.class.getDeclaredField("address"));
            array = unsafe.objectFieldOffset(ByteBuffer.class.getDeclaredField("hb"));
            arrayOffset = unsafe.objectFieldOffset(ByteBuffer.class.getDeclaredField("offset"));
            arrayBase = unsafe.arrayBaseOffset(byte[].class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            unsafe = null;
        }
        UNSAFE = unsafe;
        ADDRESS_FIELD = address;
        ARRAY_FIELD = array;
        ARRAY_OFFSET_FIELD = arrayOffset;
        BYTE_ARRAY_BASE = arrayBase;
        AVAILABLE = unsafe != null;
    }

    private RawMemory() {}

    /** The array behind a heap buffer; null for a direct buffer (or without Unsafe). */
    public static byte[] array(ByteBuffer buffer) {
        return AVAILABLE && !buffer.isDirect() ? (byte[]) UNSAFE.getObject(buffer, ARRAY_FIELD) : null;
    }

    /** Raw address of index 0: absolute for a direct buffer, relative to {@link #array} for a heap one. */
    public static long address(ByteBuffer buffer) {
        if (!AVAILABLE) {
            return 0;
        }
        return buffer.isDirect()
                ? UNSAFE.getLong(buffer, ADDRESS_FIELD)
                : BYTE_ARRAY_BASE + UNSAFE.getInt(buffer, ARRAY_OFFSET_FIELD);
    }
}
