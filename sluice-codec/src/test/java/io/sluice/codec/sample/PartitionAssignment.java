package io.sluice.codec.sample;

import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * The controller's decision for one partition: replicas, leader, leader epoch, ISR and partition epoch.
 * Schema v0: topicId, topicName, partition, replicas, leaderId, leaderEpoch, isr, partitionEpoch.
 * Mutable value holder; not thread-safe.
 */
public final class PartitionAssignment implements Message {
    public static final int TYPE_ID = ClusterMessages.PARTITION_ASSIGNMENT;
    private static final String[] FIELDS = {
        "topicId", "topicName", "partition", "replicas", "leaderId", "leaderEpoch", "isr", "partitionEpoch"
    };

    public UUID topicId = new UUID(0, 0);
    public String topicName = "";
    public int partition;
    public int[] replicas = new int[0];
    public int leaderId = -1;
    public int leaderEpoch;
    public int[] isr = new int[0];
    public int partitionEpoch;

    public PartitionAssignment() {}

    public PartitionAssignment(
            UUID topicId,
            String topicName,
            int partition,
            int[] replicas,
            int leaderId,
            int leaderEpoch,
            int[] isr,
            int partitionEpoch) {
        this.topicId = topicId;
        this.topicName = topicName;
        this.partition = partition;
        this.replicas = replicas;
        this.leaderId = leaderId;
        this.leaderEpoch = leaderEpoch;
        this.isr = isr;
        this.partitionEpoch = partitionEpoch;
    }

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeUuid(topicId)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeString(topicName)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeInt(partition)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeIntArray(replicas)) {
                    return false;
                }
                w.incrementState();
            case 4:
                if (!w.writeInt(leaderId)) {
                    return false;
                }
                w.incrementState();
            case 5:
                if (!w.writeInt(leaderEpoch)) {
                    return false;
                }
                w.incrementState();
            case 6:
                if (!w.writeIntArray(isr)) {
                    return false;
                }
                w.incrementState();
            case 7:
                if (!w.writeInt(partitionEpoch)) {
                    return false;
                }
                w.incrementState();
            default:
                return true;
        }
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean readFrom(MessageReader r) {
        switch (r.state()) {
            case 0:
                topicId = r.readUuid();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                topicName = r.readString();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                partition = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                replicas = r.readIntArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                leaderId = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 5:
                leaderEpoch = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 6:
                isr = r.readIntArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 7:
                partitionEpoch = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            default:
                return true;
        }
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionAssignment p
                && Objects.equals(topicId, p.topicId)
                && Objects.equals(topicName, p.topicName)
                && partition == p.partition
                && Arrays.equals(replicas, p.replicas)
                && leaderId == p.leaderId
                && leaderEpoch == p.leaderEpoch
                && Arrays.equals(isr, p.isr)
                && partitionEpoch == p.partitionEpoch;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topicId, partition, leaderEpoch);
    }

    @Override
    public String toString() {
        return "PartitionAssignment{" + topicName + "/" + topicId + "-" + partition + ", replicas="
                + Arrays.toString(replicas) + ", leader=" + leaderId + ", leaderEpoch=" + leaderEpoch + ", isr="
                + Arrays.toString(isr) + ", partitionEpoch=" + partitionEpoch + "}";
    }
}
