package io.sluice.cluster.state;

/**
 * Names one partition by topic name and index. Immutable; safe to share.
 */
public record PartitionRef(String topic, int partition) {
    @Override
    public String toString() {
        return topic + "-" + partition;
    }
}
