package io.sluice.record.validate;

import java.nio.ByteBuffer;

/**
 * Outcome of one successful {@link BatchValidator#validate} call. The validator returns the same
 * instance on every call and overwrites it: read it before the next call.
 *
 * <p>Not thread-safe; owned by its {@link BatchValidator}.
 */
public final class ValidatedRecords {

    private ByteBuffer records;
    private int batchCount;
    private int recordCount;
    private long maxTimestamp;
    private int maxTimestampOffsetDelta;
    private int recompressedBatches;

    ValidatedRecords() {}

    void set(
            ByteBuffer records,
            int batchCount,
            int recordCount,
            long maxTimestamp,
            int maxTimestampOffsetDelta,
            int recompressedBatches) {
        this.records = records;
        this.batchCount = batchCount;
        this.recordCount = recordCount;
        this.maxTimestamp = maxTimestamp;
        this.maxTimestampOffsetDelta = maxTimestampOffsetDelta;
        this.recompressedBatches = recompressedBatches;
    }

    /**
     * The bytes to append, from position to limit: the caller's own buffer (same instance,
     * position and limit untouched, validated batches stamped in place) or, when a batch was
     * recompressed, a buffer owned by the validator that stays valid until its next call.
     */
    public ByteBuffer records() {
        return records;
    }

    public int batchCount() {
        return batchCount;
    }

    public int recordCount() {
        return recordCount;
    }

    /** Largest record timestamp (CreateTime) or the stamped now (LogAppendTime); -1 if none. */
    public long maxTimestamp() {
        return maxTimestamp;
    }

    /**
     * Offset delta (from the first record) of the record holding {@link #maxTimestamp()}, for the
     * time index: the first record having it for CreateTime, the last record for LogAppendTime.
     */
    public int maxTimestampOffsetDelta() {
        return maxTimestampOffsetDelta;
    }

    /** Batches rewritten because the topic's codec differs from the producer's (a metric). */
    public int recompressedBatches() {
        return recompressedBatches;
    }
}
