package io.sluice.record.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.testing.KafkaBatches;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class RecordBatchViewTest {

    private final RecordBatchView view = new RecordBatchView();

    private static MutableRecordBatch kafkaView(ByteBuffer batch) {
        return MemoryRecords.readableRecords(batch.duplicate())
                .batches()
                .iterator()
                .next();
    }

    private static ByteBuffer idempotentBatch(int codec, int baseSequence) {
        List<KafkaBatches.Rec> recs = List.of(
                new KafkaBatches.Rec(
                        1_000L,
                        "k1".getBytes(StandardCharsets.UTF_8),
                        "v1".getBytes(StandardCharsets.UTF_8),
                        new Header[0]),
                new KafkaBatches.Rec(3_000L, null, "v2".getBytes(StandardCharsets.UTF_8), new Header[0]),
                new KafkaBatches.Rec(2_000L, "k3".getBytes(StandardCharsets.UTF_8), null, new Header[0]));
        return KafkaBatches.batch(codec, recs, 77L, (short) 3, baseSequence, true);
    }

    @Test
    void shouldReadEveryHeaderFieldAsKafkaDoes() {
        for (int codec = 0; codec <= 4; codec++) {
            ByteBuffer batch = idempotentBatch(codec, 10);
            MutableRecordBatch kafka = kafkaView(batch);
            view.wrap(batch, 0);
            assertEquals(kafka.baseOffset(), view.baseOffset());
            assertEquals(kafka.sizeInBytes(), view.sizeInBytes());
            assertEquals(kafka.partitionLeaderEpoch(), view.partitionLeaderEpoch());
            assertEquals(kafka.magic(), view.magic());
            assertEquals((int) kafka.checksum(), view.storedCrc());
            assertEquals(kafka.compressionType().id, view.compressionId());
            assertEquals(kafka.isTransactional(), view.isTransactional());
            assertEquals(kafka.isControlBatch(), view.isControl());
            assertEquals(kafka.timestampType() == TimestampType.LOG_APPEND_TIME, view.isLogAppendTime());
            assertEquals(kafka.lastOffset(), view.lastOffset());
            assertEquals(
                    ((org.apache.kafka.common.record.DefaultRecordBatch) kafka).baseTimestamp(), view.baseTimestamp());
            assertEquals(kafka.maxTimestamp(), view.maxTimestamp());
            assertEquals(kafka.producerId(), view.producerId());
            assertEquals(kafka.producerEpoch(), view.producerEpoch());
            assertEquals(kafka.baseSequence(), view.baseSequence());
            assertEquals(kafka.lastSequence(), view.lastSequence());
            assertEquals(kafka.countOrNull(), view.recordCount());
            assertTrue(view.isCrcValid());
        }
    }

    @Test
    void shouldNeverMoveTheBufferPosition() {
        ByteBuffer padded = ByteBuffer.allocate(200);
        ByteBuffer batch = idempotentBatch(0, 0);
        padded.position(7).put(batch.duplicate()).position(7).limit(7 + batch.remaining());
        view.wrap(padded, 7);
        assertTrue(view.isCrcValid());
        view.stampLogAppendTime(5L);
        assertEquals(7, padded.position());
        assertEquals(7 + batch.remaining(), padded.limit());
    }

    @Test
    void shouldComputeTheSameCrcOnDirectAndReadOnlyBuffers() {
        ByteBuffer heap = idempotentBatch(4, 0);
        int expected = view.wrap(heap, 0).computeCrc();
        assertEquals(expected, view.wrap(KafkaBatches.directCopyOf(heap), 0).computeCrc());
        assertEquals(expected, view.wrap(heap.asReadOnlyBuffer(), 0).computeCrc());
    }

    @Test
    void shouldStampLogAppendTimeExactlyAsKafkaDoes() {
        ByteBuffer ours = idempotentBatch(1, 0);
        ByteBuffer theirs = KafkaBatches.copyOf(ours);
        view.wrap(ours, 0).stampLogAppendTime(123_456L);
        kafkaView(theirs).setMaxTimestamp(TimestampType.LOG_APPEND_TIME, 123_456L);
        assertEquals(theirs, ours);
        assertTrue(view.isLogAppendTime());
        assertEquals(123_456L, view.maxTimestamp());
        assertTrue(kafkaView(ours).isValid());
    }

    @Test
    void shouldAssignOffsetAndLeaderEpochOutsideTheCrc() {
        ByteBuffer batch = idempotentBatch(0, 0);
        view.wrap(batch, 0);
        view.baseOffset(1_000_000L);
        view.partitionLeaderEpoch(42);
        assertTrue(view.isCrcValid());
        MutableRecordBatch kafka = kafkaView(batch);
        assertEquals(1_000_000L, kafka.baseOffset());
        assertEquals(1_000_002L, kafka.lastOffset());
        assertEquals(42, kafka.partitionLeaderEpoch());
        assertTrue(kafka.isValid());
    }

    @Test
    void shouldWrapLastSequenceAroundLikeKafka() {
        ByteBuffer batch = idempotentBatch(0, Integer.MAX_VALUE - 1);
        view.wrap(batch, 0);
        assertEquals(kafkaView(batch).lastSequence(), view.lastSequence());
        assertEquals(0, view.lastSequence());
    }

    @Test
    void shouldDetectACorruptedCoveredByte() {
        ByteBuffer batch = idempotentBatch(0, 0);
        batch.put(batch.limit() - 1, (byte) (batch.get(batch.limit() - 1) ^ 1));
        assertFalse(view.wrap(batch, 0).isCrcValid());
    }
}
