package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_LZ4;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_SNAPPY;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_ZSTD;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.LAST_OFFSET_DELTA_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_COUNT_OFFSET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.testing.KafkaBatches;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Batches of incompressible records, which the codec stores verbatim, read in place against the
 * same batches decompressed: the same result or the same error, message and per-record errors
 * included, for intact and damaged batches, under every topic policy.
 */
class StoredPayloadValidationTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final int MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

    /** Records of random bytes: null or random keys, values of 0 to {@code maxValue} bytes, 0-5 random headers. */
    /**
     * Random bytes everywhere; every other batch has records of one layout (the same key, value and
     * header sizes, one-byte timestamp deltas), which the validator reads in runs.
     */
    private static ByteBuffer incompressibleBatch(Random random, int codec, int count, int maxValue) {
        boolean uniform = random.nextBoolean();
        int valueSize = random.nextInt(maxValue + 1);
        int headerCount = random.nextInt(6);
        List<KafkaBatches.Rec> recs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Header[] headers = new Header[uniform ? headerCount : random.nextInt(6)];
            for (int h = 0; h < headers.length; h++) {
                headers[h] = uniform
                        ? new RecordHeader(
                                new String(bytes(random, 6), StandardCharsets.ISO_8859_1), bytes(random, 3 * h))
                        : new RecordHeader("h" + random.nextInt(1 << 30), bytes(random, random.nextInt(40)));
            }
            byte[] key =
                    uniform ? bytes(random, 8) : random.nextInt(10) == 0 ? null : bytes(random, random.nextInt(20));
            long timestamp = uniform ? NOW - 1500 - random.nextInt(64) : NOW - random.nextInt(5000);
            recs.add(new KafkaBatches.Rec(
                    timestamp, key, bytes(random, uniform ? valueSize : random.nextInt(maxValue + 1)), headers));
        }
        return KafkaBatches.batch(codec, recs);
    }

    private static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** What validating gave, as comparable text: the accepted batch and its metadata, or the error. */
    private static String outcome(
            BatchValidator validator, ByteBuffer batch, TopicValidationPolicy policy, boolean direct) {
        ByteBuffer copy = direct ? KafkaBatches.directCopyOf(batch) : KafkaBatches.copyOf(batch);
        try {
            ValidatedRecords result = validator.validate(copy, policy, NOW);
            ByteBuffer records = result.records();
            byte[] accepted = new byte[records.remaining()];
            records.get(records.position(), accepted);
            return "accepted " + result.recordCount() + " records, max timestamp " + result.maxTimestamp() + " at "
                    + result.maxTimestampOffsetDelta() + ", recompressed " + result.recompressedBatches() + ", bytes "
                    + Arrays.hashCode(accepted) + "/" + accepted.length;
        } catch (RecordValidationException e) {
            return "error " + e.errorCode() + ": " + e.getMessage() + " " + e.recordErrors();
        }
    }

    private static TopicValidationPolicy policy(Random random) {
        TopicValidationPolicy policy = TopicValidationPolicy.defaults().withMaxMessageBytes(MAX_MESSAGE_BYTES);
        return switch (random.nextInt(4)) {
            case 0 -> policy.withCompacted(true);
            case 1 -> policy.withTimestampBounds(2000, 1000);
            case 2 -> policy.withLogAppendTime(true);
            default -> policy;
        };
    }

    @ParameterizedTest
    @ValueSource(ints = {COMPRESSION_SNAPPY, COMPRESSION_LZ4, COMPRESSION_ZSTD})
    void shouldReadIncompressibleBatchesInPlaceWithTheDecompressingResult(int codec) {
        Random random = new Random(0x570 + codec);
        int batches = 40;
        try (BatchValidator inPlace = new BatchValidator(ValidatorConfig.defaults());
                BatchValidator decompressing = new BatchValidator(ValidatorConfig.defaults(), false)) {
            for (int b = 0; b < batches; b++) {
                int count = b % 4 == 0 ? 1 + random.nextInt(2000) : 1 + random.nextInt(50);
                int maxValue = b % 5 == 0 ? 100_000 : count > 100 ? 1000 : 20_000;
                ByteBuffer batch = incompressibleBatch(random, codec, count, maxValue);
                TopicValidationPolicy policy = policy(random);
                // heap and direct requests give the same messages (byte positions count from the payload)
                assertEquals(
                        outcome(decompressing, batch, policy, true),
                        outcome(inPlace, batch, policy, b % 2 == 0),
                        "batch " + b + ": " + count + " records");
            }
            assertEquals(0, decompressing.storedPayloadsReadInPlace());
            assertTrue(
                    inPlace.storedPayloadsReadInPlace() > batches / 2,
                    "only " + inPlace.storedPayloadsReadInPlace() + " of " + batches + " batches read in place");
        }
    }

    /** The batch declaring {@code change} more records than it holds (count and last offset delta agree), CRC fixed. */
    private static ByteBuffer recount(ByteBuffer batch, int change) {
        ByteBuffer copy = KafkaBatches.copyOf(batch);
        RecordBatchView view = new RecordBatchView().wrap(copy, 0);
        copy.putInt(RECORDS_COUNT_OFFSET, view.recordCount() + change);
        copy.putInt(LAST_OFFSET_DELTA_OFFSET, view.lastOffsetDelta() + change);
        copy.putInt(CRC_OFFSET, view.computeCrc());
        return copy;
    }

    @ParameterizedTest
    @ValueSource(ints = {COMPRESSION_SNAPPY, COMPRESSION_LZ4, COMPRESSION_ZSTD})
    void shouldGiveTheDecompressingVerdictForDamagedIncompressibleBatches(int codec) {
        Random random = new Random(0xDA7A + codec);
        List<ByteBuffer> valid = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            valid.add(incompressibleBatch(random, codec, 1 + random.nextInt(60), i % 2 == 0 ? 3000 : 40_000));
        }
        int cases = 3000;
        // a scratch buffer of the smallest window cannot gather the larger records that span blocks
        ValidatorConfig smallWindow = new ValidatorConfig(
                ValidatorConfig.MIN_DECOMPRESSION_WINDOW_BYTES,
                ValidatorConfig.DEFAULT_MAX_DECOMPRESSION_RATIO,
                ValidatorConfig.DEFAULT_MAX_DECOMPRESSED_BYTES);
        try (BatchValidator inPlace = new BatchValidator(ValidatorConfig.defaults());
                BatchValidator inPlaceSmall = new BatchValidator(smallWindow);
                BatchValidator decompressing = new BatchValidator(ValidatorConfig.defaults(), false)) {
            for (int i = 0; i < cases; i++) {
                BatchValidatorMutationTest.Mutation mutation = BatchValidatorMutationTest.Mutation.values()[
                        i % BatchValidatorMutationTest.Mutation.values().length];
                ByteBuffer original = valid.get(random.nextInt(valid.size()));
                ByteBuffer batch = switch (i % 10) {
                    case 0 -> original;
                    case 1 -> recount(original, random.nextBoolean() ? -1 : 1);
                    default -> BatchValidatorMutationTest.mutate(mutation, original, valid, random);
                };
                TopicValidationPolicy policy = policy(random);
                // heap and direct requests give the same messages (byte positions count from the payload)
                String expected = outcome(decompressing, batch, policy, true);
                assertEquals(expected, outcome(inPlace, batch, policy, i % 2 == 0), "case " + i + " " + mutation);
                assertEquals(
                        expected,
                        outcome(inPlaceSmall, batch, policy, i % 2 == 1),
                        "case " + i + " " + mutation + ", small window");
            }
            assertTrue(
                    inPlace.storedPayloadsReadInPlace() > cases / 4,
                    "only " + inPlace.storedPayloadsReadInPlace() + " of " + cases + " cases read in place");
        }
    }
}
