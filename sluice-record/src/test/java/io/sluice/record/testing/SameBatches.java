package io.sluice.record.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Iterator;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.utils.Utils;

/**
 * Compares two record sets as a Kafka consumer would see them (every batch field and every
 * record field), for batches whose compressed bytes may legitimately differ.
 *
 * <p>Stateless; thread-safe.
 */
public final class SameBatches {

    private SameBatches() {}

    public static void assertSameContent(ByteBuffer expected, ByteBuffer actual) {
        Iterator<MutableRecordBatch> theirs =
                MemoryRecords.readableRecords(expected.duplicate()).batches().iterator();
        Iterator<MutableRecordBatch> ours =
                MemoryRecords.readableRecords(actual.duplicate()).batches().iterator();
        while (theirs.hasNext()) {
            assertTrue(ours.hasNext(), "fewer batches than expected");
            MutableRecordBatch e = theirs.next();
            MutableRecordBatch a = ours.next();
            assertTrue(a.isValid(), "batch CRC invalid");
            assertEquals(e.baseOffset(), a.baseOffset());
            assertEquals(e.lastOffset(), a.lastOffset());
            assertEquals(e.compressionType(), a.compressionType());
            assertEquals(e.timestampType(), a.timestampType());
            assertEquals(e.maxTimestamp(), a.maxTimestamp());
            assertEquals(e.producerId(), a.producerId());
            assertEquals(e.producerEpoch(), a.producerEpoch());
            assertEquals(e.baseSequence(), a.baseSequence());
            assertEquals(e.isTransactional(), a.isTransactional());
            assertEquals(e.partitionLeaderEpoch(), a.partitionLeaderEpoch());
            assertEquals(e.countOrNull(), a.countOrNull());
            Iterator<Record> er = e.iterator();
            Iterator<Record> ar = a.iterator();
            while (er.hasNext()) {
                Record x = er.next();
                Record y = ar.next();
                assertEquals(x.offset(), y.offset());
                assertEquals(x.timestamp(), y.timestamp());
                assertEquals(x.sequence(), y.sequence());
                assertEquals(
                        x.hasKey() ? Utils.toArray(x.key()).length : -1,
                        y.hasKey() ? Utils.toArray(y.key()).length : -1);
                if (x.hasKey()) {
                    assertArrayEquals(Utils.toArray(x.key()), Utils.toArray(y.key()));
                }
                assertEquals(x.hasValue(), y.hasValue());
                if (x.hasValue()) {
                    assertArrayEquals(Utils.toArray(x.value()), Utils.toArray(y.value()));
                }
                assertArrayEquals(x.headers(), y.headers());
            }
            assertTrue(!ar.hasNext(), "more records than expected");
        }
        assertTrue(!ours.hasNext(), "more batches than expected");
    }
}
