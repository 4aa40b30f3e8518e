package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.BATCH_LENGTH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_GZIP;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_LZ4;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_NONE;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_SNAPPY;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_ZSTD;
import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.MAGIC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.MAGIC_V2;
import static io.sluice.record.batch.RecordBatchDescriptor.NO_PRODUCER_ID;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORD_BATCH_OVERHEAD;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.batch.RecordCursor;
import io.sluice.record.batch.StoredRecords;
import io.sluice.record.compress.GzipPayloadDecompressor;
import io.sluice.record.compress.Lz4PayloadDecompressor;
import io.sluice.record.compress.PayloadDecompressor;
import io.sluice.record.compress.SnappyPayloadDecompressor;
import io.sluice.record.compress.ZstdPayloadDecompressor;
import java.nio.ByteBuffer;

/**
 * Validates the records of one produce request partition the way Kafka's broker does for magic 2
 * batches from clients, and stamps LogAppendTime in place. Offsets and the partition leader
 * epoch are not assigned here: the log writes them with {@link RecordBatchView#baseOffset(long)}
 * and {@link RecordBatchView#partitionLeaderEpoch(int)} under its append lock (both outside the CRC).
 *
 * <p>Checks, in Kafka's order: exactly one whole batch (Produce v3+), magic 2, size within
 * {@code max.message.bytes}, base offset 0, CRC-32C, lastOffsetDelta + 1 == count, no control
 * batch, a sequence when a producer id is set, a known codec; then every record: layout and
 * lengths inside the record, attributes 0, offset deltas 0,1,2,…, exactly the declared count
 * with no trailing bytes, key present on compacted topics, CreateTime timestamps inside the
 * topic's bounds. Where Kafka silently tolerates (a truncated tail, record offset deltas it
 * rewrites, key lengths below -1) Sluice rejects with a typed error instead.
 *
 * <p>Not thread-safe; one per request-handler thread. Holds no native resources until a
 * compressed batch is seen; {@link #close()} ends them.
 */
public final class BatchValidator implements AutoCloseable {

    private final ValidatorConfig config;
    private final RecordBatchView view = new RecordBatchView();
    private final RecordCursor cursor = new RecordCursor();
    private final ValidatedRecords result = new ValidatedRecords();
    private final RecordChecks checks = new RecordChecks();
    private final PayloadDecompressor[] decompressors = new PayloadDecompressor[COMPRESSION_ZSTD + 1];
    private final BatchRecompressor recompressor;
    /** Most source ranges of a stored payload read in place (more: it is decompressed instead). */
    private static final int MAX_STORED_RANGES = 128;

    private final int[] storedRanges = new int[2 * MAX_STORED_RANGES];
    private final StoredRecords stored = new StoredRecords();
    private final boolean readStoredInPlace;
    /** Batches whose stored payload was read in place since construction (tests check which path ran). */
    private long storedPayloadsReadInPlace;

    private ByteBuffer window;

    public BatchValidator(ValidatorConfig config) {
        this(config, true);
    }

    /**
     * @param readStoredInPlace read the records of payloads the codec stored verbatim where they
     *                          lie instead of decompressing them (tests compare both ways)
     */
    BatchValidator(ValidatorConfig config, boolean readStoredInPlace) {
        this.config = config;
        this.recompressor = new BatchRecompressor(config);
        this.readStoredInPlace = readStoredInPlace;
    }

