package io.sluice.record.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.testing.KafkaBatches;
import io.sluice.record.testing.KafkaVerdict;
import io.sluice.record.testing.SameBatches;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Random batches from kafka-clients' MemoryRecordsBuilder under random topic policies: Sluice's
 * verdict, error code, per-record error indexes and stamped bytes equal Kafka 3.9's LogValidator.
 */
class BatchValidatorKafkaEquivalenceTest {

    private static final long NOW = 1_700_000_000_000L;

    @Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
    void shouldReachKafkasVerdictAndBytes(
            @ForAll @IntRange(min = 0, max = 4) int codec,
            @ForAll @IntRange(min = 1, max = 2000) int count,
            @ForAll @IntRange(min = 0, max = 102_400) int maxValueSize,
            @ForAll boolean headers,
            @ForAll boolean nullKeys,
            @ForAll boolean compacted,
            @ForAll boolean logAppendTime,
            @ForAll boolean tightTimestamps,
            @ForAll @IntRange(min = 0, max = 7) int sizeMode,
            @ForAll boolean directBuffer,
            @ForAll @IntRange(min = -4, max = 4) int target,
            @ForAll long seed)
            throws Exception {
        Random random = new Random(seed);
        int valueBound = Math.max(1, Math.min(maxValueSize, 600_000 / count));
        List<KafkaBatches.Rec> recs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] key = nullKeys && random.nextInt(4) == 0 ? null : ("key-" + i).getBytes(StandardCharsets.UTF_8);
            byte[] value = random.nextInt(20) == 0 ? null : payload(random, random.nextInt(valueBound));
            Header[] hs = new Header[headers ? random.nextInt(4) : 0];
            for (int h = 0; h < hs.length; h++) {
                hs[h] = new RecordHeader("header-key-" + h, random.nextBoolean() ? null : payload(random, 30));
            }
            long ts = NOW + (tightTimestamps ? random.nextInt(20_000) - 10_000 : -random.nextInt(1000));
            recs.add(new KafkaBatches.Rec(ts, key, value, hs));
        }
        ByteBuffer batch = KafkaBatches.batch(codec, recs);
        TopicValidationPolicy policy = TopicValidationPolicy.defaults()
                .withCompacted(compacted)
                .withLogAppendTime(logAppendTime)
                .withTimestampBounds(tightTimestamps ? 9_000 : Long.MAX_VALUE, tightTimestamps ? 9_000 : Long.MAX_VALUE)
                .withMaxMessageBytes(sizeMode == 0 ? Math.max(1, batch.remaining() - random.nextInt(100)) : 8 << 20)
                .withTargetCompressionId(Math.max(TopicValidationPolicy.PRODUCER_COMPRESSION, target));
        KafkaVerdict kafka = assertSameAsKafka(batch, policy, directBuffer);
        Statistics.label("verdict").collect(kafka.accepted() ? "accepted" : "rejected " + kafka.errorCode());
        Statistics.label("codec").collect(codec);
        Statistics.label("target").collect(policy.targetCompressionId());
    }

    @Example
    void shouldRejectWhatKafkaAcceptsOnlyBeyondTheDecompressionCeiling() {
        byte[] json = new byte[70_000];
        for (int i = 0; i < json.length; i++) {
            json[i] = (byte) "{\"field\":\"value\",\"n\":12345}".charAt(i % 27);
        }
        for (int codec : new int[] {1, 3, 4}) { // snappy cannot expand past the default ratio of 128
            ByteBuffer batch = KafkaBatches.batch(codec, List.of(new KafkaBatches.Rec(NOW, null, json, new Header[0])));
            TopicValidationPolicy policy = TopicValidationPolicy.defaults().withMaxMessageBytes(batch.remaining());
            assertTrue(
                    KafkaBatches.recordsSectionBytes(batch)
                            > ValidatorConfig.defaults().decompressedCeiling(batch.remaining()),
                    "codec " + codec);
            assertTrue(assertSameAsKafka(batch, policy, codec % 2 == 0).accepted(), "Kafka accepts, codec " + codec);
        }
    }

    /**
     * Sluice reaches Kafka's verdict, except where it must differ by design: a compressed batch
     * whose records decompress to more than {@link ValidatorConfig#decompressedCeiling} (Kafka has
     * no such bound) is rejected, with MESSAGE_TOO_LARGE naming the ceiling or with Kafka's own
     * error when that error is found first.
     */
    static KafkaVerdict assertSameAsKafka(ByteBuffer batch, TopicValidationPolicy policy, boolean direct) {
        KafkaVerdict kafka = KafkaVerdict.of(batch, policy, NOW);
        ByteBuffer ours = direct ? KafkaBatches.directCopyOf(batch) : KafkaBatches.copyOf(batch);
        ValidatorConfig config = ValidatorConfig.defaults();
        long ceiling = config.decompressedCeiling(policy.maxMessageBytes());
        boolean aboveCeiling =
                new RecordBatchView().wrap(batch, batch.position()).compressionId() != 0
                        && KafkaBatches.recordsSectionBytes(batch) > ceiling;
        try (BatchValidator validator = new BatchValidator(config)) {
            ValidatedRecords result = validator.validate(ours, policy, NOW);
            assertFalse(aboveCeiling, "Sluice accepted a batch that decompresses beyond its ceiling of " + ceiling);
            assertEquals(0, kafka.errorCode(), "Sluice accepted, Kafka rejected");
            RecordBatchView view = new RecordBatchView()
                    .wrap(result.records(), result.records().position());
            view.partitionLeaderEpoch(KafkaVerdict.LEADER_EPOCH);
            if (result.recompressedBatches() == 0 || policy.targetCompressionId() == 0) {
                assertEquals(kafka.records(), result.records(), "stamped bytes differ from Kafka's");
            } else {
                SameBatches.assertSameContent(kafka.records(), result.records());
            }
            assertEquals(kafka.maxTimestamp(), result.maxTimestamp());
        } catch (RecordValidationException e) {
            if (aboveCeiling
                    && e.errorCode() == KafkaErrorCodes.MESSAGE_TOO_LARGE
                    && e.getMessage().contains("ceiling")) {
                return kafka;
            }
            assertEquals(kafka.errorCode(), e.errorCode(), "error code differs from Kafka's: " + e.getMessage());
            assertEquals(
                    kafka.recordErrorIndexes(),
                    e.recordErrors().stream().map(RecordError::batchIndex).toList());
        }
        return kafka;
    }

    static byte[] payload(Random random, int size) {
        byte[] bytes = new byte[size];
        if (random.nextBoolean()) {
            random.nextBytes(bytes);
        } else {
            for (int i = 0; i < size; i++) {
                bytes[i] = (byte) ("{\"field\":\"value\",\"n\":12345}".charAt(i % 27));
            }
        }
        return bytes;
    }
}
