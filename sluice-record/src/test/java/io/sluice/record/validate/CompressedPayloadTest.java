package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BATCH_LENGTH_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_LZ4;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_SNAPPY;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.testing.KafkaBatches;
import io.sluice.record.testing.KafkaVerdict;
import io.sluice.record.testing.SameBatches;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.xerial.snappy.Snappy;

/** Codec framings other producers write, decompression bombs, recompression and close(). */
class CompressedPayloadTest {

    private static final long NOW = 1_700_000_000_000L;
    private final TopicValidationPolicy policy = TopicValidationPolicy.defaults();

    /** The batch with its records section replaced by {@code payload} under codec {@code codecId}. */
    private static ByteBuffer withPayload(ByteBuffer uncompressed, byte[] payload, int codecId) {
        ByteBuffer batch = ByteBuffer.allocate(RECORDS_OFFSET + payload.length);
        batch.put(0, uncompressed, 0, RECORDS_OFFSET);
        batch.put(RECORDS_OFFSET, payload);
        batch.putInt(BATCH_LENGTH_OFFSET, batch.capacity() - LOG_OVERHEAD);
        batch.putShort(ATTRIBUTES_OFFSET, (short) (uncompressed.getShort(ATTRIBUTES_OFFSET) | codecId));
        batch.putInt(CRC_OFFSET, new RecordBatchView().wrap(batch, 0).computeCrc());
        return batch;
    }

    private static byte[] recordsSection(ByteBuffer uncompressed) {
        byte[] records = new byte[uncompressed.remaining() - RECORDS_OFFSET];
        uncompressed.get(RECORDS_OFFSET, records);
        return records;
    }

    @Test
    void shouldAcceptRawSnappyWithoutXerialFramingLikeKafka() throws Exception {
        ByteBuffer plain = KafkaBatches.simple(0, 50, 200, NOW);
        ByteBuffer batch = withPayload(plain, Snappy.compress(recordsSection(plain)), COMPRESSION_SNAPPY);
        KafkaVerdict kafka = KafkaVerdict.of(batch, policy, NOW);
        assertTrue(kafka.accepted(), "Kafka accepts raw snappy, code " + kafka.errorCode());
        BatchValidatorKafkaEquivalenceTest.assertSameAsKafka(batch, policy, false);
        BatchValidatorKafkaEquivalenceTest.assertSameAsKafka(batch, policy, true);
    }

