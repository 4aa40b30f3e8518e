package io.sluice.broker.group;

import java.util.List;

/**
 * Consumer lag of one group, partition by partition, as {@code kafka-consumer-groups.sh --describe} computes it.
 *
 * <p>Immutable.
 */
public record GroupLag(String groupId, String state, int members, List<PartitionLag> partitions) {
    public GroupLag {
        partitions = List.copyOf(partitions);
    }

    /** The sum of the partitions' lags where the log end offset is known. */
    public long totalLag() {
        long total = 0;
        for (PartitionLag p : partitions) {
            if (p.isKnown()) {
                total += p.lag();
            }
        }
        return total;
    }

    /**
     * One partition's lag.
     *
     * @param logEndOffset the partition's high watermark (the end a read_uncommitted consumer sees, which is what
     *                     Kafka's tool shows as LOG-END-OFFSET); {@link #UNKNOWN} when no source had it yet
     */
    public record PartitionLag(String topic, int partition, long committedOffset, long logEndOffset) {
        public static final long UNKNOWN = -1;

        public boolean isKnown() {
            return logEndOffset != UNKNOWN;
        }

        /**
         * Log end offset minus committed offset, unclamped as Kafka's tool prints it (a committed offset past the
         * high watermark shows as negative); {@link #UNKNOWN} when the log end offset is unknown.
         */
        public long lag() {
            return isKnown() ? logEndOffset - committedOffset : UNKNOWN;
        }
    }
}
