package io.sluice.broker.group.store;

/** Maps a group id to its partition of the group store the way Kafka maps it to __consumer_offsets. Stateless. */
public final class GroupPartitioner {
    private GroupPartitioner() {}

    /** Kafka's {@code Utils.abs(groupId.hashCode()) % partitionCount}. */
    public static int partitionFor(String groupId, int partitionCount) {
        if (partitionCount <= 0) {
            throw new IllegalArgumentException("offsets.topic.num.partitions must be positive, was " + partitionCount);
        }
        int hash = groupId.hashCode();
        int abs = hash == Integer.MIN_VALUE ? 0 : Math.abs(hash);
        return abs % partitionCount;
    }
}
