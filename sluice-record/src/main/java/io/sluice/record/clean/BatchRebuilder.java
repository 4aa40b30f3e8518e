package io.sluice.record.clean;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BASE_TIMESTAMP_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BATCH_LENGTH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_CODEC_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_NONE;
import static io.sluice.record.batch.RecordBatchDescriptor.CONTROL_FLAG_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.DELETE_HORIZON_FLAG_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.MAX_TIMESTAMP_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.MAX_VARINT_LENGTH;
import static io.sluice.record.batch.RecordBatchDescriptor.MAX_VARLONG_LENGTH;
import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_COUNT_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.TIMESTAMP_TYPE_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.TRANSACTIONAL_FLAG_MASK;

import io.sluice.record.batch.RecordBatchView;
import java.nio.ByteBuffer;

/**
 * Rebuilds a batch from the records a cleaner keeps, as Kafka's cleaner does: the header is the original's (base
 * offset, last offset delta, partition leader epoch, producer id, epoch and base sequence unchanged, so sequence checks
 * of idempotent producers still hold), the kept records keep their offset deltas, key, value and header bytes
 * verbatim, the payload is compressed again with the batch's own codec, and the record count, max timestamp, length
 * and CRC are computed anew. A delete horizon (KIP-534) is written as Kafka writes it: the base timestamp becomes the
 * horizon, the delete-horizon attribute is set and each record's timestamp delta is re-encoded against it.
 *
 * <p>Not thread-safe; one per cleaner thread. A returned buffer is valid until the next call.
 */
public final class BatchRebuilder {
    /** Attribute bits a rebuilt batch keeps from the original (Kafka's builder writes the same). */
    private static final int KEPT_ATTRIBUTES = COMPRESSION_CODEC_MASK
            | TIMESTAMP_TYPE_MASK
            | TRANSACTIONAL_FLAG_MASK
            | CONTROL_FLAG_MASK
            | DELETE_HORIZON_FLAG_MASK;
    /** Attribute bits of an empty batch kept for producer state: no codec, no horizon. */
    private static final int EMPTY_BATCH_ATTRIBUTES = TIMESTAMP_TYPE_MASK | TRANSACTIONAL_FLAG_MASK | CONTROL_FLAG_MASK;
    /** Length prefix, attributes and timestamp delta: the bytes a record may grow by when re-encoded. */
    private static final int RECORD_PREFIX_MAX = MAX_VARINT_LENGTH + 1 + MAX_VARLONG_LENGTH;

    private final RecordBatchView rebuilt = new RecordBatchView();
    private ByteBuffer plain;
    private ByteBuffer output;

