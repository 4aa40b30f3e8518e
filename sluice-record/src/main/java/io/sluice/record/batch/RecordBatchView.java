package io.sluice.record.batch;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BASE_OFFSET_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BASE_SEQUENCE_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BASE_TIMESTAMP_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BATCH_LENGTH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_CODEC_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.CONTROL_FLAG_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_COVERED_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.DELETE_HORIZON_FLAG_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.LAST_OFFSET_DELTA_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.MAGIC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.MAX_TIMESTAMP_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.NO_SEQUENCE;
import static io.sluice.record.batch.RecordBatchDescriptor.PARTITION_LEADER_EPOCH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.PRODUCER_EPOCH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.PRODUCER_ID_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_COUNT_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.TIMESTAMP_TYPE_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.TRANSACTIONAL_FLAG_MASK;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Flyweight over one v2 record batch inside a buffer: absolute gets and puts only, so the
 * buffer's position and limit never move. Layout in {@link RecordBatchDescriptor}.
 *
 * <p>Not thread-safe; one per thread (re-{@link #wrap wrap} it for each batch). The caller
 * checks that {@link RecordBatchDescriptor#RECORD_BATCH_OVERHEAD} bytes (and, for
 * {@link #computeCrc()}, {@link #sizeInBytes()} bytes) are inside the buffer's limit.
 */
public final class RecordBatchView {

    /** Attribute bits Kafka keeps when it rewrites attributes; higher bits are reserved. */
    private static final int KNOWN_ATTRIBUTE_BITS = COMPRESSION_CODEC_MASK
            | TIMESTAMP_TYPE_MASK
            | TRANSACTIONAL_FLAG_MASK
            | CONTROL_FLAG_MASK
            | DELETE_HORIZON_FLAG_MASK;

    private final CRC32C crc = new CRC32C();
    private ByteBuffer buffer;
    private int offset;
    /** Cached duplicate of a direct {@link #buffer}, so CRC over it neither copies nor moves it. */
    private ByteBuffer crcWindow;

    private ByteBuffer crcWindowSource;

    /**
     * Points this view at the batch starting at {@code offset} (absolute) in {@code buffer}.
     * The buffer must be big-endian (the Kafka wire order, and every ByteBuffer's default).
     */
    public RecordBatchView wrap(ByteBuffer buffer, int offset) {
        if (buffer.order() != ByteOrder.BIG_ENDIAN) {
            throw new IllegalArgumentException("record batches are big-endian, buffer order is " + buffer.order());
        }
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    public long baseOffset() {
        return buffer.getLong(offset + BASE_OFFSET_OFFSET);
    }

    /** Outside the CRC: the log assigns it in place, no CRC recomputation. */
    public void baseOffset(long baseOffset) {
        buffer.putLong(offset + BASE_OFFSET_OFFSET, baseOffset);
    }

    /** Bytes after the length field: {@link #sizeInBytes()} - {@link RecordBatchDescriptor#LOG_OVERHEAD}. */
    public int batchLength() {
        return buffer.getInt(offset + BATCH_LENGTH_OFFSET);
    }

    public int sizeInBytes() {
        return LOG_OVERHEAD + batchLength();
    }

    public int partitionLeaderEpoch() {
        return buffer.getInt(offset + PARTITION_LEADER_EPOCH_OFFSET);
    }

    /** Outside the CRC: the log assigns it in place, no CRC recomputation. */
    public void partitionLeaderEpoch(int epoch) {
        buffer.putInt(offset + PARTITION_LEADER_EPOCH_OFFSET, epoch);
    }

    public byte magic() {
        return buffer.get(offset + MAGIC_OFFSET);
    }

    public int storedCrc() {
        return buffer.getInt(offset + CRC_OFFSET);
    }

    /** CRC-32C from {@link RecordBatchDescriptor#CRC_COVERED_OFFSET} to the end of the batch, no copy. */
    public int computeCrc() {
        int from = offset + CRC_COVERED_OFFSET;
        int length = sizeInBytes() - CRC_COVERED_OFFSET;
        crc.reset();
        if (buffer.hasArray()) {
            crc.update(buffer.array(), buffer.arrayOffset() + from, length);
        } else {
            ByteBuffer window = crcWindowOver(buffer);
            window.limit(from + length).position(from);
            crc.update(window);
        }
        return (int) crc.getValue();
    }

    public boolean isCrcValid() {
        return storedCrc() == computeCrc();
    }

    public short attributes() {
        return buffer.getShort(offset + ATTRIBUTES_OFFSET);
    }

    /** 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd; 5-7 are invalid. */
    public int compressionId() {
        return attributes() & COMPRESSION_CODEC_MASK;
    }

    public boolean isTransactional() {
        return (attributes() & TRANSACTIONAL_FLAG_MASK) != 0;
    }

    public boolean isControl() {
        return (attributes() & CONTROL_FLAG_MASK) != 0;
    }

    /** True when the cleaner stored a delete horizon in the base timestamp (KIP-534). */
    public boolean hasDeleteHorizon() {
        return (attributes() & DELETE_HORIZON_FLAG_MASK) != 0;
    }

    public boolean isLogAppendTime() {
        return (attributes() & TIMESTAMP_TYPE_MASK) != 0;
    }

    public int lastOffsetDelta() {
        return buffer.getInt(offset + LAST_OFFSET_DELTA_OFFSET);
    }

    public long lastOffset() {
        return baseOffset() + lastOffsetDelta();
    }

    public long baseTimestamp() {
        return buffer.getLong(offset + BASE_TIMESTAMP_OFFSET);
    }

    public long maxTimestamp() {
        return buffer.getLong(offset + MAX_TIMESTAMP_OFFSET);
    }

    public long producerId() {
        return buffer.getLong(offset + PRODUCER_ID_OFFSET);
    }

    public short producerEpoch() {
        return buffer.getShort(offset + PRODUCER_EPOCH_OFFSET);
    }

    public int baseSequence() {
        return buffer.getInt(offset + BASE_SEQUENCE_OFFSET);
    }

    /** Sequence of the last record; sequences wrap from Integer.MAX_VALUE to 0 as in Kafka. */
    public int lastSequence() {
        int base = baseSequence();
        if (base == NO_SEQUENCE) {
            return NO_SEQUENCE;
        }
        int delta = lastOffsetDelta();
        if (base > Integer.MAX_VALUE - delta) {
            return delta - (Integer.MAX_VALUE - base) - 1;
        }
        return base + delta;
    }

    public int recordCount() {
        return buffer.getInt(offset + RECORDS_COUNT_OFFSET);
    }

    /** Marks the batch LogAppendTime with this max timestamp and recomputes the CRC. */
    public void stampLogAppendTime(long timestampMs) {
        setMaxTimestamp(true, timestampMs);
    }

    /**
     * Sets the timestamp type bit and the max timestamp the way Kafka's broker does: nothing is
     * written when both already hold; otherwise reserved attribute bits are cleared and the CRC
     * recomputed.
     */
    public void setMaxTimestamp(boolean logAppendTime, long maxTimestampMs) {
        if (isLogAppendTime() == logAppendTime && maxTimestamp() == maxTimestampMs) {
            return;
        }
        int attributes = attributes() & KNOWN_ATTRIBUTE_BITS & ~TIMESTAMP_TYPE_MASK;
        if (logAppendTime) {
            attributes |= TIMESTAMP_TYPE_MASK;
        }
        buffer.putShort(offset + ATTRIBUTES_OFFSET, (short) attributes);
        buffer.putLong(offset + MAX_TIMESTAMP_OFFSET, maxTimestampMs);
        buffer.putInt(offset + CRC_OFFSET, computeCrc());
    }

    @SuppressWarnings("ReferenceEquality") // the window is cached per buffer object, not per contents
    private ByteBuffer crcWindowOver(ByteBuffer source) {
        if (crcWindowSource != source) {
            crcWindow = source.duplicate();
            crcWindowSource = source;
        }
        crcWindow.clear();
        return crcWindow;
    }
}
