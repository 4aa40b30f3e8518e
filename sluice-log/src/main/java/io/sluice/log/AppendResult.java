package io.sluice.log;

/**
 * Outcome of {@link PartitionLog#appendAsLeader}. Immutable.
 *
 * @param firstOffset          offset assigned to the first record appended (or, for a duplicate, originally assigned)
 * @param lastOffset           offset of the last record appended (or originally assigned)
 * @param maxTimestamp         largest batch maxTimestamp in the request (-1 when none, or for a duplicate)
 * @param offsetOfMaxTimestamp last offset of the batch holding {@code maxTimestamp} (-1 when none)
 * @param logAppendTimeMs      -1 for an append (LogAppendTime is stamped by the validator upstream); for a duplicate,
 *                             the cached batch's max timestamp, as Kafka's UnifiedLog answers a retried batch
 * @param logStartOffset       the log start offset after the append, for the produce response
 * @param duplicate            the request retried a batch among the producer's last five: nothing was appended
 */
public record AppendResult(
        long firstOffset,
        long lastOffset,
        long maxTimestamp,
        long offsetOfMaxTimestamp,
        long logAppendTimeMs,
        long logStartOffset,
        boolean duplicate) {}
