package io.sluice.record.batch;

import io.sluice.codec.SuppressForbidden;
import io.sluice.codec.memory.RawMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Unchecked little-endian 8-byte loads from a {@link ByteBuffer}'s memory, heap or direct (see
 * {@link RawMemory}), for the one loop that proves a whole run of loads inside the buffer with a
 * single bounds check ({@link LayoutRun}). {@link #AVAILABLE} is false without Unsafe or on a
 * big-endian platform; runs then read nothing and records take the checked paths.
 *
 * <p>Stateless; thread-safe.
 */
@SuppressForbidden(reason = "Unsafe loads for a run proven in bounds by one check; checked paths where absent")
final class RawWords {

    static final boolean AVAILABLE = RawMemory.AVAILABLE && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final sun.misc.Unsafe UNSAFE = RawMemory.UNSAFE;

    private RawWords() {}

    /** Little-endian bytes {@code [index, index + 8)}, which the caller has proven inside the buffer. */
    static long direct(long address, int index) {
        return UNSAFE.getLong(address + index);
    }

    static long heap(byte[] array, long address, int index) {
        return UNSAFE.getLong(array, address + index);
    }
}
