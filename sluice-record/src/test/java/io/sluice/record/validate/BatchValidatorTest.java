package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BASE_OFFSET_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BASE_SEQUENCE_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.CONTROL_FLAG_MASK;
import static io.sluice.record.batch.RecordBatchDescriptor.CRC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.LAST_OFFSET_DELTA_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.MAGIC_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.PRODUCER_ID_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_COUNT_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.TIMESTAMP_TYPE_MASK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.testing.KafkaBatches;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BatchValidatorTest {

    private static final long NOW = 1_700_000_000_000L;
    private final BatchValidator validator = new BatchValidator(ValidatorConfig.defaults());
    private final TopicValidationPolicy policy = TopicValidationPolicy.defaults();

    @AfterEach
    void closeValidator() {
        validator.close();
    }

    private static void recomputeCrc(ByteBuffer batch) {
        batch.putInt(CRC_OFFSET, new RecordBatchView().wrap(batch, 0).computeCrc());
    }

    private RecordValidationException rejected(ByteBuffer batch, TopicValidationPolicy topic) {
        return assertThrows(RecordValidationException.class, () -> validator.validate(batch, topic, NOW));
    }

    @Test
    void shouldAcceptAKafkaBatchInPlaceAndReportItsShape() throws Exception {
        ByteBuffer batch = KafkaBatches.simple(0, 5, 20, NOW - 10);
        ByteBuffer original = KafkaBatches.copyOf(batch);
        ValidatedRecords result = validator.validate(batch, policy, NOW);
        assertSame(batch, result.records());
        assertEquals(0, batch.position());
        assertEquals(1, result.batchCount());
        assertEquals(5, result.recordCount());
        assertEquals(NOW - 6, result.maxTimestamp());
        assertEquals(4, result.maxTimestampOffsetDelta());
        assertEquals(0, result.recompressedBatches());
        assertEquals(original, batch);
        assertSame(result, validator.validate(KafkaBatches.simple(0, 1, 1, NOW), policy, NOW));
    }

    @Test
    void shouldAcceptACompressedLz4BatchUnderACeilingBelowLz4sBlockSize() throws Exception {
        // max.message.bytes 400 gives a decompression ceiling of 51,200 bytes, below the 64 KiB
        // block maximum Kafka's lz4 frames declare: only the bytes produced count against it
        ByteBuffer batch = KafkaBatches.simple(3, 10, 30, NOW);
        TopicValidationPolicy small = policy.withMaxMessageBytes(400);
        assertTrue(ValidatorConfig.defaults().decompressedCeiling(400) < 64 * 1024);
        assertTrue(
                org.apache.kafka.common.record.CompressionType.LZ4 == KafkaBatches.codec(3)
                        && io.sluice.record.testing.KafkaVerdict.of(batch, small, NOW)
                                .accepted(),
                "Kafka accepts it");
        assertEquals(
                10, validator.validate(KafkaBatches.copyOf(batch), small, NOW).recordCount());
    }

    @Test
    void shouldRecompressUnderACeilingBelowTheDrainChunk() throws Exception {
        // max.message.bytes 450 gives a ceiling (57,600 bytes) below the 64 KiB chunks the recompressor
        // drains the payload in: only the bytes produced count against it
        for (int codec = 1; codec <= 4; codec++) {
            ByteBuffer batch = KafkaBatches.simple(codec, 10, 30, NOW);
            TopicValidationPolicy small = policy.withMaxMessageBytes(450).withTargetCompressionId(codec == 4 ? 1 : 4);
            assertTrue(ValidatorConfig.defaults().decompressedCeiling(small.maxMessageBytes()) < 64 * 1024);
            assertTrue(
                    io.sluice.record.testing.KafkaVerdict.of(batch, small, NOW).accepted(), "Kafka accepts it");
            ValidatedRecords result = validator.validate(KafkaBatches.copyOf(batch), small, NOW);
            assertEquals(1, result.recompressedBatches(), "codec " + codec);
            assertEquals(10, result.recordCount());
        }
    }

    @Test
    void shouldStampLogAppendTimeWhenTheTopicAsksForIt() throws Exception {
        ByteBuffer batch = KafkaBatches.simple(0, 3, 10, 5L);
        ValidatedRecords result = validator.validate(batch, policy.withLogAppendTime(true), NOW);
        MutableRecordBatch kafka =
                MemoryRecords.readableRecords(batch).batches().iterator().next();
        assertEquals(TimestampType.LOG_APPEND_TIME, kafka.timestampType());
        assertEquals(NOW, kafka.maxTimestamp());
        assertTrue(kafka.isValid());
        assertEquals(NOW, result.maxTimestamp());
    }

    @Test
    void shouldRejectAnEmptyRecordSet() {
        assertEquals(
                KafkaErrorCodes.INVALID_RECORD,
                rejected(ByteBuffer.allocate(0), policy).errorCode());
    }

    @Test
    void shouldRejectTwoBatchesInOneRequestPartition() {
        ByteBuffer one = KafkaBatches.simple(0, 2, 5, NOW);
        ByteBuffer two = ByteBuffer.allocate(one.remaining() * 2);
        two.put(one.duplicate()).put(one.duplicate()).flip();
        RecordValidationException e = rejected(two, policy);
        assertEquals(KafkaErrorCodes.INVALID_RECORD, e.errorCode());
        assertTrue(e.getMessage().contains("more than one record batch"), e.getMessage());
    }

    @Test
    void shouldRejectATruncatedBatchAsCorrupt() {
        ByteBuffer batch = KafkaBatches.simple(0, 2, 5, NOW);
        batch.limit(batch.limit() - 1);
        RecordValidationException e = rejected(batch, policy);
        assertEquals(KafkaErrorCodes.CORRUPT_MESSAGE, e.errorCode());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void shouldRejectOldMagicAsUnsupportedFormat() {
        ByteBuffer batch = KafkaBatches.simple(0, 2, 5, NOW);
        batch.put(MAGIC_OFFSET, (byte) 1);
        assertEquals(
                KafkaErrorCodes.UNSUPPORTED_FOR_MESSAGE_FORMAT,
                rejected(batch, policy).errorCode());
    }

    @Test
    void shouldRejectAnUnknownMagicAsCorrupt() {
        ByteBuffer batch = KafkaBatches.simple(0, 2, 5, NOW);
        batch.put(MAGIC_OFFSET, (byte) 9);
        assertEquals(KafkaErrorCodes.CORRUPT_MESSAGE, rejected(batch, policy).errorCode());
    }

    @Test
    void shouldRejectACrcMismatchNamingBothValues() {
        ByteBuffer batch = KafkaBatches.simple(0, 2, 5, NOW);
        batch.put(batch.limit() - 1, (byte) (batch.get(batch.limit() - 1) + 1));
        RecordValidationException e = rejected(batch, policy);
        assertEquals(KafkaErrorCodes.CORRUPT_MESSAGE, e.errorCode());
        assertTrue(e.getMessage().contains("crc stored"), e.getMessage());
    }

    @Test
    void shouldRejectANonZeroBaseOffset() {
        ByteBuffer batch = KafkaBatches.simple(0, 2, 5, NOW);
        batch.putLong(BASE_OFFSET_OFFSET, 3L);
        RecordValidationException e = rejected(batch, policy);
        assertEquals(KafkaErrorCodes.INVALID_RECORD, e.errorCode());
        assertTrue(e.getMessage().contains("baseOffset"), e.getMessage());
    }

    @Test
    void shouldRejectABatchAboveMaxMessageBytes() {
        ByteBuffer batch = KafkaBatches.simple(0, 10, 100, NOW);
        RecordValidationException e = rejected(batch, policy.withMaxMessageBytes(batch.remaining() - 1));
        assertEquals(KafkaErrorCodes.MESSAGE_TOO_LARGE, e.errorCode());
    }

    @Test
    void shouldRejectALastOffsetDeltaThatDisagreesWithTheCount() {
        ByteBuffer batch = KafkaBatches.simple(0, 3, 5, NOW);
        batch.putInt(LAST_OFFSET_DELTA_OFFSET, 5);
        recomputeCrc(batch);
        assertEquals(KafkaErrorCodes.INVALID_RECORD, rejected(batch, policy).errorCode());
    }

    @Test
    void shouldRejectADeclaredCountAboveTheRecordsPresent() {
        ByteBuffer batch = KafkaBatches.simple(0, 3, 5, NOW);
        batch.putInt(RECORDS_COUNT_OFFSET, 4);
        batch.putInt(LAST_OFFSET_DELTA_OFFSET, 3);
        recomputeCrc(batch);
        RecordValidationException e = rejected(batch, policy);
        assertEquals(KafkaErrorCodes.INVALID_RECORD, e.errorCode());
        assertTrue(e.getMessage().contains("end early"), e.getMessage());
    }

    @Test
    void shouldRejectTrailingBytesAfterTheDeclaredRecords() {
        ByteBuffer batch = KafkaBatches.simple(0, 3, 5, NOW);
        batch.putInt(RECORDS_COUNT_OFFSET, 2);
        batch.putInt(LAST_OFFSET_DELTA_OFFSET, 1);
        recomputeCrc(batch);
        RecordValidationException e = rejected(batch, policy);
        assertEquals(KafkaErrorCodes.INVALID_RECORD, e.errorCode());
        assertTrue(e.getMessage().contains("bytes remain"), e.getMessage());
    }

    @Test
    void shouldRejectControlBatchesFromClients() {
        ByteBuffer batch = KafkaBatches.simple(0, 1, 5, NOW);
        batch.putShort(ATTRIBUTES_OFFSET, (short) CONTROL_FLAG_MASK);
        recomputeCrc(batch);
        assertEquals(KafkaErrorCodes.INVALID_RECORD, rejected(batch, policy).errorCode());
    }

    @Test
    void shouldRejectAProducerIdWithoutASequence() {
        ByteBuffer batch = KafkaBatches.simple(0, 1, 5, NOW);
        batch.putLong(PRODUCER_ID_OFFSET, 9L);
        batch.putInt(BASE_SEQUENCE_OFFSET, -1);
        recomputeCrc(batch);
        RecordValidationException e = rejected(batch, policy);
        assertEquals(KafkaErrorCodes.INVALID_RECORD, e.errorCode());
        assertTrue(e.getMessage().contains("baseSequence -1"), e.getMessage());
    }

    @Test
    void shouldRejectAnUnknownCodecId() {
        ByteBuffer batch = KafkaBatches.simple(0, 1, 5, NOW);
        batch.putShort(ATTRIBUTES_OFFSET, (short) 6);
        recomputeCrc(batch);
        assertEquals(
                KafkaErrorCodes.UNSUPPORTED_COMPRESSION_TYPE,
                rejected(batch, policy).errorCode());
    }

    @Test
    void shouldRejectAWrongOffsetDeltaWithAPerRecordError() {
        ByteBuffer batch = KafkaBatches.batch(0, List.of(new KafkaBatches.Rec(NOW, null, null, new Header[0])));
        // Record 0 starts at RECORDS_OFFSET: length, attributes, timestampDelta (1 byte each here), offsetDelta.
        batch.put(RECORDS_OFFSET + 3, (byte) 2);
        recomputeCrc(batch);
        RecordValidationException e = rejected(batch, policy);
        assertEquals(KafkaErrorCodes.INVALID_RECORD, e.errorCode());
        assertEquals(0, e.recordErrors().get(0).batchIndex());
        assertTrue(e.recordErrors().get(0).message().contains("offsetDelta 1"), e.getMessage());
    }

    @Test
    void shouldCheckEveryRecordOfARunOfOneLayout() {
        // 60 records of one layout (1-byte length, attributes, deltas): record i starts i * size
        // after the first, with attributes at +1, timestampDelta at +2 and offsetDelta at +3.
        List<KafkaBatches.Rec> recs = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            recs.add(new KafkaBatches.Rec(NOW, null, new byte[20], new Header[0]));
        }
        ByteBuffer intact = KafkaBatches.batch(0, recs);
        int size = (intact.remaining() - RECORDS_OFFSET) / 60;
        Object[][] forgeries = {
            {10, 3, 2 * 11, "offsetDelta 11 of record 10"},
            {30, 1, 1, "record attributes 1 must be 0"},
            {45, 2, 2 * 30, "timestamp " + (NOW + 30)},
            {59, 3, 2 * 58, "offsetDelta 58 of record 59"}
        };
        for (boolean direct : new boolean[] {false, true}) {
            for (Object[] forgery : forgeries) {
                int index = (int) forgery[0];
                ByteBuffer batch = KafkaBatches.copyOf(intact);
                batch.put(RECORDS_OFFSET + index * size + (int) forgery[1], (byte) (int) forgery[2]);
                recomputeCrc(batch);
                RecordValidationException e =
                        rejected(direct ? KafkaBatches.directCopyOf(batch) : batch, policy.withTimestampBounds(10, 10));
                assertEquals(
                        List.of(index),
                        e.recordErrors().stream().map(RecordError::batchIndex).toList());
                assertTrue(e.recordErrors().get(0).message().contains((String) forgery[3]), e.getMessage());
            }
        }
    }

    @Test
    void shouldRejectRecordsWithoutKeyOnACompactedTopic() {
        ByteBuffer batch = KafkaBatches.batch(
                0,
                List.of(
                        new KafkaBatches.Rec(NOW, "k".getBytes(StandardCharsets.UTF_8), null, new Header[0]),
                        new KafkaBatches.Rec(NOW, null, "v".getBytes(StandardCharsets.UTF_8), new Header[0])));
        RecordValidationException e = rejected(batch, policy.withCompacted(true));
        assertEquals(KafkaErrorCodes.INVALID_RECORD, e.errorCode());
        assertEquals(
                List.of(1),
                e.recordErrors().stream().map(RecordError::batchIndex).toList());
    }

    @Test
    void shouldRejectTimestampsOutsideTheTopicBoundsPerRecord() {
        ByteBuffer batch = KafkaBatches.batch(
                0,
                List.of(
                        new KafkaBatches.Rec(NOW - 5_000, null, null, new Header[0]),
                        new KafkaBatches.Rec(NOW, null, null, new Header[0]),
                        new KafkaBatches.Rec(NOW + 5_000, null, null, new Header[0])));
        RecordValidationException e = rejected(batch, policy.withTimestampBounds(1_000, 1_000));
        assertEquals(KafkaErrorCodes.INVALID_TIMESTAMP, e.errorCode());
        assertEquals(
                List.of(0, 2),
                e.recordErrors().stream().map(RecordError::batchIndex).toList());
        assertTrue(e.recordErrors().get(0).message().contains(Long.toString(NOW - 5_000)));
    }

    @Test
    void shouldRejectProducerSetLogAppendTimeOnALogAppendTimeTopic() {
        ByteBuffer batch = KafkaBatches.simple(0, 1, 5, NOW);
        batch.putShort(ATTRIBUTES_OFFSET, (short) TIMESTAMP_TYPE_MASK);
        recomputeCrc(batch);
        assertEquals(
                KafkaErrorCodes.INVALID_TIMESTAMP,
                rejected(batch, policy.withLogAppendTime(true)).errorCode());
    }

    @Test
    void shouldValidateABatchInsideALargerBufferWithoutMovingIt() throws Exception {
        ByteBuffer batch = KafkaBatches.simple(0, 4, 30, NOW);
        ByteBuffer frame = ByteBuffer.allocateDirect(batch.remaining() + 20);
        frame.position(9);
        frame.put(batch.duplicate());
        frame.position(9).limit(9 + batch.remaining());
        validator.validate(frame, policy, NOW);
        assertEquals(9, frame.position());
        assertEquals(9 + batch.remaining(), frame.limit());
    }
}
