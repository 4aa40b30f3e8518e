package io.sluice.broker.move;

import io.sluice.log.PartitionLog;

/**
 * How the source side of a move finds a hosted partition. The broker implements it over its hosted partitions;
 * implementations must be thread-safe.
 */
@FunctionalInterface
public interface MoveSourceLogs {

    /** A hosted partition: its log, its current leader epoch, and the offset below which everything is committed. */
    record Hosted(PartitionLog log, int leaderEpoch, long highWatermark) {}

    /** The partition if this broker hosts it, else null. */
    Hosted find(String topic, int partition);
}
