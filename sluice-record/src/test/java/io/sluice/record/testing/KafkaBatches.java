package io.sluice.record.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;

/**
 * Builds produce-request batches the way Kafka's producer does, with kafka-clients'
 * {@link MemoryRecordsBuilder}.
 *
 * <p>Stateless; thread-safe.
 */
public final class KafkaBatches {

    /** One record to put in a batch. */
    public record Rec(long timestamp, byte[] key, byte[] value, Header[] headers) {}

    private KafkaBatches() {}

    public static CompressionType codec(int id) {
        return CompressionType.forId(id);
    }

    /** A non-idempotent batch of {@code records} compressed with {@code codecId}. */
    public static ByteBuffer batch(int codecId, List<Rec> records) {
        return batch(
                codecId,
                records,
                RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH,
                RecordBatch.NO_SEQUENCE,
                false);
    }

    public static ByteBuffer batch(
            int codecId,
            List<Rec> records,
            long producerId,
            short producerEpoch,
            int baseSequence,
            boolean transactional) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(1024),
                RecordBatch.MAGIC_VALUE_V2,
                Compression.of(codec(codecId)).build(),
                TimestampType.CREATE_TIME,
                0L,
                RecordBatch.NO_TIMESTAMP,
                producerId,
                producerEpoch,
                baseSequence,
                transactional,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (Rec rec : records) {
            builder.append(rec.timestamp(), rec.key(), rec.value(), rec.headers());
        }
        MemoryRecords built = builder.build();
        ByteBuffer copy = ByteBuffer.allocate(built.sizeInBytes());
        copy.put(built.buffer().duplicate()).flip();
        return copy;
    }

    /** {@code count} records with 8-byte keys and {@code valueSize}-byte values, timestamps from {@code ts}. */
    public static ByteBuffer simple(int codecId, int count, int valueSize, long ts) {
        Rec[] recs = new Rec[count];
        for (int i = 0; i < count; i++) {
            byte[] value = new byte[valueSize];
            for (int j = 0; j < valueSize; j++) {
                value[j] = (byte) ('a' + (i + j) % 26);
            }
            recs[i] = new Rec(ts + i, ("key-" + i).getBytes(StandardCharsets.UTF_8), value, new Header[0]);
        }
        return batch(codecId, List.of(recs));
    }

    /**
     * Decompressed size of the records section of every batch in {@code batches} (each record with
     * its length prefix), as Kafka's own reader decodes it; for well-formed batches only.
     */
    public static long recordsSectionBytes(ByteBuffer batches) {
        long total = 0;
        for (RecordBatch batch : MemoryRecords.readableRecords(copyOf(batches)).batches()) {
            for (Record record : batch) {
                total += record.sizeInBytes();
            }
        }
        return total;
    }

    public static ByteBuffer copyOf(ByteBuffer source) {
        ByteBuffer copy = ByteBuffer.allocate(source.remaining());
        copy.put(source.duplicate()).flip();
        return copy;
    }

    public static ByteBuffer directCopyOf(ByteBuffer source) {
        ByteBuffer copy = ByteBuffer.allocateDirect(source.remaining());
        copy.put(source.duplicate()).flip();
        return copy;
    }
}