    /**
     * Validates {@code records} (position to limit, the request's records field; its position is
     * not moved) for a topic with {@code policy} at time {@code nowMs}.
     *
     * @return the same {@link ValidatedRecords} instance on every call, overwritten each time
     * @throws RecordValidationException with the Kafka error code the client expects; nothing
     *                                   of the request partition may then be appended
     */
    public ValidatedRecords validate(ByteBuffer records, TopicValidationPolicy policy, long nowMs)
            throws RecordValidationException {
        int start = records.position();
        int end = records.limit();
        int size = frameSingleBatch(records, start, end);
        view.wrap(records, start);
        checkBatchHeader(size, policy);
        int codec = view.compressionId();
        checks.start(view, policy, nowMs);
        if (codec == COMPRESSION_NONE) {
            walkRecords(cursor.over(records, start + RECORDS_OFFSET, start + size));
        } else {
            walkCompressedRecords(records, start, size, codec, policy, nowMs);
        }
        checks.finish();
        ByteBuffer accepted = records;
        int recompressed = 0;
        if (!policy.keepsProducerCompression() && policy.targetCompressionId() != codec) {
            accepted = recompress(codec, policy);
            view.wrap(accepted, 0);
            recompressed = 1;
        }
        long maxTimestamp;
        int maxTimestampDelta;
        if (policy.logAppendTime()) {
            view.stampLogAppendTime(nowMs);
            maxTimestamp = nowMs;
            maxTimestampDelta = view.lastOffsetDelta();
        } else {
            view.setMaxTimestamp(false, checks.maxTimestamp());
            maxTimestamp = checks.maxTimestamp();
            maxTimestampDelta = checks.maxTimestampOffsetDelta();
        }
        result.set(accepted, 1, view.recordCount(), maxTimestamp, maxTimestampDelta, recompressed);
        return result;
    }

    /** Rewrites the validated batch in the topic's codec; checks the new size like Kafka does. */
    private ByteBuffer recompress(int codec, TopicValidationPolicy policy) throws RecordValidationException {
        ByteBuffer rewritten;
        try {
            rewritten = recompressor.recompress(
                    view,
                    codec == COMPRESSION_NONE ? null : decompressor(codec),
                    policy.targetCompressionId(),
                    config.decompressedCeiling(policy.maxMessageBytes()));
        } catch (BatchFormatException e) {
            throw translate(e);
        }
        if (rewritten.remaining() > policy.maxMessageBytes()) {
            throw new RecordValidationException(
                    KafkaErrorCodes.MESSAGE_TOO_LARGE,
                    "batch size "
                            + rewritten.remaining() + " bytes after recompression to codec "
                            + policy.targetCompressionId()
                            + " exceeds max.message.bytes " + policy.maxMessageBytes());
        }
        return rewritten;
    }

    /** Ends every codec context this validator opened (zstd's native contexts, zlib's inflater/deflater). */
    @Override
    public void close() {
        recompressor.close();
        for (int i = 0; i < decompressors.length; i++) {
            if (decompressors[i] != null) {
                decompressors[i].close();
                decompressors[i] = null;
            }
        }
        window = null;
    }

    private void walkCompressedRecords(
            ByteBuffer records, int start, int size, int codec, TopicValidationPolicy policy, long nowMs)
            throws RecordValidationException {
        PayloadDecompressor decompressor = decompressor(codec);
        if (window == null) {
            window = ByteBuffer.allocateDirect(config.decompressionWindowBytes());
        }
        try {
            decompressor.begin(records, start + RECORDS_OFFSET, start + size);
        } catch (BatchFormatException e) {
            throw translate(e);
        }
        if (readStoredInPlace && walkStoredRecords(records, decompressor, policy, nowMs)) {
            return;
        }
        try {
            walkRecords(cursor.streaming(window, decompressor, config.decompressedCeiling(policy.maxMessageBytes())));
        } finally {
            ByteBuffer used = cursor.window().buffer();
            window = used.capacity() <= config.maxRetainedWindowBytes() ? used : null;
        }
    }