    @Test
    void shouldAcceptLz4FramesWithBlockAndContentChecksums() throws Exception {
        ByteBuffer plain = KafkaBatches.simple(0, 300, 500, NOW);
        byte[] records = recordsSection(plain);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream lz4 = new LZ4FrameOutputStream(
                out,
                LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM,
                LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM)) {
            lz4.write(records);
        }
        ByteBuffer batch = withPayload(plain, out.toByteArray(), COMPRESSION_LZ4);
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            assertEquals(
                    300,
                    validator.validate(KafkaBatches.copyOf(batch), policy, NOW).recordCount());
        }
        BatchValidatorKafkaEquivalenceTest.assertSameAsKafka(batch, policy, false);
    }

    @Test
    void shouldRejectAnLz4BlockChecksumMismatchAsCorrupt() throws Exception {
        ByteBuffer plain = KafkaBatches.simple(0, 20, 50, NOW);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream lz4 = new LZ4FrameOutputStream(
                out,
                LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM)) {
            lz4.write(recordsSection(plain));
        }
        byte[] frame = out.toByteArray();
        frame[frame.length - 5] ^= 1; // last byte of the block checksum, just before the end mark
        ByteBuffer batch = withPayload(plain, frame, COMPRESSION_LZ4);
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            RecordValidationException e =
                    assertThrows(RecordValidationException.class, () -> validator.validate(batch, policy, NOW));
            assertEquals(KafkaErrorCodes.CORRUPT_MESSAGE, e.errorCode());
            assertTrue(e.getMessage().contains("block checksum"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldStopADecompressionBombAtTheCeilingWithoutGrowingMemory(int codec) {
        List<KafkaBatches.Rec> recs = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            recs.add(new KafkaBatches.Rec(NOW, null, new byte[1 << 20], new Header[0]));
        }
        ByteBuffer bomb = KafkaBatches.batch(codec, recs);
        ValidatorConfig tight = new ValidatorConfig(
                ValidatorConfig.DEFAULT_DECOMPRESSION_WINDOW_BYTES, 4, ValidatorConfig.DEFAULT_MAX_DECOMPRESSED_BYTES);
        TopicValidationPolicy topic = policy.withMaxMessageBytes(2 << 20);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (BatchValidator validator = new BatchValidator(tight)) {
            long before = threads.getCurrentThreadAllocatedBytes();
            RecordValidationException e =
                    assertThrows(RecordValidationException.class, () -> validator.validate(bomb, topic, NOW));
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(KafkaErrorCodes.MESSAGE_TOO_LARGE, e.errorCode(), e.getMessage());
            assertTrue(e.getMessage().contains("ceiling of " + (8L << 20)), e.getMessage());
            assertTrue(allocated < (1 << 20), "heap allocated while stopping the bomb: " + allocated);
        }
    }

    @Test
    void shouldRecompressIntoTheTopicCodecCountItAndLeaveTheProducerBytesAlone() throws Exception {
        ByteBuffer batch = KafkaBatches.simple(3, 100, 100, NOW);
        ByteBuffer original = KafkaBatches.copyOf(batch);
        TopicValidationPolicy zstdTopic = policy.withTargetCompressionId(4).withLogAppendTime(true);
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            ValidatedRecords result = validator.validate(batch, zstdTopic, NOW);
            assertEquals(1, result.recompressedBatches());
            assertNotSame(batch, result.records());
            assertEquals(original, batch);
            RecordBatchView view = new RecordBatchView().wrap(result.records(), 0);
            assertEquals(4, view.compressionId());
            assertTrue(view.isCrcValid());
            assertTrue(view.isLogAppendTime());
            view.partitionLeaderEpoch(KafkaVerdict.LEADER_EPOCH);
            SameBatches.assertSameContent(
                    KafkaVerdict.of(original, zstdTopic, NOW).records(), result.records());
            assertEquals(
                    0,
                    validator
                            .validate(KafkaBatches.copyOf(original), policy, NOW)
                            .recompressedBatches());
        }
    }

    @Test
    void shouldRejectARecompressedBatchThatOutgrowsMaxMessageBytes() {
        ByteBuffer batch = KafkaBatches.simple(4, 200, 200, NOW);
        TopicValidationPolicy uncompressedTopic =
                policy.withTargetCompressionId(0).withMaxMessageBytes(batch.remaining() + 100);
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            RecordValidationException e = assertThrows(
                    RecordValidationException.class, () -> validator.validate(batch, uncompressedTopic, NOW));
            assertEquals(KafkaErrorCodes.MESSAGE_TOO_LARGE, e.errorCode());
            assertTrue(e.getMessage().contains("after recompression"), e.getMessage());
        }
    }

    @Test
    void shouldCloseIdempotentlyAndReopenCodecsLazily() throws Exception {
        BatchValidator validator = new BatchValidator(ValidatorConfig.defaults());
        for (int codec = 1; codec <= 4; codec++) {
            validator.validate(KafkaBatches.simple(codec, 3, 10, NOW), policy.withTargetCompressionId(5 - codec), NOW);
        }
        validator.close();
        validator.close();
        assertEquals(
                3,
                validator
                        .validate(KafkaBatches.simple(4, 3, 10, NOW), policy, NOW)
                        .recordCount());
        validator.close();
    }

    @Test
    void shouldRefuseConfigurationsThatCannotWork() {
        assertThrows(IllegalArgumentException.class, () -> new ValidatorConfig(100, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ValidatorConfig(4096, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ValidatorConfig(4096, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> policy.withMaxMessageBytes(0));
        assertThrows(IllegalArgumentException.class, () -> policy.withTargetCompressionId(5));
    }
}
