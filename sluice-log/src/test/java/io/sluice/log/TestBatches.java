package io.sluice.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;

/** Builds real v2 batches with kafka-clients and reads logs back through kafka-clients. Not thread-safe. */
final class TestBatches {
    private TestBatches() {}

    /** One record as read back: its offset, value and timestamp. */
    record Stored(long offset, String value, long timestamp) {}

    static ByteBuffer batch(long timestamp, String... values) {
        return idempotent(
                RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE, timestamp, values);
    }

    static ByteBuffer batch(long timestamp, int records, int valueBytes) {
        String[] values = new String[records];
        for (int i = 0; i < records; i++) {
            values[i] = (i + "-" + "x".repeat(valueBytes)).substring(0, Math.max(1, valueBytes));
        }
        return batch(timestamp, values);
    }

    static ByteBuffer idempotent(long producerId, short epoch, int baseSequence, long timestamp, String... values) {
        int size = 128;
        for (String v : values) {
            size += v.length() + 32;
        }
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(size),
                RecordBatch.CURRENT_MAGIC_VALUE,
                Compression.NONE,
                TimestampType.CREATE_TIME,
                0L,
                timestamp,
                producerId,
                epoch,
                baseSequence,
                false,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (String v : values) {
            builder.append(timestamp, null, v.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build().buffer();
    }

    /** One batch whose records carry the given timestamps, compressed with {@code compression}. */
    static ByteBuffer withTimestamps(Compression compression, long... timestamps) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(1024 + 64 * timestamps.length),
                RecordBatch.CURRENT_MAGIC_VALUE,
                compression,
                TimestampType.CREATE_TIME,
                0L);
        for (int i = 0; i < timestamps.length; i++) {
            builder.append(timestamps[i], null, ("t" + i).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build().buffer();
    }

    static ByteBuffer idempotent(long producerId, short epoch, int baseSequence, int records) {
        String[] values = new String[records];
        for (int i = 0; i < records; i++) {
            values[i] = "p" + producerId + "e" + epoch + "s" + (baseSequence + i);
        }
        return idempotent(producerId, epoch, baseSequence, 1_000L, values);
    }

    static ByteBuffer concat(ByteBuffer... buffers) {
        int size = 0;
        for (ByteBuffer b : buffers) {
            size += b.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        for (ByteBuffer b : buffers) {
            all.put(b.duplicate());
        }
        return all.flip();
    }

    /** Copies a read result's bytes into the heap (tests only; the broker sends them with transferTo). */
    static ByteBuffer bytesOf(LogReadResult result) {
        ByteBuffer bytes = ByteBuffer.allocate(result.sizeInBytes());
        try {
            while (bytes.hasRemaining()) {
                int n = result.channel().read(bytes, result.position() + bytes.position());
                if (n < 0) {
                    throw new IllegalStateException("segment ended early");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.flip();
    }

    /** Parses a read result with kafka-clients, checking every batch's CRC. */
    static List<MutableRecordBatch> batchesOf(LogReadResult result) {
        List<MutableRecordBatch> batches = new ArrayList<>();
        if (result.sizeInBytes() == 0) {
            return batches;
        }
        for (MutableRecordBatch batch :
                MemoryRecords.readableRecords(bytesOf(result)).batches()) {
            batch.ensureValid();
            batches.add(batch);
        }
        return batches;
    }

    /** Every record from {@code from} to the log end, read in pieces of at most {@code maxBytes}. */
    static List<Stored> readAll(PartitionLog log, long from, int maxBytes) {
        List<Stored> records = new ArrayList<>();
        long next = from;
        while (next < log.logEndOffset()) {
            LogReadResult result = log.read(next, maxBytes, Long.MAX_VALUE);
            if (result.sizeInBytes() == 0) {
                break;
            }
            for (MutableRecordBatch batch : batchesOf(result)) {
                for (Record record : batch) {
                    if (record.offset() >= next) {
                        byte[] value = new byte[record.valueSize()];
                        record.value().get(value);
                        records.add(new Stored(
                                record.offset(), new String(value, StandardCharsets.UTF_8), record.timestamp()));
                    }
                }
                next = batch.lastOffset() + 1;
            }
        }
        return records;
    }

    static List<Stored> readAll(PartitionLog log) {
        return readAll(log, log.logStartOffset(), 64 * 1024);
    }
}