    /**
     * Walks the records of a payload the codec stored verbatim where they lie. Returns false when
     * it is not stored, or anything about its records is wrong, with the record checks started
     * afresh: then the payload is decompressed and walked again, so every verdict is the one the
     * decompressing walk gives.
     */
    private boolean walkStoredRecords(
            ByteBuffer records, PayloadDecompressor decompressor, TopicValidationPolicy policy, long nowMs) {
        int rangeCount = decompressor.storedRanges(config.decompressedCeiling(policy.maxMessageBytes()), storedRanges);
        if (rangeCount == PayloadDecompressor.NOT_STORED) {
            return false;
        }
        stored.over(records, storedRanges, rangeCount, window);
        int count = view.recordCount();
        try {
            int index = 0;
            while (index < count) {
                int run = stored.nextRun(count - index);
                if (run > 0) {
                    index = checks.run(index, stored.cursor(), run);
                    continue;
                }
                RecordCursor record = stored.next();
                if (record == null) {
                    break;
                }
                checks.record(index++, record);
            }
            if (index == count && !stored.hasRemaining()) {
                storedPayloadsReadInPlace++;
                return true;
            }
        } catch (BatchFormatException e) {
            // the decompressing walk names the problem
        }
        checks.start(view, policy, nowMs);
        return false;
    }

    long storedPayloadsReadInPlace() {
        return storedPayloadsReadInPlace;
    }

    private PayloadDecompressor decompressor(int codec) {
        PayloadDecompressor decompressor = decompressors[codec];
        if (decompressor == null) {
            decompressor = switch (codec) {
                case COMPRESSION_GZIP -> new GzipPayloadDecompressor();
                case COMPRESSION_SNAPPY -> new SnappyPayloadDecompressor();
                case COMPRESSION_LZ4 -> new Lz4PayloadDecompressor();
                case COMPRESSION_ZSTD -> new ZstdPayloadDecompressor(config.maxRetainedWindowBytes());
                default -> throw new IllegalStateException("codec id " + codec + " was checked before");
            };
            decompressors[codec] = decompressor;
        }
        return decompressor;
    }