    /**
     * The batch {@code original} holding only the records {@code kept[0..keptCount)} (indexes into {@code decoded},
     * ascending, at least one).
     *
     * @param deleteHorizonMs a delete horizon to set (the batch must not have one yet), or -1 to keep the batch's own
     * @return a buffer whose position is 0 and limit the rebuilt batch's size
     */
    public ByteBuffer rebuild(
            RecordBatchView original, DecodedBatch decoded, int[] kept, int keptCount, long deleteHorizonMs) {
        int originalAttributes = original.attributes();
        boolean newHorizon = deleteHorizonMs >= 0;
        long baseTimestamp = newHorizon ? deleteHorizonMs : original.baseTimestamp();
        int bound = 0;
        for (int k = 0; k < keptCount; k++) {
            int i = kept[k];
            bound += RECORD_PREFIX_MAX + decoded.end(i) - decoded.copyFrom(i);
        }
        int codec = originalAttributes & COMPRESSION_CODEC_MASK;
        ByteBuffer target;
        int at;
        if (codec == COMPRESSION_NONE) {
            output = ensure(output, RECORDS_OFFSET + bound);
            target = output;
            at = RECORDS_OFFSET;
        } else {
            plain = ensure(plain, bound);
            target = plain;
            at = 0;
        }
        int recordsStart = at;
        long maxTimestamp = NO_TIMESTAMP;
        ByteBuffer source = decoded.records();
        for (int k = 0; k < keptCount; k++) {
            int i = kept[k];
            long timestamp = decoded.timestamp(i);
            maxTimestamp = Math.max(maxTimestamp, timestamp);
            long timestampDelta = timestamp - baseTimestamp;
            int copied = decoded.end(i) - decoded.copyFrom(i);
            int body = 1 + varlongSize(timestampDelta) + copied;
            at = putVarint(target, at, body);
            target.put(at++, (byte) 0);
            at = putVarlong(target, at, timestampDelta);
            target.put(at, source, decoded.copyFrom(i), copied);
            at += copied;
        }
        int size;
        if (codec == COMPRESSION_NONE) {
            size = at;
        } else {
            var compressor = decoded.codecs().compressor(codec);
            output = ensure(output, RECORDS_OFFSET + compressor.maxCompressedLength(at - recordsStart));
            output.clear();
            plain.clear();
            size = RECORDS_OFFSET + compressor.compress(plain, recordsStart, at, output, RECORDS_OFFSET);
            plain.clear();
        }
        output.clear();
        output.put(0, original.buffer(), original.offset(), RECORDS_OFFSET);
        int attributes = originalAttributes & KEPT_ATTRIBUTES;
        if (newHorizon) {
            attributes |= DELETE_HORIZON_FLAG_MASK;
        }
        output.putShort(ATTRIBUTES_OFFSET, (short) attributes);
        output.putLong(BASE_TIMESTAMP_OFFSET, baseTimestamp);
        output.putLong(MAX_TIMESTAMP_OFFSET, original.isLogAppendTime() ? original.maxTimestamp() : maxTimestamp);
        output.putInt(RECORDS_COUNT_OFFSET, keptCount);
        return finish(size);
    }

    /**
     * The header of {@code original} with no records, as Kafka keeps the last batch of an idempotent producer whose
     * records were all removed: offsets, producer fields and max timestamp kept, no codec, no delete horizon.
     */
    public ByteBuffer emptyHeader(RecordBatchView original) {
        output = ensure(output, RECORDS_OFFSET);
        output.clear();
        output.put(0, original.buffer(), original.offset(), RECORDS_OFFSET);
        output.putShort(ATTRIBUTES_OFFSET, (short) (original.attributes() & EMPTY_BATCH_ATTRIBUTES));
        output.putLong(BASE_TIMESTAMP_OFFSET, original.maxTimestamp());
        output.putLong(MAX_TIMESTAMP_OFFSET, original.maxTimestamp());
        output.putInt(RECORDS_COUNT_OFFSET, 0);
        return finish(RECORDS_OFFSET);
    }

    private ByteBuffer finish(int size) {
        output.putInt(BATCH_LENGTH_OFFSET, size - LOG_OVERHEAD);
        output.putInt(CRC_OFFSET, rebuilt.wrap(output, 0).computeCrc());
        output.limit(size).position(0);
        return output;
    }

    /** Drops buffers grown above {@code maxRetainedBytes}, so one huge batch does not pin memory. */
    public void trim(int maxRetainedBytes) {
        if (plain != null && plain.capacity() > maxRetainedBytes) {
            plain = null;
        }
        if (output != null && output.capacity() > maxRetainedBytes) {
            output = null;
        }
    }

    private static ByteBuffer ensure(ByteBuffer buffer, int capacity) {
        if (buffer != null && buffer.capacity() >= capacity) {
            buffer.clear();
            return buffer;
        }
        int grown = buffer == null
                ? capacity
                : (int) Math.min(Integer.MAX_VALUE - 8, Math.max(capacity, 2L * buffer.capacity()));
        return ByteBuffer.allocateDirect(Math.max(grown, RECORDS_OFFSET));
    }

    static int putVarint(ByteBuffer b, int at, int value) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & ~0x7F) != 0) {
            b.put(at++, (byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        b.put(at++, (byte) v);
        return at;
    }

    static int putVarlong(ByteBuffer b, int at, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & ~0x7FL) != 0) {
            b.put(at++, (byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        b.put(at++, (byte) v);
        return at;
    }

    static int varlongSize(long value) {
        long v = (value << 1) ^ (value >> 63);
        int bytes = 1;
        while ((v & ~0x7FL) != 0) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }
}
