package io.sluice.cluster.controller;

import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * One partition of a Kafka AlterPartition request: the ISR the partition's leader proposes, with the leader epoch
 * and partition epoch of the state the leader based it on. The array is never modified after construction.
 * Immutable by contract; safe to share.
 *
 * @param topicId        the topic's id
 * @param partition      the partition index
 * @param leaderEpoch    the leader epoch the sender leads under
 * @param partitionEpoch the partition epoch of the state the sender last saw
 * @param newIsr         the proposed in-sync replicas, the leader among them
 */
public record IsrChangeRequest(UUID topicId, int partition, int leaderEpoch, int partitionEpoch, int[] newIsr) {
    public IsrChangeRequest {
        Objects.requireNonNull(topicId, "topicId");
        Objects.requireNonNull(newIsr, "newIsr");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IsrChangeRequest r
                && topicId.equals(r.topicId)
                && partition == r.partition
                && leaderEpoch == r.leaderEpoch
                && partitionEpoch == r.partitionEpoch
                && Arrays.equals(newIsr, r.newIsr);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topicId, partition, leaderEpoch, partitionEpoch) * 31 + Arrays.hashCode(newIsr);
    }

    @Override
    public String toString() {
        return "IsrChangeRequest{" + topicId + "-" + partition + ", leaderEpoch=" + leaderEpoch + ", partitionEpoch="
                + partitionEpoch + ", newIsr=" + Arrays.toString(newIsr) + "}";
    }
}
