package io.sluice.log.batch;

import static io.sluice.record.batch.RecordBatchDescriptor.LOG_OVERHEAD;
import static io.sluice.record.batch.RecordBatchDescriptor.MAGIC_V2;
import static io.sluice.record.batch.RecordBatchDescriptor.NO_PRODUCER_ID;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORD_BATCH_OVERHEAD;

import io.sluice.record.batch.RecordBatchView;

/**
 * The header checks storage needs before trusting a batch's length and offsets, whether the bytes come from a
 * producer (already validated upstream) or from a segment file being recovered. Stateless; thread-safe.
 */
public final class BatchFraming {
    private BatchFraming() {}

    /**
     * @param available bytes available from the batch start; the header must already be readable when
     *                  {@code available >= RECORD_BATCH_OVERHEAD}
     * @return null when the header is sane, else a description naming the field and the value seen
     */
    public static String check(RecordBatchView batch, long available) {
        if (available < RECORD_BATCH_OVERHEAD) {
            return "only " + available + " bytes left, a batch header needs " + RECORD_BATCH_OVERHEAD;
        }
        int length = batch.batchLength();
        if (length < RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) {
            return "batchLength " + length + " is below the minimum " + (RECORD_BATCH_OVERHEAD - LOG_OVERHEAD);
        }
        if (length > available - LOG_OVERHEAD) {
            return "batchLength " + length + " exceeds the " + (available - LOG_OVERHEAD) + " bytes available";
        }
        if (batch.magic() != MAGIC_V2) {
            return "magic " + batch.magic() + " is not " + MAGIC_V2;
        }
        if (batch.lastOffsetDelta() < 0) {
            return "lastOffsetDelta " + batch.lastOffsetDelta() + " is negative";
        }
        return null;
    }

    public static boolean hasProducerId(RecordBatchView batch) {
        return batch.producerId() != NO_PRODUCER_ID;
    }
}
