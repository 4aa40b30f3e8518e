package io.sluice.record.batch;

import static io.sluice.record.batch.BatchFormatException.malformed;
import static io.sluice.record.batch.RecordBatchDescriptor.MAX_VARINT_LENGTH;
import static io.sluice.record.batch.RecordBatchDescriptor.MAX_VARLONG_LENGTH;

import java.nio.ByteBuffer;

/**
 * A readable window over a byte stream: either a region of a buffer (uncompressed records,
 * read in place) or one reused buffer that a {@link Refill} tops up with decompressed bytes.
 * Reads use absolute gets; the underlying buffer's position and limit never move.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class ByteWindow {

    /** Supplies the next decompressed bytes of a stream. */
    public interface Refill {
        /**
         * Writes more bytes into {@link ByteWindow#buffer()} from index {@link ByteWindow#limit()}
         * and reports them with {@link ByteWindow#produced(int)}; may {@link ByteWindow#reserve(int)}
         * room first. Returns false, producing nothing, once the stream has ended.
         */
        boolean refill(ByteWindow window) throws BatchFormatException;
    }

    private ByteBuffer buffer;
    private int position;
    private int limit;
    private long discarded;
    private long producedTotal;
    private long ceiling;
    private Refill refill;

    /** Reads {@code buffer[from, to)} in place; the stream ends at {@code to}. */
    public ByteWindow over(ByteBuffer source, int from, int to) {
        this.buffer = source;
        this.position = from;
        this.limit = to;
        this.discarded = -from;
        this.producedTotal = 0;
        this.ceiling = Long.MAX_VALUE;
        this.refill = null;
        return this;
    }

    /**
     * Streams from {@code refill} through {@code reusable} (whose contents are discarded); at most
     * {@code ceiling} bytes may be produced in total.
     */
    public ByteWindow streaming(ByteBuffer reusable, Refill source, long maxProducedBytes) {
        this.buffer = reusable;
        this.position = 0;
        this.limit = 0;
        this.discarded = 0;
        this.producedTotal = 0;
        this.ceiling = maxProducedBytes;
        this.refill = source;
        return this;
    }

    /** The buffer the window currently reads from (may be replaced by {@link #reserve(int)}). */
    public ByteBuffer buffer() {
        return buffer;
    }

    public int limit() {
        return limit;
    }

    /** Index in {@link #buffer()} of the next unread byte. */
    public int position() {
        return position;
    }

    /** Bytes readable without a refill. */
    public int available() {
        return limit - position;
    }

    /** Consumes bytes a caller parsed directly from {@link #buffer()}, up to {@code newPosition <= limit()}. */
    public void position(int newPosition) {
        position = newPosition;
    }

    /** Bytes consumed since the start of the stream. */
    public long streamPosition() {
        return discarded + position;
    }

    /** Bytes produced by the refill so far (the decompressed size for compressed streams). */
    public long producedTotal() {
        return producedTotal;
    }

    /** Called by a {@link Refill} after writing {@code count} bytes at {@link #limit()}. */
    public void produced(int count) throws BatchFormatException {
        producedTotal += count;
        if (producedTotal > ceiling) {
            throw new BatchFormatException(
                    BatchFormatException.Reason.DECOMPRESSED_TOO_LARGE,
                    "decompressed size exceeds the ceiling of " + ceiling + " bytes");
        }
        limit += count;
    }

    /**
     * Makes room for at least {@code bytes} after {@link #limit()}, growing the buffer (same kind,
     * heap or direct, and same byte order) when needed; a single block larger than the ceiling is refused.
     */
    public void reserve(int bytes) throws BatchFormatException {
        if (bytes < 0 || bytes > ceiling) {
            throw new BatchFormatException(
                    BatchFormatException.Reason.DECOMPRESSED_TOO_LARGE,
                    "a block of " + bytes + " decompressed bytes exceeds the ceiling of " + ceiling + " bytes");
        }
        reserveRoom(bytes);
    }

    /**
     * Makes room for a block that decodes to at most {@code bytes}, a bound the codec's format
     * sets and that is at most {@link #MAX_FORMAT_BLOCK_BYTES} (lz4's largest block), even above
     * the ceiling: how many bytes the block really produces is checked against the ceiling when
     * they are {@link #produced}, so a small ceiling does not refuse a block that fits it.
     */
    public void reserveFormatBlock(int bytes) {
        if (bytes < 0 || bytes > MAX_FORMAT_BLOCK_BYTES) {
            throw new IllegalArgumentException(
                    "a format's block bound must be 0.." + MAX_FORMAT_BLOCK_BYTES + ", was " + bytes);
        }
        reserveRoom(bytes);
    }

    /** The largest block bound {@link #reserveFormatBlock} takes: lz4's 4 MiB block maximum. */
    public static final int MAX_FORMAT_BLOCK_BYTES = 4 * 1024 * 1024;

    private void reserveRoom(int bytes) {
        if (buffer.capacity() - limit >= bytes) {
            return;
        }
        int needed = limit + bytes;
        grow((int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * buffer.capacity())));
    }

    /**
     * Makes room for {@code bytes} after {@link #limit()} when producing them stays within the
     * ceiling and the buffer need not grow beyond {@code maxCapacity}; returns false, changing
     * nothing, otherwise. For a refill that can write a whole stream at once when it fits.
     */
    public boolean tryReserve(long bytes, int maxCapacity) {
        long needed = limit + bytes;
        if (bytes < 0 || bytes > ceiling - producedTotal || needed > maxCapacity) {
            return false;
        }
        if (buffer.capacity() < needed) {
            grow((int) Math.min(maxCapacity, Math.max(needed, 2L * buffer.capacity())));
        }
        return true;
    }

    private void grow(int capacity) {
        ByteBuffer bigger = buffer.isDirect() ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        bigger.order(buffer.order()).put(0, buffer, 0, limit);
        buffer = bigger;
    }

    /**
     * Reads the whole stream into the buffer without consuming it, growing the buffer as needed
     * (bounded by the ceiling: only the bytes produced count against it, so a chunk larger than a
     * small ceiling is still room, not a refusal); afterwards bytes {@code [0, limit())} are the full
     * stream. Only for streaming windows that have not been read from.
     */
    public void drainAll(int chunkBytes) throws BatchFormatException {
        if (refill == null || position != 0 || discarded != 0) {
            throw new IllegalStateException("drainAll needs a fresh streaming window");
        }
        do {
            reserveRoom(chunkBytes);
        } while (refill.refill(this));
    }

    /** True when a {@link Refill} tops the window up (compressed records), false when it reads a buffer in place. */
    public boolean isStreaming() {
        return refill != null;
    }

    /**
     * Tries to make {@code bytes} (a few, or one record of at most half the capacity) readable
     * without consuming any, refilling a streaming window; returns whether it could.
     */
    public boolean request(int bytes) throws BatchFormatException {
        return limit - position >= bytes || fill(bytes);
    }

    public boolean hasRemaining() throws BatchFormatException {
        return position < limit || fill(1);
    }

    public byte readByte() throws BatchFormatException {
        if (position >= limit && !fill(1)) {
            throw truncated("a 1-byte field");
        }
        return buffer.get(position++);
    }

    /** Zigzag varint as Kafka writes it: at most 5 bytes. */
    public int readVarint() throws BatchFormatException {
        if (limit - position < MAX_VARINT_LENGTH) {
            fill(MAX_VARINT_LENGTH);
        }
        int value = 0;
        int shift = 0;
        while (true) {
            if (position >= limit) {
                throw truncated("a varint");
            }
            byte b = buffer.get(position++);
            if ((b & 0x80) == 0) {
                value |= b << shift;
                return (value >>> 1) ^ -(value & 1);
            }
            value |= (b & 0x7f) << shift;
            shift += 7;
            if (shift > 28) {
                throw malformed("varint longer than " + MAX_VARINT_LENGTH + " bytes at stream position "
                        + (streamPosition() - MAX_VARINT_LENGTH));
            }
        }
    }

    /** Zigzag varlong as Kafka writes it: at most 10 bytes. */
    public long readVarlong() throws BatchFormatException {
        if (limit - position < MAX_VARLONG_LENGTH) {
            fill(MAX_VARLONG_LENGTH);
        }
        long value = 0;
        int shift = 0;
        while (true) {
            if (position >= limit) {
                throw truncated("a varlong");
            }
            byte b = buffer.get(position++);
            if ((b & 0x80) == 0) {
                value |= (long) b << shift;
                return (value >>> 1) ^ -(value & 1);
            }
            value |= (long) (b & 0x7f) << shift;
            shift += 7;
            if (shift > 63) {
                throw malformed("varlong longer than " + MAX_VARLONG_LENGTH + " bytes at stream position "
                        + (streamPosition() - MAX_VARLONG_LENGTH));
            }
        }
    }

    /** Skips {@code count} bytes; compressed streams still decompress them, into the same window. */
    public void skip(long count) throws BatchFormatException {
        long left = count;
        while (left > limit - position) {
            left -= limit - position;
            position = limit;
            if (!fill(1)) {
                throw truncated(count + " bytes of key/value/header data");
            }
        }
        position += (int) left;
    }

    /** Tries to make {@code wanted} bytes readable; returns whether it could. */
    private boolean fill(int wanted) throws BatchFormatException {
        if (refill == null) {
            return limit - position >= wanted;
        }
        while (limit - position < wanted) {
            compact();
            if (!refill.refill(this)) {
                return limit - position >= wanted;
            }
        }
        return true;
    }

    /** Moves the unread bytes (a few, or a record {@link RecordCursor} wants whole) to the front of the buffer. */
    private void compact() {
        int unread = limit - position;
        if (position == 0) {
            return;
        }
        if (unread <= position) {
            buffer.put(0, buffer, position, unread); // the two ranges do not overlap
        } else {
            for (int i = 0; i < unread; i++) {
                buffer.put(i, buffer.get(position + i));
            }
        }
        discarded += position;
        position = 0;
        limit = unread;
    }

    private BatchFormatException truncated(String what) {
        return malformed("records end early: " + what + " needed at stream position " + streamPosition()
                + " but the stream ends at " + (discarded + limit));
    }
}
