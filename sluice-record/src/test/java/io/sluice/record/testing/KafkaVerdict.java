package io.sluice.record.testing;

import io.sluice.record.validate.TopicValidationPolicy;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.PrimitiveRef;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.common.MetadataVersion;
import org.apache.kafka.storage.internals.log.AppendOrigin;
import org.apache.kafka.storage.internals.log.LogValidator;
import org.apache.kafka.storage.internals.log.RecordValidationException;

/**
 * What Apache Kafka 3.9's broker does with one produce request partition: ProduceRequest's
 * record checks, UnifiedLog's per-batch checks (base offset, size, CRC), then
 * {@link LogValidator#validateMessagesAndAssignOffsets} with offsets from 0 and leader epoch 0, then
 * UnifiedLog's size re-check of recompressed batches.
 *
 * <p>Immutable result; the static method is thread-safe.
 *
 * @param errorCode    Kafka's error code (0 when accepted)
 * @param records      the bytes Kafka would append (null when rejected)
 * @param maxTimestamp Kafka's reported max timestamp (when accepted)
 * @param recordErrorIndexes batch indexes of per-record errors (when rejected that way)
 */
public record KafkaVerdict(short errorCode, ByteBuffer records, long maxTimestamp, List<Integer> recordErrorIndexes) {

    public static final int LEADER_EPOCH = 0;
    private static final short PRODUCE_VERSION = 9;

    public boolean accepted() {
        return errorCode == Errors.NONE.code();
    }

    /** Runs Kafka on a private copy of {@code batch}. */
    public static KafkaVerdict of(ByteBuffer batch, TopicValidationPolicy policy, long nowMs) {
        ByteBuffer copy = KafkaBatches.copyOf(batch);
        try {
            MemoryRecords records = MemoryRecords.readableRecords(copy);
            ProduceRequest.validateRecords(PRODUCE_VERSION, records);
            CompressionType source = CompressionType.NONE;
            for (MutableRecordBatch b : records.batches()) {
                if (b.magic() >= RecordBatch.MAGIC_VALUE_V2 && b.baseOffset() != 0) {
                    throw new InvalidRecordException("baseOffset " + b.baseOffset());
                }
                if (b.sizeInBytes() > policy.maxMessageBytes()) {
                    throw new RecordTooLargeException("size " + b.sizeInBytes());
                }
                if (!b.isValid()) {
                    throw new CorruptRecordException("crc");
                }
                source = b.compressionType();
            }
            Compression target = policy.keepsProducerCompression()
                    ? Compression.of(source).build()
                    : Compression.of(CompressionType.forId(policy.targetCompressionId()))
                            .build();
            LogValidator validator = new LogValidator(
                    records,
                    new TopicPartition("t", 0),
                    new FixedTime(nowMs),
                    source,
                    target,
                    policy.compacted(),
                    RecordBatch.MAGIC_VALUE_V2,
                    policy.logAppendTime() ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME,
                    policy.timestampBeforeMaxMs(),
                    policy.timestampAfterMaxMs(),
                    LEADER_EPOCH,
                    AppendOrigin.CLIENT,
                    MetadataVersion.latestProduction());
            LogValidator.ValidationResult result = validator.validateMessagesAndAssignOffsets(
                    PrimitiveRef.ofLong(0), NO_METRICS, BufferSupplier.create());
            // UnifiedLog.append re-checks batch sizes after LogValidator whenever recompression may have changed them.
            if (result.messageSizeMaybeChanged) {
                for (MutableRecordBatch b : result.validatedRecords.batches()) {
                    if (b.sizeInBytes() > policy.maxMessageBytes()) {
                        throw new RecordTooLargeException("size after recompression " + b.sizeInBytes());
                    }
                }
            }
            return new KafkaVerdict(
                    Errors.NONE.code(), result.validatedRecords.buffer(), result.maxTimestampMs, List.of());
        } catch (RecordValidationException e) {
            return new KafkaVerdict(
                    Errors.forException(e.invalidException()).code(),
                    null,
                    -1,
                    e.recordErrors().stream().map(r -> r.batchIndex).toList());
        } catch (RuntimeException e) {
            return new KafkaVerdict(Errors.forException(e).code(), null, -1, List.of());
        }
    }

    private static final LogValidator.MetricsRecorder NO_METRICS = new LogValidator.MetricsRecorder() {
        @Override
        public void recordInvalidMagic() {}

        @Override
        public void recordInvalidOffset() {}

        @Override
        public void recordInvalidSequence() {}

        @Override
        public void recordInvalidChecksums() {}

        @Override
        public void recordNoKeyCompactedTopic() {}
    };

    /** A clock stopped at one instant. */
    private record FixedTime(long nowMs) implements Time {
        @Override
        public long milliseconds() {
            return nowMs;
        }

        @Override
        public long nanoseconds() {
            return nowMs * 1_000_000L;
        }

        @Override
        public void sleep(long ms) {}

        @Override
        public void waitObject(Object obj, Supplier<Boolean> condition, long deadlineMs) {}
    }
}
