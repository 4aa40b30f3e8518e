package io.sluice.broker.group;

import java.util.ArrayList;
import java.util.List;

/**
 * Consumer lag of the groups this broker coordinates: for every committed offset, the partition's high watermark
 * minus that offset, as {@code kafka-consumer-groups.sh --describe} shows it (its LOG-END-OFFSET is the ListOffsets
 * "latest" answer for read_uncommitted, the high watermark). Partitions a group has not committed are not listed,
 * as the tool shows no lag for them either.
 *
 * <p>Thread-safe: each group is read under its own lock; high watermarks are read from {@link HighWatermarks}.
 */
public final class ConsumerLag {
    /** Where high watermarks come from. Must be thread-safe and must not block. */
    @FunctionalInterface
    public interface HighWatermarks {
        /** The partition's high watermark, or {@link GroupLag.PartitionLag#UNKNOWN} when not known (yet). */
        long highWatermark(String topic, int partition);
    }

    private final GroupCoordinator coordinator;
    private final HighWatermarks highWatermarks;

    public ConsumerLag(GroupCoordinator coordinator, HighWatermarks highWatermarks) {
        this.coordinator = coordinator;
        this.highWatermarks = highWatermarks;
    }

    /** The lag of every group this broker serves now, groups and partitions in name order. */
    public List<GroupLag> groups() {
        List<GroupOffsets> served = coordinator.servedGroupOffsets();
        List<GroupLag> lags = new ArrayList<>(served.size());
        for (GroupOffsets group : served) {
            List<GroupLag.PartitionLag> partitions =
                    new ArrayList<>(group.committed().size());
            for (GroupOffsets.Committed c : group.committed()) {
                partitions.add(new GroupLag.PartitionLag(
                        c.topic(), c.partition(), c.offset(), highWatermarks.highWatermark(c.topic(), c.partition())));
            }
            lags.add(new GroupLag(group.groupId(), group.state(), group.members(), partitions));
        }
        return lags;
    }
}
