package io.sluice.log.batch;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static io.sluice.log.batch.StoredBatchDescriptor.*;

/**
 * Flyweight over one v2 record batch header in a buffer (absolute gets, the buffer's position is never moved).
 * Not thread-safe; one per appending or scanning thread.
 */
public final class StoredBatch {
    private ByteBuffer buffer;
    private int offset;

    public StoredBatch wrap(ByteBuffer buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public long baseOffset() { return buffer.getLong(offset + BASE_OFFSET_OFFSET); }
    public void baseOffset(long value) { buffer.putLong(offset + BASE_OFFSET_OFFSET, value); }
    public int batchLength() { return buffer.getInt(offset + LENGTH_OFFSET); }
    /** Whole batch size including the offset and length prefix; may be garbage until {@link #validateFraming}. */
    public int sizeInBytes() { return LOG_OVERHEAD + batchLength(); }
    public int partitionLeaderEpoch() { return buffer.getInt(offset + PARTITION_LEADER_EPOCH_OFFSET); }
    public void partitionLeaderEpoch(int value) { buffer.putInt(offset + PARTITION_LEADER_EPOCH_OFFSET, value); }
    public byte magic() { return buffer.get(offset + MAGIC_OFFSET); }
    public int storedCrc() { return buffer.getInt(offset + CRC_OFFSET); }
    public short attributes() { return buffer.getShort(offset + ATTRIBUTES_OFFSET); }
    public int lastOffsetDelta() { return buffer.getInt(offset + LAST_OFFSET_DELTA_OFFSET); }
    public long lastOffset() { return baseOffset() + lastOffsetDelta(); }
    public long maxTimestamp() { return buffer.getLong(offset + MAX_TIMESTAMP_OFFSET); }
    public long producerId() { return buffer.getLong(offset + PRODUCER_ID_OFFSET); }
    public short producerEpoch() { return buffer.getShort(offset + PRODUCER_EPOCH_OFFSET); }
    public int baseSequence() { return buffer.getInt(offset + BASE_SEQUENCE_OFFSET); }
    public int recordCount() { return buffer.getInt(offset + RECORD_COUNT_OFFSET); }
    public boolean isTransactional() { return (attributes() & TRANSACTIONAL_FLAG_MASK) != 0; }
    public boolean isControl() { return (attributes() & CONTROL_FLAG_MASK) != 0; }
    public boolean hasProducerId() { return producerId() != NO_PRODUCER_ID; }

    /** Kafka's lastSequence: wraps past Integer.MAX_VALUE back to 0. */
    public int lastSequence() {
        int base = baseSequence();
        if (base == NO_SEQUENCE) {
            return NO_SEQUENCE;
        }
        long last = (long) base + lastOffsetDelta();
        return last > Integer.MAX_VALUE ? (int) (last - Integer.MAX_VALUE - 1) : (int) last;
    }

    /**
     * Checks the header fields storage relies on, given how many bytes are available from the batch start.
     *
     * @return null when the header is sane, else a description naming the field and the value seen
     */
    public String validateFraming(int available) {
        if (available < RECORD_BATCH_OVERHEAD) {
            return "only " + available + " bytes left, a batch header needs " + RECORD_BATCH_OVERHEAD;
        }
        int length = batchLength();
        if (length < RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) {
            return "batchLength " + length + " is below the minimum " + (RECORD_BATCH_OVERHEAD - LOG_OVERHEAD);
        }
        if (length > available - LOG_OVERHEAD) {
            return "batchLength " + length + " exceeds the " + (available - LOG_OVERHEAD) + " bytes available";
        }
        if (magic() != MAGIC_V2) {
            return "magic " + magic() + " is not " + MAGIC_V2;
        }
        if (lastOffsetDelta() < 0) {
            return "lastOffsetDelta " + lastOffsetDelta() + " is negative";
        }
        return null;
    }

    /** CRC-32C over attributes..end, compared with the stored CRC; the batch must be whole in the buffer. */
    public boolean isCrcValid(CRC32C crc) {
        crc.reset();
        int from = offset + ATTRIBUTES_OFFSET;
        int to = offset + sizeInBytes();
        ByteBuffer slice = buffer.duplicate();
        slice.limit(to).position(from);
        crc.update(slice);
        return (int) crc.getValue() == storedCrc();
    }
}
