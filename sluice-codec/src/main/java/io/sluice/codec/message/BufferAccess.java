package io.sluice.codec.message;

import io.sluice.codec.SuppressForbidden;
import io.sluice.codec.memory.RawMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Raw big-endian access to a {@link ByteBuffer}'s memory, heap or direct, read-only or not, addressed as
 * {@code (array, address + index)} the way Agrona's UnsafeBuffer does: one bounds check by the caller per field instead
 * of one per byte, and no per-access scope checks. Falls back to absolute ByteBuffer access where
 * {@code sun.misc.Unsafe} is unavailable. Callers must check {@code index + length <= limit} before every access.
 * Stateless; safe to share.
 */
@SuppressForbidden(reason = "Unsafe access after the caller's one bounds check; checked access where absent")
final class BufferAccess {
    private static final sun.misc.Unsafe UNSAFE = RawMemory.UNSAFE;
    private static final long BYTE_ARRAY_BASE = RawMemory.BYTE_ARRAY_BASE;
    static final boolean RAW = RawMemory.AVAILABLE;
    private static final boolean SWAP = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private BufferAccess() {}

    /** The array behind a heap buffer; null for a direct buffer (or without Unsafe). */
    static byte[] array(ByteBuffer buf) {
        return RawMemory.array(buf);
    }

    /** Raw address of index 0 of {@code buf}: absolute for a direct buffer, relative to {@link #array} for heap. */
    static long address(ByteBuffer buf) {
        return RawMemory.address(buf);
    }

    // Writes branch on array == null instead of passing a maybe-null base to Unsafe: an Unsafe access whose base may
    // or may not be null is compiled by C2 with memory barriers that force every field of the caller to be reloaded
    // after it, while an access known to be off-heap (absolute address) or known to hit a byte[] leaves the caller's
    // fields in registers. The direct-buffer store is inline; heap buffers and the no-Unsafe fallback go through a
    // second method, so a writer that only sees direct buffers inlines a few bytecodes per store.

    static void putByte(ByteBuffer buf, byte[] array, long address, int i, byte v) {
        if (array == null && RAW) {
            UNSAFE.putByte(address + i, v);
        } else {
            putByteHeap(buf, array, address, i, v);
        }
    }

    private static void putByteHeap(ByteBuffer buf, byte[] array, long address, int i, byte v) {
        if (RAW) {
            UNSAFE.putByte(array, address + i, v);
        } else {
            buf.put(i, v);
        }
    }

    static void putShort(ByteBuffer buf, byte[] array, long address, int i, short v) {
        if (array == null && RAW) {
            UNSAFE.putShort(address + i, SWAP ? Short.reverseBytes(v) : v);
        } else {
            putShortHeap(buf, array, address, i, v);
        }
    }

    private static void putShortHeap(ByteBuffer buf, byte[] array, long address, int i, short v) {
        if (RAW) {
            UNSAFE.putShort(array, address + i, SWAP ? Short.reverseBytes(v) : v);
        } else {
            buf.putShort(i, v);
        }
    }

    static void putInt(ByteBuffer buf, byte[] array, long address, int i, int v) {
        if (array == null && RAW) {
            UNSAFE.putInt(address + i, SWAP ? Integer.reverseBytes(v) : v);
        } else {
            putIntHeap(buf, array, address, i, v);
        }
    }

    private static void putIntHeap(ByteBuffer buf, byte[] array, long address, int i, int v) {
        if (RAW) {
            UNSAFE.putInt(array, address + i, SWAP ? Integer.reverseBytes(v) : v);
        } else {
            buf.putInt(i, v);
        }
    }

    /** Big-endian 8 bytes. */
    static void putLong(ByteBuffer buf, byte[] array, long address, int i, long v) {
        if (array == null && RAW) {
            UNSAFE.putLong(address + i, SWAP ? Long.reverseBytes(v) : v);
        } else {
            putLongHeap(buf, array, address, i, v);
        }
    }

    /** Little-endian 8 bytes (the lowest byte of {@code v} at index {@code i}), for varints packed into a long. */
    static void putLongLittleEndian(ByteBuffer buf, byte[] array, long address, int i, long v) {
        if (array == null && RAW) {
            UNSAFE.putLong(address + i, SWAP ? v : Long.reverseBytes(v));
        } else {
            putLongHeap(buf, array, address, i, Long.reverseBytes(v));
        }
    }

    private static void putLongHeap(ByteBuffer buf, byte[] array, long address, int i, long v) {
        if (RAW) {
            UNSAFE.putLong(array, address + i, SWAP ? Long.reverseBytes(v) : v);
        } else {
            buf.putLong(i, v);
        }
    }

    static byte getByte(ByteBuffer buf, byte[] array, long address, int i) {
        if (!RAW) {
            return buf.get(i);
        }
        return array == null ? UNSAFE.getByte(address + i) : UNSAFE.getByte(array, address + i);
    }

    static short getShort(ByteBuffer buf, byte[] array, long address, int i) {
        if (!RAW) {
            return buf.getShort(i);
        }
        short v = array == null ? UNSAFE.getShort(address + i) : UNSAFE.getShort(array, address + i);
        return SWAP ? Short.reverseBytes(v) : v;
    }

    static int getInt(ByteBuffer buf, byte[] array, long address, int i) {
        if (!RAW) {
            return buf.getInt(i);
        }
        int v = array == null ? UNSAFE.getInt(address + i) : UNSAFE.getInt(array, address + i);
        return SWAP ? Integer.reverseBytes(v) : v;
    }

    static long getLong(ByteBuffer buf, byte[] array, long address, int i) {
        if (!RAW) {
            return buf.getLong(i);
        }
        long v = array == null ? UNSAFE.getLong(address + i) : UNSAFE.getLong(array, address + i);
        return SWAP ? Long.reverseBytes(v) : v;
    }

    /** Below this, a byte loop beats the fixed cost of a bulk copy. */
    private static final int LOOP_COPY_MAX = 16;

    static void putBytes(ByteBuffer buf, byte[] array, long address, int i, byte[] src, int srcOff, int len) {
        if (!RAW) {
            buf.put(i, src, srcOff, len);
        } else if (len <= LOOP_COPY_MAX) {
            for (int k = 0; k < len; k++) {
                putByte(buf, array, address, i + k, src[srcOff + k]);
            }
        } else {
            UNSAFE.copyMemory(src, BYTE_ARRAY_BASE + srcOff, array, address + i, len);
        }
    }

    static void getBytes(ByteBuffer buf, byte[] array, long address, int i, byte[] dst, int dstOff, int len) {
        if (!RAW) {
            buf.get(i, dst, dstOff, len);
        } else if (len <= LOOP_COPY_MAX) {
            for (int k = 0; k < len; k++) {
                dst[dstOff + k] = getByte(buf, array, address, i + k);
            }
        } else {
            UNSAFE.copyMemory(array, address + i, dst, BYTE_ARRAY_BASE + dstOff, len);
        }
    }
}
