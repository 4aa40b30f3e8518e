package io.sluice.codec.compress;

import io.sluice.codec.error.LimitExceededException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A reusable heap byte buffer that grows by doubling up to a cap, keeps its capacity across
 * {@link #clear()} and can be trimmed back. Not thread-safe; one per writer, reader or codec.
 */
public final class GrowableBytes implements ByteSink {
    private final String what;
    private final int initialCapacity;
    private final int maxSize;
    private byte[] array;
    private int size;

    /**
     * @param what            names this buffer in errors
     * @param initialCapacity capacity allocated lazily on first write and restored by {@link #trim}
     * @param maxSize         more bytes than this raise {@link LimitExceededException}
     */
    public GrowableBytes(String what, int initialCapacity, int maxSize) {
        this.what = what;
        this.initialCapacity = initialCapacity;
        this.maxSize = maxSize;
        this.array = new byte[0];
    }

    public byte[] array() {
        return array;
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return array.length;
    }

    public void clear() {
        size = 0;
    }

    /** Drops the backing array back to the initial capacity if it grew above {@code retainBytes}. */
    public void trim(int retainBytes) {
        if (array.length > retainBytes) {
            array = new byte[Math.min(initialCapacity, retainBytes)];
            size = 0;
        }
    }

    /** Ensures room for {@code extra} more bytes; returns the (possibly new) array. */
    public byte[] ensureRoom(int extra) {
        long needed = (long) size + extra;
        if (needed > array.length) {
            if (needed > maxSize) {
                throw new LimitExceededException(what + " size", needed, maxSize);
            }
            long grown = Math.max(needed, Math.max(initialCapacity, (long) array.length * 2));
            array = Arrays.copyOf(array, (int) Math.min(grown, maxSize));
        }
        return array;
    }

    /** Marks {@code n} bytes written directly into {@link #array()} after {@link #ensureRoom}. */
    public void advance(int n) {
        size += n;
    }

    @Override
    public void write(byte[] src, int off, int len) {
        ensureRoom(len);
        System.arraycopy(src, off, array, size, len);
        size += len;
    }

    @Override
    public void write(ByteBuffer src) {
        int len = src.remaining();
        ensureRoom(len);
        src.get(array, size, len);
        size += len;
    }

    /** A copy of the content, trimmed to size. */
    public byte[] toByteArray() {
        return Arrays.copyOf(array, size);
    }
}
