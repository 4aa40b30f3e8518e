package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_LZ4;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_SNAPPY;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_ZSTD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.testing.KafkaBatches;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Steady-state validation allocates (next to) nothing per batch, for every codec. */
class BatchValidatorAllocationTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final int ROUNDS = 2_000;
    private static final long MAX_BYTES_PER_BATCH = 64;

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void shouldAllocateAtMost64BytesPerBatchOnceWarm(int codec) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ByteBuffer template = KafkaBatches.simple(codec, 200, 100, NOW);
        ByteBuffer heap = KafkaBatches.copyOf(template);
        ByteBuffer direct = KafkaBatches.directCopyOf(template);
        TopicValidationPolicy policy = TopicValidationPolicy.defaults().withLogAppendTime(true);
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            for (int i = 0; i < ROUNDS; i++) {
                validateFresh(validator, template, heap, policy, i);
                validateFresh(validator, template, direct, policy, i);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < ROUNDS; i++) {
                validateFresh(validator, template, heap, policy, i);
                validateFresh(validator, template, direct, policy, i);
            }
            long perBatch = (threads.getCurrentThreadAllocatedBytes() - before) / (2L * ROUNDS);
            assertTrue(
                    perBatch <= MAX_BYTES_PER_BATCH, "codec " + codec + " allocated " + perBatch + " bytes per batch");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {COMPRESSION_SNAPPY, COMPRESSION_LZ4, COMPRESSION_ZSTD})
    void shouldAllocateAtMost64BytesPerIncompressibleBatchReadInPlace(int codec) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Random random = new Random(codec);
        List<KafkaBatches.Rec> recs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] value = new byte[1000 + random.nextInt(1000)];
            random.nextBytes(value);
            recs.add(new KafkaBatches.Rec(NOW + i, null, value, new Header[0]));
        }
        ByteBuffer template = KafkaBatches.batch(codec, recs);
        ByteBuffer direct = KafkaBatches.directCopyOf(template);
        TopicValidationPolicy policy = TopicValidationPolicy.defaults().withLogAppendTime(true);
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            for (int i = 0; i < ROUNDS; i++) {
                validateFresh(validator, template, direct, policy, i);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            long inPlaceBefore = validator.storedPayloadsReadInPlace();
            for (int i = 0; i < ROUNDS; i++) {
                validateFresh(validator, template, direct, policy, i);
            }
            long perBatch = (threads.getCurrentThreadAllocatedBytes() - before) / ROUNDS;
            assertEquals(ROUNDS, validator.storedPayloadsReadInPlace() - inPlaceBefore, "batches read in place");
            assertTrue(
                    perBatch <= MAX_BYTES_PER_BATCH, "codec " + codec + " allocated " + perBatch + " bytes per batch");
        }
    }

    /** Restores the producer's bytes (the previous round stamped LogAppendTime into them), then validates. */
    private static void validateFresh(
            BatchValidator validator, ByteBuffer template, ByteBuffer target, TopicValidationPolicy policy, int round)
            throws RecordValidationException {
        target.put(0, template, 0, template.remaining());
        validator.validate(target, policy, NOW + round);
    }
}
