package io.sluice.log.clean;

import io.sluice.log.LogConfig;
import io.sluice.log.LogReadResult;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.TopicPartitionKey;
import io.sluice.log.segment.CleanFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;

/** Builds keyed batches with kafka-clients, opens compacted logs on an injected clock, and reads them back. Not thread-safe. */
final class CompactedLogs {
    private CompactedLogs() {}

    /** One record as read back; value null for a tombstone. */
    record Stored(long offset, String key, String value, long timestamp) {}

    static LogConfig.Builder compacted(int segmentBytes) {
        return LogConfig.builder()
                .compact(true)
                .segmentBytes(segmentBytes)
                .minCleanableDirtyRatio(0.0)
                .retentionMs(-1)
                .fileDeleteDelayMs(0)
                .indexIntervalBytes(256);
    }

    static PartitionLog open(Path dir, LogConfig config, AtomicLong clock) throws IOException {
        return PartitionLog.open(dir, config, new RecoveryReport(), 0L, 0L, clock::get);
    }

    /** A batch of {@code keys[i] -> values[i]} (null = tombstone) with the given codec and producer. */
    static ByteBuffer batch(
            Compression compression,
            long producerId,
            short epoch,
            int baseSequence,
            long timestamp,
            String[] keys,
            String[] values) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(1024 + 64 * keys.length),
                RecordBatch.CURRENT_MAGIC_VALUE,
                compression,
                TimestampType.CREATE_TIME,
                0L,
                timestamp,
                producerId,
                epoch,
                baseSequence,
                false,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (int i = 0; i < keys.length; i++) {
            builder.append(timestamp, bytes(keys[i]), bytes(values[i]));
        }
        return builder.build().buffer();
    }

    static ByteBuffer batch(long timestamp, String[] keys, String[] values) {
        return batch(
                Compression.NONE,
                RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH,
                RecordBatch.NO_SEQUENCE,
                timestamp,
                keys,
                values);
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    /** Every record of the log, checking each batch's CRC with kafka-clients. */
    static List<Stored> readAll(PartitionLog log) {
        List<Stored> records = new ArrayList<>();
        long next = log.logStartOffset();
        while (next < log.logEndOffset()) {
            LogReadResult result = log.read(next, 64 * 1024, Long.MAX_VALUE);
            if (result.sizeInBytes() == 0) {
                break;
            }
            ByteBuffer bytes = ByteBuffer.allocate(result.sizeInBytes());
            try {
                while (bytes.hasRemaining()) {
                    if (result.channel().read(bytes, result.position() + bytes.position()) < 0) {
                        throw new IllegalStateException("segment ended early");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (MutableRecordBatch batch :
                    MemoryRecords.readableRecords(bytes.flip()).batches()) {
                batch.ensureValid();
                for (Record record : batch) {
                    if (record.offset() >= next) {
                        records.add(new Stored(
                                record.offset(), text(record.key()), text(record.value()), record.timestamp()));
                    }
                }
                next = batch.lastOffset() + 1;
            }
        }
        return records;
    }

    private static String text(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A cleaner over the one log, with its checkpoint in {@code checkpointDir}. */
    static LogCleaner cleaner(
            PartitionLog log, Path checkpointDir, AtomicLong clock, long mapBytes, CleanFaults faults) {
        TopicPartitionKey key = new TopicPartitionKey("t", 0);
        CleanerConfig config = new CleanerConfig(true, 1, mapBytes, 0.9, 4096, Double.MAX_VALUE, 10);
        return new LogCleaner(
                config,
                () -> Map.of(key, log),
                k -> checkpointDir,
                new CleanerCheckpoints(List.of(checkpointDir), new RecoveryReport()),
                clock::get,
                faults);
    }
}
