package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.batch.RecordCursor;
import java.util.ArrayList;
import java.util.List;

/**
 * Per-record checks of one batch; collects per-record errors (allocating only on failure) and
 * the max timestamp as Kafka computes it.
 *
 * <p>Not thread-safe; one per validator, started afresh for every batch.
 */
final class RecordChecks {
    private TopicValidationPolicy policy;
    private long nowMs;
    private long baseTimestamp;
    private boolean batchLogAppendTime;
    private long batchMaxTimestamp;
    private long maxTimestamp;
    private int maxTimestampOffsetDelta;
    private List<RecordError> errors;
    private boolean timestampError;

    void start(RecordBatchView batch, TopicValidationPolicy topic, long now) {
        this.policy = topic;
        this.nowMs = now;
        this.baseTimestamp = batch.baseTimestamp();
        this.batchLogAppendTime = batch.isLogAppendTime();
        this.batchMaxTimestamp = batch.maxTimestamp();
        this.maxTimestamp = NO_TIMESTAMP;
        this.maxTimestampOffsetDelta = -1;
        this.errors = null;
        this.timestampError = false;
    }

    /**
     * Checks the {@code run} records the cursor's last run read, from {@code index}; returns the
     * next index. What the cursor gathered from the run as it read it decides the common case (every
     * record valid): the OR of all attributes, whether the offset deltas follow on from
     * {@code index}, and the least and greatest timestamp deltas. When they show every record
     * passes, that is the verdict record by record would give (the bounds hold for every
     * timestamp between two that pass, see {@link #boundsHoldBetween}); otherwise the records are
     * checked one by one, which names every failure.
     */
    int run(int index, RecordCursor records, int run) {
        if (!batchLogAppendTime
                && !(policy.compacted() && records.keyLength() < 0)
                && records.runAttributesOr() == 0
                && records.runOffsetDeltasFollowOn()
                && records.runOffsetDelta(0) == index) {
            long leastDelta = records.runLeastTimestampDelta();
            long greatestDelta = records.runGreatestTimestampDelta();
            long least = baseTimestamp + leastDelta;
            long greatest = baseTimestamp + greatestDelta;
            // A record without timestamp (-1) is not bounds-checked and never the max: when the
            // bounds hold across [least, greatest] it passes either way, and is never above both.
            // Adding the base timestamp keeps the order of the deltas unless an end overflows.
            if (!overflows(leastDelta, least)
                    && !overflows(greatestDelta, greatest)
                    && (policy.logAppendTime() || boundsHoldBetween(least, greatest))) {
                if (greatest > maxTimestamp) {
                    maxTimestamp = greatest;
                    maxTimestampOffsetDelta = index + records.runGreatestTimestampAt();
                }
                return index + run;
            }
        }
        int keyLength = records.keyLength();
        for (int k = 0; k < run; k++) {
            record(
                    index + k,
                    records.runAttributes(k),
                    records.runTimestampDelta(k),
                    records.runOffsetDelta(k),
                    keyLength);
        }
        return index + run;
    }

    /** True when {@code sum = baseTimestamp + delta} overflowed. */
    private boolean overflows(long delta, long sum) {
        return ((baseTimestamp ^ sum) & (delta ^ sum)) < 0;
    }

    /**
     * True when every timestamp in {@code [least, greatest]} passes the topic's bounds as
     * {@link #record} checks them. When {@code now - t} neither overflows nor is
     * {@link Long#MIN_VALUE} at both ends, it falls steadily across the range and the check passes
     * exactly for an interval of it, so passing at both ends means passing everywhere between.
     */
    private boolean boundsHoldBetween(long least, long greatest) {
        long fromLeast = nowMs - least;
        long fromGreatest = nowMs - greatest;
        return steady(least, fromLeast)
                && steady(greatest, fromGreatest)
                && withinBounds(fromLeast)
                && withinBounds(fromGreatest);
    }

    /** True when {@code difference = now - timestamp} did not overflow and is not {@link Long#MIN_VALUE}. */
    private boolean steady(long timestamp, long difference) {
        return ((nowMs ^ timestamp) & (nowMs ^ difference)) >= 0 && difference != Long.MIN_VALUE;
    }

    private boolean withinBounds(long diff) {
        return !(diff > policy.timestampBeforeMaxMs() || -1 * diff > policy.timestampAfterMaxMs());
    }

    void record(int index, RecordCursor record) {
        record(index, record.attributes(), record.timestampDelta(), record.offsetDelta(), record.keyLength());
    }

    void record(int index, byte attributes, long timestampDelta, int offsetDelta, int keyLength) {
        if (offsetDelta != index) {
            fail(index, "offsetDelta " + offsetDelta + " of record " + index + ", expected " + index, false);
            return;
        }
        if (attributes != 0) {
            fail(index, "record attributes " + attributes + " must be 0 in magic 2", false);
            return;
        }
        if (policy.compacted() && keyLength < 0) {
            fail(index, "key is null (keyLength " + keyLength + ") but the topic is compacted", false);
            return;
        }
        long timestamp = batchLogAppendTime ? batchMaxTimestamp : baseTimestamp + timestampDelta;
        if (!policy.logAppendTime() && timestamp != NO_TIMESTAMP) {
            long diff = nowMs - timestamp;
            if (!withinBounds(diff)) {
                fail(
                        index,
                        "timestamp " + timestamp + " of record " + index + " is out of range [now - "
                                + policy.timestampBeforeMaxMs() + ", now + " + policy.timestampAfterMaxMs()
                                + "] with now " + nowMs,
                        true);
                return;
            }
        } else if (batchLogAppendTime) {
            fail(index, "batch timestamp type is LogAppendTime: producers may not set it", true);
            return;
        }
        if (timestamp > maxTimestamp) {
            maxTimestamp = timestamp;
            maxTimestampOffsetDelta = index;
        }
    }

    void finish() throws RecordValidationException {
        if (errors == null) {
            return;
        }
        short code = timestampError ? KafkaErrorCodes.INVALID_TIMESTAMP : KafkaErrorCodes.INVALID_RECORD;
        throw new RecordValidationException(
                code,
                errors.size() + " record(s) rejected, first: " + errors.get(0).message(),
                errors);
    }

    long maxTimestamp() {
        return maxTimestamp;
    }

    int maxTimestampOffsetDelta() {
        return maxTimestampOffsetDelta;
    }

    private void fail(int index, String message, boolean timestamp) {
        if (errors == null) {
            errors = new ArrayList<>(1);
        }
        errors.add(new RecordError(index, message));
        timestampError |= timestamp;
    }
}
