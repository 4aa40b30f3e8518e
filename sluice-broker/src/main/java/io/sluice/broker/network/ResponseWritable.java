package io.sluice.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.record.BaseRecords;
import org.apache.kafka.common.record.MemoryRecords;

/**
 * Serializes one response into an ordered list of parts: pooled buffers for the protocol fields,
 * and a {@link SegmentFileRegion} wherever a records field is a {@link FileSliceRecords}. On a TLS connection an
 * answer with file ranges is instead one {@link SegmentChunkedInput} of its fields and ranges, cut into whole chunks
 * for the SSLEngine. The parts are written to the channel in order, so the record bytes of a fetch never enter the
 * heap.
 *
 * <p>Not thread-safe; one per response being written.
 */
public final class ResponseWritable implements Writable {
    private final ByteBufAllocator allocator;
    private final int fieldBufferCapacity;
    private final List<Object> parts = new ArrayList<>();
    private final boolean zeroCopy;
    private ByteBuf current;

    public ResponseWritable(ByteBufAllocator allocator, int fieldBytesHint) {
        this(allocator, fieldBytesHint, true);
    }

    /**
     * @param zeroCopy false on a TLS connection, where the bytes must pass through the SSLEngine: an answer with
     *                 records fields then becomes a {@link SegmentChunkedInput} (fields and file bytes into one pooled
     *                 direct buffer per chunk, no other copy)
     */
    public ResponseWritable(ByteBufAllocator allocator, int fieldBytesHint, boolean zeroCopy) {
        this.allocator = allocator;
        this.zeroCopy = zeroCopy;
        this.fieldBufferCapacity = Math.max(64, fieldBytesHint);
        this.current = allocator.directBuffer(fieldBufferCapacity);
    }

    /** Hands the parts over to the caller, who writes and thereby releases them. */
    public List<Object> finish() {
        if (zeroCopy || parts.isEmpty()) {
            if (current.isReadable()) {
                parts.add(current);
            } else {
                current.release();
            }
            current = null;
            return parts;
        }
        addFieldsWritten();
        current.release();
        current = null;
        List<Object> pieces = List.copyOf(parts);
        parts.clear();
        return List.of(new SegmentChunkedInput(pieces));
    }

    /** Under TLS: the fields written since the last records field, as a slice of the one fields buffer. */
    private void addFieldsWritten() {
        if (current.isReadable()) {
            parts.add(current.readRetainedSlice(current.readableBytes()));
        }
    }

    /** Releases everything written so far, when the response is abandoned. */
    public void discard() {
        for (Object part : parts) {
            io.netty.util.ReferenceCountUtil.release(part);
        }
        parts.clear();
        if (current != null) {
            current.release();
            current = null;
        }
    }

    @Override
    public void writeByte(byte val) {
        current.writeByte(val);
    }

    @Override
    public void writeShort(short val) {
        current.writeShort(val);
    }

    @Override
    public void writeInt(int val) {
        current.writeInt(val);
    }

    @Override
    public void writeLong(long val) {
        current.writeLong(val);
    }

    @Override
    public void writeDouble(double val) {
        current.writeDouble(val);
    }

    @Override
    public void writeByteArray(byte[] arr) {
        current.writeBytes(arr);
    }

    @Override
    public void writeByteBuffer(ByteBuffer buf) {
        current.writeBytes(buf.duplicate());
    }

    @Override
    public void writeUnsignedVarint(int i) {
        while ((i & 0xFFFFFF80) != 0) {
            current.writeByte((i & 0x7F) | 0x80);
            i >>>= 7;
        }
        current.writeByte(i);
    }

    @Override
    public void writeVarint(int i) {
        writeUnsignedVarint((i << 1) ^ (i >> 31));
    }

    @Override
    public void writeVarlong(long v) {
        long value = (v << 1) ^ (v >> 63);
        while ((value & 0xFFFFFFFFFFFFFF80L) != 0L) {
            current.writeByte(((int) value & 0x7F) | 0x80);
            value >>>= 7;
        }
        current.writeByte((int) value);
    }

    @Override
    public void writeRecords(BaseRecords records) {
        if (records instanceof FileSliceRecords slice) {
            if (slice.sizeInBytes() == 0) {
                return;
            }
            if (zeroCopy) {
                parts.add(current);
                parts.add(new SegmentFileRegion(slice.channel(), slice.position(), slice.sizeInBytes()));
                current = allocator.directBuffer(fieldBufferCapacity);
            } else {
                addFieldsWritten();
                parts.add(slice);
            }
        } else if (records instanceof MemoryRecords memory) {
            current.writeBytes(memory.buffer().duplicate());
        } else {
            throw new IllegalArgumentException(
                    "unsupported records type " + records.getClass().getName());
        }
    }
}
