package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.BATCH_LENGTH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.testing.KafkaBatches;
import io.sluice.record.testing.KafkaVerdict;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Flips, truncations, extensions and splices of valid batches, CRC recomputed so the damage
 * reaches the record and codec layers: every outcome is either accepted with exactly Kafka's
 * bytes, or a {@link RecordValidationException}; nothing else escapes.
 */
class BatchValidatorMutationTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final int CASES_PER_CODEC = 3000;

    enum Mutation {
        FLIP,
        TRUNCATE,
        EXTEND,
        SPLICE
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void shouldAcceptOnlyWhatKafkaAcceptsIdenticallyOrFailTyped(int codec) {
        Random random = new Random(0x5EED + codec);
        List<ByteBuffer> valid = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            valid.add(sampleBatch(random, codec));
        }
        Map<Mutation, int[]> outcomes = new EnumMap<>(Mutation.class);
        TopicValidationPolicy policy = TopicValidationPolicy.defaults();
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            for (int i = 0; i < CASES_PER_CODEC; i++) {
                Mutation mutation = Mutation.values()[i % Mutation.values().length];
                ByteBuffer batch = mutate(mutation, valid.get(random.nextInt(valid.size())), valid, random);
                ByteBuffer ours = KafkaBatches.copyOf(batch);
                int[] counts = outcomes.computeIfAbsent(mutation, m -> new int[2]);
                try {
                    ValidatedRecords result = validator.validate(ours, policy, NOW);
                    KafkaVerdict kafka = KafkaVerdict.of(batch, policy, NOW);
                    assertTrue(
                            kafka.accepted(),
                            "case " + i + " " + mutation + ": Sluice accepted, Kafka said " + kafka.errorCode());
                    new RecordBatchView().wrap(ours, 0).partitionLeaderEpoch(KafkaVerdict.LEADER_EPOCH);
                    assertEquals(kafka.records(), result.records(), "case " + i + " " + mutation);
                    counts[0]++;
                } catch (RecordValidationException typed) {
                    counts[1]++;
                }
            }
        }
        int accepted = outcomes.values().stream().mapToInt(c -> c[0]).sum();
        int rejected = outcomes.values().stream().mapToInt(c -> c[1]).sum();
        assertEquals(CASES_PER_CODEC, accepted + rejected);
        assertTrue(rejected > CASES_PER_CODEC / 2, "mutations should mostly break batches, rejected " + rejected);
    }

    private static ByteBuffer sampleBatch(Random random, int codec) {
        int count = 1 + random.nextInt(40);
        List<KafkaBatches.Rec> recs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Header[] headers = new Header[random.nextInt(3)];
            for (int h = 0; h < headers.length; h++) {
                headers[h] = new RecordHeader("h" + h, BatchValidatorKafkaEquivalenceTest.payload(random, 5));
            }
            recs.add(new KafkaBatches.Rec(
                    NOW - random.nextInt(1000),
                    random.nextBoolean() ? null : ("k" + i).getBytes(StandardCharsets.UTF_8),
                    BatchValidatorKafkaEquivalenceTest.payload(random, random.nextInt(300)),
                    headers));
        }
        return KafkaBatches.batch(codec, recs);
    }

    static ByteBuffer mutate(Mutation mutation, ByteBuffer original, List<ByteBuffer> others, Random random) {
        int size = original.remaining();
        ByteBuffer out;
        switch (mutation) {
            case FLIP -> {
                out = KafkaBatches.copyOf(original);
                int flips = 1 + random.nextInt(3);
                for (int f = 0; f < flips; f++) {
                    int at = RECORDS_OFFSET + random.nextInt(size - RECORDS_OFFSET);
                    out.put(at, (byte) (out.get(at) ^ (1 << random.nextInt(8))));
                }
            }
            case TRUNCATE -> {
                int cut = RECORDS_OFFSET + random.nextInt(size - RECORDS_OFFSET);
                out = KafkaBatches.copyOf(original).limit(cut);
                out = KafkaBatches.copyOf(out);
            }
            case EXTEND -> {
                byte[] extra = new byte[1 + random.nextInt(64)];
                if (random.nextBoolean()) {
                    random.nextBytes(extra);
                }
                out = ByteBuffer.allocate(size + extra.length);
                out.put(original.duplicate()).put(extra).flip();
            }
            case SPLICE -> {
                out = KafkaBatches.copyOf(original);
                ByteBuffer donor = others.get(random.nextInt(others.size()));
                int length = 1 + random.nextInt(Math.min(32, donor.remaining() - RECORDS_OFFSET));
                int from = RECORDS_OFFSET + random.nextInt(donor.remaining() - RECORDS_OFFSET - length + 1);
                int to = RECORDS_OFFSET + random.nextInt(Math.max(1, size - RECORDS_OFFSET - length + 1));
                int fit = Math.min(length, size - to);
                out.put(to, donor, from, fit);
            }
            default -> throw new IllegalStateException();
        }
        out.putInt(BATCH_LENGTH_OFFSET, out.remaining() - LOG_OVERHEAD);
        out.putInt(CRC_OFFSET, new RecordBatchView().wrap(out, 0).computeCrc());
        return out;
    }
}