    /** Returns the size of the only batch in {@code [start, end)}, or throws. */
    private static int frameSingleBatch(ByteBuffer records, int start, int end) throws RecordValidationException {
        if (end - start <= 0) {
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD,
                    "records: no record batch at all (0 bytes), Produce v3+ needs exactly one");
        }
        int size = frameBatch(records, start, end);
        int next = start + size;
        if (next != end) {
            frameBatch(records, next, end);
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD,
                    "records: more than one record batch (a second starts at byte " + (next - start) + " of "
                            + (end - start) + "), Produce v3+ allows exactly one per partition");
        }
        return size;
    }

    /** Checks that a whole batch of a known magic starts at {@code at}; returns its size in bytes. */
    private static int frameBatch(ByteBuffer records, int at, int end) throws RecordValidationException {
        int remaining = end - at;
        if (remaining < LOG_OVERHEAD) {
            throw new RecordValidationException(
                    KafkaErrorCodes.CORRUPT_MESSAGE,
                    "records: " + remaining + " trailing bytes cannot hold a batch header of " + LOG_OVERHEAD);
        }
        int batchLength = records.getInt(at + BATCH_LENGTH_OFFSET);
        if (batchLength < RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) {
            if (remaining > MAGIC_OFFSET) {
                checkMagic(records.get(at + MAGIC_OFFSET));
            }
            throw new RecordValidationException(
                    KafkaErrorCodes.CORRUPT_MESSAGE,
                    "batchLength " + batchLength + " is below the v2 minimum of "
                            + (RECORD_BATCH_OVERHEAD - LOG_OVERHEAD));
        }
        if (batchLength > remaining - LOG_OVERHEAD) {
            throw new RecordValidationException(
                    KafkaErrorCodes.CORRUPT_MESSAGE,
                    "batchLength " + batchLength + " exceeds the " + (remaining - LOG_OVERHEAD)
                            + " bytes present: the batch is truncated");
        }
        checkMagic(records.get(at + MAGIC_OFFSET));
        return LOG_OVERHEAD + batchLength;
    }

    private static void checkMagic(byte magic) throws RecordValidationException {
        if (magic == MAGIC_V2) {
            return;
        }
        if (magic == 0 || magic == 1) {
            throw new RecordValidationException(
                    KafkaErrorCodes.UNSUPPORTED_FOR_MESSAGE_FORMAT,
                    "magic " + magic + " batches are not supported, only magic " + MAGIC_V2);
        }
        throw new RecordValidationException(KafkaErrorCodes.CORRUPT_MESSAGE, "magic " + magic + " is unknown");
    }

    private void checkBatchHeader(int size, TopicValidationPolicy policy) throws RecordValidationException {
        if (view.baseOffset() != 0) {
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD,
                    "baseOffset must be 0 in a produced batch, was " + view.baseOffset());
        }
        if (size > policy.maxMessageBytes()) {
            throw new RecordValidationException(
                    KafkaErrorCodes.MESSAGE_TOO_LARGE,
                    "batch size " + size + " bytes exceeds max.message.bytes " + policy.maxMessageBytes());
        }
        int stored = view.storedCrc();
        int computed = view.computeCrc();
        if (stored != computed) {
            throw new RecordValidationException(
                    KafkaErrorCodes.CORRUPT_MESSAGE,
                    "crc stored " + Integer.toUnsignedString(stored) + " does not match computed "
                            + Integer.toUnsignedString(computed));
        }
        long countFromOffsets = (long) view.lastOffsetDelta() + 1;
        if (countFromOffsets <= 0) {
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD,
                    "lastOffsetDelta " + view.lastOffsetDelta() + " gives an empty offset range");
        }
        int count = view.recordCount();
        if (count <= 0) {
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD, "recordsCount " + count + " must be positive");
        }
        if (countFromOffsets != count) {
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD,
                    "lastOffsetDelta " + view.lastOffsetDelta() + " + 1 does not match recordsCount " + count);
        }
        if (count > size - RECORD_BATCH_OVERHEAD && view.compressionId() == COMPRESSION_NONE) {
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD,
                    "recordsCount " + count + " cannot fit in " + (size - RECORD_BATCH_OVERHEAD) + " record bytes");
        }
        if (view.isControl()) {
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD,
                    "attributes " + view.attributes() + " mark a control batch: clients may not write control records");
        }
        if (view.producerId() != NO_PRODUCER_ID && view.baseSequence() < 0) {
            throw new RecordValidationException(
                    KafkaErrorCodes.INVALID_RECORD,
                    "baseSequence " + view.baseSequence() + " is negative for producerId " + view.producerId());
        }
        if (view.compressionId() > COMPRESSION_ZSTD) {
            throw new RecordValidationException(
                    KafkaErrorCodes.UNSUPPORTED_COMPRESSION_TYPE,
                    "compression codec id " + view.compressionId() + " in attributes " + view.attributes()
                            + " is unknown (0..4 allowed)");
        }
    }

    private void walkRecords(RecordCursor records) throws RecordValidationException {
        int count = view.recordCount();
        try {
            for (int index = 0; index < count; ) {
                int run = records.nextRun(count - index);
                if (run > 0) {
                    index = checks.run(index, records, run);
                } else {
                    records.next();
                    checks.record(index++, records);
                }
            }
            if (records.hasRemaining()) {
                throw new RecordValidationException(
                        KafkaErrorCodes.INVALID_RECORD,
                        "bytes remain after the " + count + " records declared by recordsCount");
            }
        } catch (BatchFormatException e) {
            throw translate(e);
        }
    }

    static RecordValidationException translate(BatchFormatException e) {
        return switch (e.reason()) {
            case MALFORMED_RECORD -> new RecordValidationException(KafkaErrorCodes.INVALID_RECORD, e.getMessage());
            case CORRUPT_PAYLOAD -> new RecordValidationException(KafkaErrorCodes.CORRUPT_MESSAGE, e.getMessage());
            case DECOMPRESSED_TOO_LARGE ->
                new RecordValidationException(KafkaErrorCodes.MESSAGE_TOO_LARGE, e.getMessage());
        };
    }
}
