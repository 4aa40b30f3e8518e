package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.BATCH_LENGTH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.testing.KafkaBatches;
import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Garbage, truncation and forged lengths end in a RecordValidationException, nothing else. */
class BatchValidatorGarbageTest {

    private static final long NOW = 1_700_000_000_000L;
    private final TopicValidationPolicy policy = TopicValidationPolicy.defaults();

    @Property(tries = 2000)
    void shouldRejectRandomBytesWithATypedError(@ForAll @Size(max = 300) byte[] garbage) {
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            assertThrows(
                    RecordValidationException.class, () -> validator.validate(ByteBuffer.wrap(garbage), policy, NOW));
        }
    }

    @Property(tries = 1000)
    void shouldRejectRandomBytesBehindAPlausibleHeader(
            @ForAll @Size(min = 61, max = 400) byte[] garbage, @ForAll @IntRange(min = 0, max = 4) int codec) {
        ByteBuffer batch = ByteBuffer.wrap(garbage);
        ByteBuffer valid = KafkaBatches.simple(codec, 1, 1, NOW);
        batch.put(0, valid, 0, RECORDS_OFFSET);
        batch.putInt(BATCH_LENGTH_OFFSET, garbage.length - LOG_OVERHEAD);
        batch.putInt(CRC_OFFSET, new RecordBatchView().wrap(batch, 0).computeCrc());
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            assertThrows(RecordValidationException.class, () -> validator.validate(batch, policy, NOW));
        }
    }

    @Test
    void shouldRejectEveryTruncationOfAValidBatch() {
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            for (int codec = 0; codec <= 4; codec++) {
                ByteBuffer batch = KafkaBatches.simple(codec, 20, 50, NOW);
                for (int cut = 0; cut < batch.remaining(); cut++) {

                    ByteBuffer truncated = KafkaBatches.copyOf(batch).limit(cut);
                    assertThrows(RecordValidationException.class, () -> validator.validate(truncated, policy, NOW));
                }
            }
        }
    }

    @Property(tries = 3000)
    void shouldSurviveForgedRecordBytesWithAValidCrc(
            @ForAll @IntRange(min = 0, max = 10_000) int where,
            @ForAll int forged,
            @ForAll @IntRange(min = 1, max = 4) int width) {
        ByteBuffer batch = KafkaBatches.simple(0, 10, 12, NOW);
        int at = RECORDS_OFFSET + where % (batch.remaining() - RECORDS_OFFSET - width + 1);
        for (int i = 0; i < width; i++) {
            batch.put(at + i, (byte) (forged >>> (8 * i)));
        }
        batch.putInt(CRC_OFFSET, new RecordBatchView().wrap(batch, 0).computeCrc());
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            validator.validate(batch, policy, NOW);
        } catch (RecordValidationException expected) {
            // a typed error is one of the two allowed outcomes
        }
    }
}
